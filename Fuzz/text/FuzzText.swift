// The fuzz-text executable: libFuzzer's entry points are in TerrapinFuzzing (LibFuzzer.swift),
// which fuzzes FuzzEntry.text because of this executable's name.
import TerrapinFuzzing
