// The map part of a scene file as plain data (Equatable, Sendable), the files it references and
// their confinement; SceneBuilder.swift turns it into a `Map`.
// Views in a scene are a tree of `ViewSpec`s whose modifiers are an ordered list, because, as
// in SwiftUI, `.padding(8).background(…)` and `.background(…).padding(8)` differ.
import Foundation
import TerrapinBasemap
import TerrapinGeo
import TerrapinRaster
import TerrapinIO
import TerrapinImagery
import TerrapinTerrainData
import TerrapinTypography
import TerrapinViews

public struct MapScene: Equatable, Sendable {
    public var mode: MapMode = .hybrid
    /// Nil: fitted to the markers.
    public var camera: Camera?
    public var terrain: TerrainSpec?
    public var imagery: ImagerySpec?
    public var basemap: BasemapSpec?
    /// Sun azimuth and altitude in degrees; nil: the default (315, 45).
    public var sun: [Double]?
    /// Opacity for markers the ground hides; nil hides them.
    public var dimmedOccludedOpacity: Double?
    /// The figure of the Earth (`Map.earth`): WGS84 unless "sphere" is written.
    public var earth = Ellipsoid.wgs84
    public var markers: [MarkerSpec] = []
    /// Drawn on the map under every marker: polygons first, then polylines.
    public var polylines: [PolylineSpec] = []
    public var polygons: [PolygonSpec] = []
    /// GeoJSON files drawn as polylines, polygons and markers (after the scene's own).
    public var geojson: [GeoJSONSpec] = []
    public var buildings: [BuildingSpec] = []
    /// glTF 2.0 / GLB models, in the 3D layer with the terrain and buildings.
    public var models: [ModelSpec] = []
    public var labels: [BasemapLabel] = []
    public var flights: [CameraFlight] = []
    public var cameraRestriction: CameraLimits?
    /// The attribution drawn in the bottom-right corner: nil takes the tile sources' own,
    /// `""` draws none.
    public var attribution: String?
    /// The language of the map's text (a BCP 47 tag such as "ja" or "zh-Hant"): regional Han
    /// forms in markers, popovers and Marker3D views. Nil: inferred from each text.
    public var locale: String?

    public init() {}
}

/// A vector basemap: its tiles and, optionally, a MapLibre style file or a built-in style's
/// name ("roadmap", "light", "dark", "hybrid"), drawn for the tiles' schema; without one the
/// mode's built-in style draws.
public struct BasemapSpec: Equatable, Sendable {
    public var tiles: String
    public var style: String?
    /// Features' states for the style's `feature-state` (MapLibre's `setFeatureState`).
    public var featureStates = FeatureStates()
    /// Images added to the style's sprite (MapLibre's `addImage`), in order.
    public var images: [AddedImage] = []
    public init(tiles: String, style: String? = nil) {
        (self.tiles, self.style) = (tiles, style)
    }
}

/// An extruded footprint (see `Building`).
public struct BuildingSpec: Equatable, Sendable {
    public var footprint: [LatLngAltitude]
    /// Courtyards: rings inside the footprint, open to the ground.
    public var holes: [[LatLngAltitude]] = []
    public var base = 0.0
    public var roof: Double
    public var color = RGBA8(red: 214, green: 208, blue: 198)
}

public struct TerrainSpec: Equatable, Sendable {
    /// As written in the scene (relative paths resolve against the scene's directory); empty
    /// when the samples are inline.
    public var file: String
    /// West, south, east, north in degrees: required for Terrarium PNGs.
    public var bounds: [Double]?
    public var exaggeration: Double = 1
    /// `file` is a tile source (PMTiles, MBTiles or an XYZ template) of elevation tiles in
    /// `encoding`, stitched around the camera (see `TileTerrain`).
    public var tiles = false
    public var encoding: ElevationEncoding = .terrainrgb
    /// Samples written in the scene itself.
    public var inline: InlineGrid?
}

/// A height grid written out in a scene: `columns` × `rows` samples in metres, row-major from
/// the north-west, each the centre of its cell; `bounds` [west, south, east, north] are the
/// outer edges of the cells (as for Terrarium PNGs).
public struct InlineGrid: Equatable, Sendable {
    public var columns: Int
    public var rows: Int
    public var bounds: [Double]
    public var samples: [Float]

