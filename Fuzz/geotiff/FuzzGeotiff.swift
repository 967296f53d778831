// The fuzz-geotiff executable: libFuzzer's entry points are in TerrapinFuzzing (LibFuzzer.swift),
// which fuzzes FuzzEntry.geotiff because of this executable's name.
import TerrapinFuzzing
