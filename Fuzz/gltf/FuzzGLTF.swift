// The fuzz-gltf executable: libFuzzer's entry points are in TerrapinFuzzing (LibFuzzer.swift),
// which fuzzes FuzzEntry.gltf because of this executable's name.
import TerrapinFuzzing
