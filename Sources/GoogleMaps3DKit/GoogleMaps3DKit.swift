// The SDK 1.0 ships `GoogleMaps3DKit` (POI taps with the Places widget) beside `GoogleMaps3D`,
// and re-exports it. Here it is all of Terrapin, so app code importing either compiles with its
// other imports changed to `import Terrapin` (or `import GoogleMaps3DKit` kept as it is).
@_exported import Terrapin
