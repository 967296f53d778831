// What a display list's items draw, kept by reference: the laid-out markers, the ground's
// sources and the tap handlers, taken from the map when it is resolved.
import TerrapinGeo
import TerrapinGeometry
import TerrapinModels
import TerrapinRaster
import TerrapinScene
import TerrapinTypography
import TerrapinImagery
import TerrapinTerrain
import TerrapinViews

/// What the items draw, kept by reference so the painter and hit testing need no second layout:
/// everything the painter reads besides the items is here, taken from the map when it was
/// resolved (the painter never reads the `Map`), and so are the tap handlers, captured then.
final class ResolvedContent {
    let prepared: [PreparedMarker]
    let ground: Ground
    /// The ground's sources: the height grids, the imagery or basemap draped on them, the sun.
    let terrain: TerrainGround?
    /// The ground's texture for an image of so many device pixels a point, drawn for the
    /// view's zoom.
    let groundImagery: (Double) -> Imagery?
    let sun: (azimuth: Double, altitude: Double)
    /// Tap handlers, captured at resolve: the map's, its places', and each polyline's, polygon's
    /// and model's in declaration order.
    let tapHandler: ((MapTapInfo) -> Void)?
    let placeTapHandler: ((String) -> PlaceTapAction)?
    /// The camera binding the map controls step (nil: the map's camera is not bound).
    let cameraBinding: Binding<Camera>?
    /// The map's open place card, and whether a tapped place opens one.
    let placeCard: State<PlaceCard?>
    let placeInformationEnabled: Bool
    let polylineTaps: [(() -> Void)?]
    let polygonTaps: [(() -> Void)?]
    let modelTaps: [(() -> Void)?]
    /// The attribution's text laid out (nil when the map credits no one).
    let attribution: TextLayout?
    /// `width`: the map's width in points; a credit wider than it wraps onto more lines, right
    /// aligned (at most three; the rest is cut at the left).
    /// `zoom`: the view's MapLibre zoom, at which the basemap's style is evaluated on the ground.
    init(map: Map, prepared: [PreparedMarker], ground: Ground, width: Double = .infinity, zoom: Double? = nil) {
        self.prepared = prepared
        self.ground = ground
        terrain = map.groundTerrain
        groundImagery = { [map] unit in map.groundImagery(unit: unit, zoom: zoom) }
        sun = map.sun
        tapHandler = map.tapHandler
        placeTapHandler = map.placeTapHandler
        cameraBinding = map.camera
        placeCard = map.placeCard
        placeInformationEnabled = map.placeInformationEnabled
        // One walk of the items (`Map.polylines` and its siblings each walk them again).
        var polylineTaps: [(() -> Void)?] = [], polygonTaps: [(() -> Void)?] = [], modelTaps: [(() -> Void)?] = []
        for item in map.items {
            switch item {
            case .polyline(let p): polylineTaps.append(p.tapAction)
            case .polygon(let p): polygonTaps.append(p.tapAction)
            case .model(let m): modelTaps.append(m.tapAction)
            case .marker: continue
            }
        }
        self.polylineTaps = polylineTaps
        self.polygonTaps = polygonTaps
        self.modelTaps = modelTaps
        let credit = map.attributionText
        var options = TextLayoutOptions()
        if width.isFinite, width > 40 { options.maxWidth = width - 6; options.alignment = .trailing; options.lineLimit = 3 }
        attribution = credit.isEmpty ? nil : try? TextLayout.make(credit, font: MapPainter.attributionFont, options: options)
    }
}
