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
