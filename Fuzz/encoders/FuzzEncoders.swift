// The fuzz-encoders executable: libFuzzer's entry points are in TerrapinFuzzing (LibFuzzer.swift),
// which fuzzes FuzzEntry.encoders because of this executable's name.
import TerrapinFuzzing
