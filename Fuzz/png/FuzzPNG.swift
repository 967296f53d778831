// The fuzz-png executable: libFuzzer's entry points are in TerrapinFuzzing (LibFuzzer.swift),
// which fuzzes FuzzEntry.png because of this executable's name.
import TerrapinFuzzing
