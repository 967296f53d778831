// The fuzz-tiles executable: libFuzzer's entry points are in TerrapinFuzzing (LibFuzzer.swift),
// which fuzzes FuzzEntry.tiles because of this executable's name.
import TerrapinFuzzing
