// The fuzz-svg executable: libFuzzer's entry points are in TerrapinFuzzing (LibFuzzer.swift),
// which fuzzes FuzzEntry.svg because of this executable's name.
import TerrapinFuzzing
