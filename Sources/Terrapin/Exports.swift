// The module users import: it re-exports every part a user needs.
@_exported import Terrapin3D
@_exported import TerrapinBasemap
@_exported import TerrapinCodecs
@_exported import TerrapinGeo
@_exported import TerrapinGeometry
@_exported import TerrapinImagery
@_exported import TerrapinIO
@_exported import TerrapinLoad
@_exported import TerrapinModels
@_exported import TerrapinNet
@_exported import TerrapinPNG
@_exported import TerrapinRaster
@_exported import TerrapinRender
@_exported import TerrapinScene
@_exported import TerrapinTerrain
@_exported import TerrapinTerrainData
@_exported import TerrapinTiles
@_exported import TerrapinTypography
@_exported import TerrapinViews
// `@Observable` models, as `import SwiftUI` brings them (the toolchain's Observation module).
@_exported import Observation

// What `import SwiftUI` brings of Foundation, by name, for app code whose SwiftUI import became
// `import Terrapin`: these names, and (as any import of Foundation does) Foundation's extensions
// such as `String(format:)`. Foundation is not re-exported whole: its `CGFloat`, `CGSize` and
// `CGPoint` would be ambiguous with Terrapin's (`Double`, `Size`, `Point`).
@_exported import typealias Foundation.TimeInterval
@_exported import struct Foundation.Date
@_exported import struct Foundation.URL
@_exported import struct Foundation.Data
@_exported import struct Foundation.UUID
@_exported import struct Foundation.Locale
@_exported import class Foundation.Bundle
@_exported import class Foundation.JSONDecoder
@_exported import class Foundation.JSONEncoder
@_exported import class Foundation.JSONSerialization
// (`URLSession` and `URLRequest` are not re-exported: on Linux they are FoundationNetworking's,
// which would link a second libcurl into every program; a file that makes requests adds
// `import FoundationNetworking`, as any Swift code on Linux does.)

// And the C library's mathematics, which `import SwiftUI` brings with Foundation (a view that
// turns a heading into a direction calls `sin` and `cos`).
#if canImport(Glibc)
@_exported import func Glibc.sin
@_exported import func Glibc.cos
@_exported import func Glibc.tan
@_exported import func Glibc.asin
@_exported import func Glibc.acos
@_exported import func Glibc.atan
@_exported import func Glibc.atan2
@_exported import func Glibc.sqrt
@_exported import func Glibc.pow
@_exported import func Glibc.exp
@_exported import func Glibc.log
@_exported import func Glibc.log2
@_exported import func Glibc.log10
@_exported import func Glibc.floor
@_exported import func Glibc.ceil
@_exported import func Glibc.round
@_exported import func Glibc.fabs
@_exported import func Glibc.hypot
@_exported import func Glibc.fmod
#endif
