// The fuzz-scene executable: libFuzzer's entry points are in TerrapinFuzzing (LibFuzzer.swift),
// which fuzzes FuzzEntry.scene because of this executable's name.
import TerrapinFuzzing