    public init(columns: Int, rows: Int, bounds: [Double], samples: [Float]) {
        (self.columns, self.rows, self.bounds, self.samples) = (columns, rows, bounds, samples)
    }

    public init(_ grid: HeightGrid) {
        self.init(columns: grid.columns, rows: grid.rows,
                  bounds: [grid.westCentre - grid.cellWidth / 2, grid.southCentre - grid.cellHeight / 2,
                           grid.eastCentre + grid.cellWidth / 2, grid.northCentre + grid.cellHeight / 2],
                  samples: grid.samples)
    }

    public var grid: HeightGrid? {
        let dx = (bounds[2] - bounds[0]) / Double(columns), dy = (bounds[3] - bounds[1]) / Double(rows)
        return HeightGrid(columns: columns, rows: rows, westCentre: bounds[0] + dx / 2, southCentre: bounds[1] + dy / 2,
                          cellWidth: dx, cellHeight: dy, samples: samples)
    }
}

/// An image draped on the ground (see `Imagery`).
public struct ImagerySpec: Equatable, Sendable {
    /// As written in the scene (relative paths resolve against the scene's directory).
    public var file: String
    /// West, south, east, north in degrees: the image's outer edges.
    public var bounds: [Double]
    public var projection: Imagery.Projection = .geographic
    public var shading = 0.0
    /// `file` is a tile source of raster tiles (PMTiles, MBTiles or an XYZ template); no bounds.
    public var tiles = false
}

public struct MarkerSpec: Equatable, Sendable {
    public enum Kind: String, Sendable, CaseIterable { case marker, marker3D, popover }
    public enum Marker3DStyle: Equatable, Sendable {
        case `default`
        case pin(PinSpec)
        case image(ImageSpec)
        case view(ViewSpec)
    }

    public var kind: Kind = .marker
    public var position: LatLngAltitude
    public var altitudeMode: AltitudeMode = .clampToGround
    public var collisionBehavior: CollisionBehavior = .required
    public var collisionPriority: Int?
    public var zIndex: Int = 0
    public var anchor: UnitPoint = .bottom
    /// A `Marker`'s content; nil shows the default pin.
    public var content: ViewSpec?
    public var popover: PopoverSpec?
    /// Tapping the marker toggles its popover.
    public var tapTogglesPopover = false
    /// A standalone popover's offset of its stem tip from the position, points.
    public var popoverOffset = Size.zero
    // Marker3D only.
    public var extruded = false
    public var drawsWhenOccluded = false
    public var sizePreserved = false
    public var label = ""
    public var style: Marker3DStyle = .default

    public init(position: LatLngAltitude) { self.position = position }
}

public struct PopoverSpec: Equatable, Sendable {
    public var isOpen = false
    public var autoClose = true
    public var autoPan = true
    public var padding = 16.0
    public var backgroundColor = Color.white
    public var cornerRadius = 8.0
    /// How it fades in when a tap opens it (the toggle runs in `withAnimation`); nil: at once.
    public var animation: Animation?
    public var content: ViewSpec
}

// MARK: - Referenced files

extension MapScene {
    /// Every file the map reads (terrain, images), as written in the scene, in scene order.
    public var referencedFiles: [String] {
        var files: [String] = []
        if let terrain, terrain.inline == nil { files.append(terrain.file) }
        if let imagery { files.append(imagery.file) }
        if let basemap {
            files.append(basemap.tiles)
            if let style = basemap.style, !BasemapStyle.builtinNames.contains(style) { files.append(style) }
        }
        files += geojson.map(\.file)
        func image(_ i: ImageSpec) { if let f = i.file { files.append(f) } }
        func pin(_ p: PinSpec) { if let g = p.glyph { view(g) } }
        func view(_ v: ViewSpec) {
            switch v.content {
            case .image(let i): image(i)
            case .pin(let p): pin(p)
            case .vstack(_, _, let children), .hstack(_, _, let children), .zstack(_, let children): children.forEach(view)
            default: break
            }
            for m in v.modifiers {
                switch m {
                case .background(let b), .overlay(let b): view(b)
                default: break
                }
            }
        }
        for m in markers {
            if let c = m.content { view(c) }
            if let p = m.popover { view(p.content) }
            switch m.style {
            case .pin(let p): pin(p)
            case .image(let i): image(i)
            case .view(let v): view(v)
            case .default: break
            }
        }
        return files
    }
}
