// The fuzz-grid executable: libFuzzer's entry points are in TerrapinFuzzing (LibFuzzer.swift),
// which fuzzes FuzzEntry.grid because of this executable's name.
import TerrapinFuzzing
