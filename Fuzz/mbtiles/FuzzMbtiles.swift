// The fuzz-mbtiles executable: libFuzzer's entry points are in TerrapinFuzzing (LibFuzzer.swift),
// which fuzzes FuzzEntry.mbtiles because of this executable's name.
import TerrapinFuzzing
