// The fuzz-style executable: libFuzzer's entry points are in TerrapinFuzzing (LibFuzzer.swift),
// which fuzzes FuzzEntry.style because of this executable's name.
import TerrapinFuzzing
