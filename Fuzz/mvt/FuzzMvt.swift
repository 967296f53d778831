// The fuzz-mvt executable: libFuzzer's entry points are in TerrapinFuzzing (LibFuzzer.swift),
// which fuzzes FuzzEntry.mvt because of this executable's name.
import TerrapinFuzzing
