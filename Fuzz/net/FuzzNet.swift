// The fuzz-net executable: libFuzzer's entry points are in TerrapinFuzzing (LibFuzzer.swift),
// which fuzzes FuzzEntry.net because of this executable's name.
import TerrapinFuzzing
