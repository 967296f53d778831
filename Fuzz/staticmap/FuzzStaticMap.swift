// The fuzz-staticmap executable: libFuzzer's entry points are in TerrapinFuzzing (LibFuzzer.swift),
// which fuzzes FuzzEntry.staticMap because of this executable's name.
import TerrapinFuzzing
