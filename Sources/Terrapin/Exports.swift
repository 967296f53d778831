// The module users import: it re-exports every part a user needs.
@_exported import Terrapin3D
@_exported import TerrapinBasemap
@_exported import TerrapinCodecs
@_exported import TerrapinGeo
@_exported import TerrapinGeometry
@_exported import TerrapinImagery
@_exported import TerrapinIO
@_exported import TerrapinModels
@_exported import TerrapinPNG
@_exported import TerrapinRaster
@_exported import TerrapinRender
@_exported import TerrapinScene
@_exported import TerrapinTerrain
@_exported import TerrapinTerrainData
@_exported import TerrapinTiles
@_exported import TerrapinTypography
@_exported import TerrapinViews
