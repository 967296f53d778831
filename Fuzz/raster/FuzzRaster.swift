// The fuzz-raster executable: libFuzzer's entry points are in TerrapinFuzzing (LibFuzzer.swift),
// which fuzzes FuzzEntry.raster because of this executable's name.
import TerrapinFuzzing
