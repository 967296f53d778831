// The display list: a resolved map as layers of items in painting order. Resolve builds it;
// MapPainter paints it; taps are hit-tested on it; `terrapin inspect` prints it.
//
// Layers, back to front (each holds its items in painting order):
//   ground    sky, flat ground, the terrain mesh (imagery draped on both)
//   3d        buildings, then models — sharing the ground's depth buffer
//   overlays  polygons, then polylines (ShapeResolver), drawn on the map
//   occluded  markers behind terrain drawn dimmed (`occludedMarkers(.dimmed)`), under all else
//   labels    basemap labels: they lie on the map, under every marker
//   markers   leader lines, then each shown marker back to front (a Marker3D's label right
//             after it); then the hidden ones, not drawn, with the reason
//   popovers  bubbles, and the attribution
//   controls  the map controls (`mapControls`), then an open place's card, above everything;
//             they take taps first
// How to add a kind of content: see docs/architecture.md, "Adding a kind of map content".
import TerrapinGeo
import TerrapinGeometry
import TerrapinModels
import TerrapinRaster
import TerrapinScene
import TerrapinTypography
import TerrapinTerrain
import TerrapinViews

public enum DisplayLayer: String, CaseIterable, Sendable {
    case ground, threeD = "3d", overlays, occluded, labels, markers, popovers, controls

    /// The layer's place in `allCases`.
    var order: Int {
        switch self {
        case .ground: 0
        case .threeD: 1
        case .overlays: 2
        case .occluded: 3
        case .labels: 4
        case .markers: 5
        case .popovers: 6
        case .controls: 7
        }
    }
}

/// What an item draws.
public enum DisplayContent: Equatable, Sendable {
    case sky(SkyColors)
    /// Sea-level ground in a colour, with the map's imagery or basemap draped on it.
    case flatGround(RGBAColor, drape: GroundDrape?)
    /// The height grid as a mesh, with its finer levels' sizes (columns, rows; nested near the
    /// camera), with imagery or basemap draped.
    case terrainMesh(columns: Int, rows: Int, finer: [SIMD2<Int>], drape: GroundDrape?, roadmap: Bool)
    case buildings(count: Int)
    /// A 3D model: index into `ResolvedScene.models`.
    case model(Int)
    /// A lifted marker's line down to the ground.
    case leader(marker: Int, from: Point, to: Point)
    case marker(Int)
    /// A Marker3D's text label, beneath its anchor.
    case markerLabel(Int)
    case basemapLabel(Int)
    /// A style's label's icon: drawn with the other icons of its layer, under the layer's text,
    /// as MapLibre draws a symbol layer's icons before its text.
    case basemapIcon(Int)
    /// A style's layers that lie over a symbol layer (`Basemap.layersOverLabels`), by index:
    /// drawn over the labels of the style's lower symbol layers, as MapLibre draws layers in
    /// style order (a flat map drawn at the output's resolution only; a drape holds them all).
    case basemapLayers(Range<Int>)
    /// A popover: index into `ResolvedScene.popovers`, and the marker it is on (or anchored at).
    case popover(Int, marker: Int)
    /// The data's attribution, small in the bottom-right corner on a translucent white band.
    case attribution(String)
    /// The basemap's circles facing the viewer (`ResolvedScene.circles`), drawn round over a
    /// draped ground, under the scene's own shapes.
    case basemapCircles(count: Int)
    /// A polyline or polygon: index into `ResolvedScene.shapes`.
    case shape(Int)
    /// A map control: index into `ResolvedScene.controls`.
    case control(Int)
    /// The open place's card (`ResolvedScene.placeCard`), by the place's id.
    case placeCard(String)
}

/// Where an item takes taps.
public enum HitShape: Equatable, Sendable {
    /// The laid-out view's own tap shape (a pin's outline, a clip shape) in `box`, drawn at `scale`.
    case content(Rect, scale: Double)
    /// A popover's bubble.
    case bubble(Rect)
    /// Within `halfWidth` points of a polyline's drawn runs.
    case stroke(halfWidth: Double)
    /// Inside a polygon's drawn rings (even-odd: holes take no taps).
    case fill
    /// A basemap place's label box: the tap is on the place.
    case place(Rect, id: String)
    /// A model's triangles where they are drawn (the tap's ray meets one before the ground).
    case model
    /// A map control's buttons.
    case buttons
    /// The place card: its close button closes it, the rest takes the tap and does nothing.
    case card
}

public struct DisplayItem: Sendable {
    public let layer: DisplayLayer
    public let content: DisplayContent
    /// The item's box in points (nil: the whole map).
    public var box: Rect? = nil
    /// Metres from the eye along the view axis, for items at a point.
    public var depth: Double? = nil
    public var hit: HitShape? = nil
    /// Why it is not shown (an occluded marker drawn dimmed keeps `.occluded`).
    public var hidden: HiddenReason? = nil
    /// Drawn at all (hidden items are listed, not drawn; dimmed ones are drawn).
    public var isDrawn = true
    public var opacity = 1.0
}

/// What is draped on the ground: the map's imagery, or its vector basemap (by style name).
public enum GroundDrape: Equatable, Sendable, CustomStringConvertible {
    case imagery
    case basemap(String)
    /// The basemap drawn tile by tile at the output's resolution, as a web map is, not draped:
    /// a flat map seen straight down (`GroundPass.seesFlatMap`) whose style can be
    /// (`TileDrawer.drawsDirectly`).
    case flatBasemap(String)
    public var description: String {
        switch self {
        case .imagery: "imagery draped"
        // A style file by its name alone: the printed list is the same wherever the files are.
        case .basemap(let style): "basemap \(Self.name(style)) draped"
        case .flatBasemap(let style): "basemap \(Self.name(style)) drawn at the output's resolution"
        }
    }
    static func name(_ style: String) -> String { style.split(separator: "/").last.map(String.init) ?? style }
}
