// The fuzz-sprite executable: libFuzzer's entry points are in TerrapinFuzzing (LibFuzzer.swift),
// which fuzzes FuzzEntry.sprite because of this executable's name.
import TerrapinFuzzing
