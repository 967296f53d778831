// The fuzz-worker executable: libFuzzer's entry points are in TerrapinFuzzing (LibFuzzer.swift),
// which fuzzes FuzzEntry.run(.worker) because of this executable's name.
import TerrapinFuzzing
