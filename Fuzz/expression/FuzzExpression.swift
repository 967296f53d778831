// The fuzz-expression executable: libFuzzer's entry points are in TerrapinFuzzing (LibFuzzer.swift),
// which fuzzes FuzzEntry.expression because of this executable's name.
import TerrapinFuzzing
