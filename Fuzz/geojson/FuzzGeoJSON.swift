// The fuzz-geojson executable: libFuzzer's entry points are in TerrapinFuzzing (LibFuzzer.swift),
// which fuzzes FuzzEntry.geojson because of this executable's name.
import TerrapinFuzzing
