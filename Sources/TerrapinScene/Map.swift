// `Map`: the mode, the camera, the content and the map-wide options (terrain, imagery, sun,
// flights, restrictions, time, labels, buildings), each set by a modifier that returns a copy.
import TerrapinGeo
import Terrapin3D
import TerrapinImagery
import TerrapinTerrain
import TerrapinTerrainData
import TerrapinTiles
import TerrapinViews

/// A map: a mode, a camera (fixed, a binding, or fitted to the content) and content.
public struct Map {
    public var mode: MapMode
    public var initialCamera: Camera?
    public var camera: Binding<Camera>?
    public var items: [MapItem]
    /// The ground: flat sea level unless terrain is given (Terrapin's addition to the SDK).
    public var terrain: TerrainGround?
    public var buildings: [Building] = []
    /// Imagery draped on the ground in `.satellite` and `.hybrid` modes (Terrapin's; the SDK
    /// brings its own). Where it does not reach, or is transparent, shaded relief shows.
    public var imagery: Imagery?
    /// A vector basemap (Terrapin's; the SDK brings its own): drawn in `.roadmap` and
    /// `.hybrid`, its labels colliding with markers and its extrusions standing as buildings.
    public var basemap: MapBasemap?
    /// Where the light comes from: azimuth (degrees clockwise from north) and altitude
    /// (degrees above the horizon). Default 315, 45 (north-west, as cartographic hillshades).
    public var sun = (azimuth: 315.0, altitude: 45.0)
    /// The attribution drawn small in the bottom-right corner: nil (the default) draws the tile
    /// sources' own (ODbL and CC-BY data require it), "" draws none.
    public var attribution: String?
    /// Camera flights on a time line, evaluated at `time` (see `CameraFlight`).
    public var flights: [CameraFlight] = []
    /// Camera flights the SDK's way: each starts when its trigger changes.
    public var triggeredFlights: [TriggeredFlight] = []
    /// Limits on the camera, however it is set.
    public var cameraRestriction: CameraLimits?
    /// Seconds from the scene's start at which the map is drawn. Default 0.
    public var time = 0.0
    /// The basemap's labels, shown in `.hybrid` and `.roadmap` modes.
    public var basemapLabels: [BasemapLabel] = []
    /// How markers hidden by the ground are drawn. Default `.hidden`.
    public var occludedMarkers: OccludedMarkerStyle = .hidden
    /// The Earth positions are placed on (Terrapin's): `.wgs84` (the default, as the SDK) or
    /// `.sphere`, Web Mercator's, on which a straight-down view matches a web map's pixel for pixel,
    /// or `.mercator`, Web Mercator's flat plane, on which every view is a web map's (no terrain).
    public var earth = Ellipsoid.wgs84
    /// `onTap`'s handler.
    public var tapHandler: ((MapTapInfo) -> Void)?
    /// `onPlaceTap`'s handler: what to do with a tapped place's card.
    public var placeTapHandler: ((String) -> PlaceTapAction)?
    /// Whether a tapped place shows its card (`placeInformationEnabled`). Default true.
    public var placeInformationEnabled = true
    /// The place whose card is open: the map's own state (as the SDK keeps it), set by a tap on
    /// a place, closed by the card's close button; it lives as long as the map view does.
    public let placeCard = State<PlaceCard?>(wrappedValue: nil)
    /// The language of the basemap's labels (a BCP 47 tag, "fr", "zh-TW"), or nil for the style's own
    /// (`labelLanguage(_:)`; in a view, the environment's locale when not set).
    public var labelLanguage: String?
    /// The controls declared with `mapControls`, one group per position.
    public var controls: [MapControlGroup] = []

    public init(mode: MapMode, @MapContentBuilder content: () -> MapItems = { MapItems(items: []) }) {
        self.mode = mode
        initialCamera = nil
        camera = nil
        items = content().items
    }

    public init(initialCamera: Camera, mode: MapMode, @MapContentBuilder content: () -> MapItems = { MapItems(items: []) }) {
        self.mode = mode
        self.initialCamera = initialCamera
        camera = nil
        items = content().items
    }

    public init(camera: Binding<Camera>, mode: MapMode, @MapContentBuilder content: () -> MapItems = { MapItems(items: []) }) {
        self.mode = mode
        initialCamera = nil
        self.camera = camera
        items = content().items
    }

    /// The map over a height grid.
    public func terrain(_ grid: HeightGrid, exaggeration: Double = 1) -> Map {
        with { $0.terrain = TerrainGround(grid: grid, exaggeration: exaggeration) }
    }

    /// The map over a ground of one or more nested grids (`TileTerrain.ground` makes one from
    /// elevation tiles, finer near a camera).
    public func terrain(_ ground: TerrainGround) -> Map {
        with { $0.terrain = ground }
    }

    /// The map with imagery on its ground (drawn in `.satellite` and `.hybrid`; `.roadmap`
    /// keeps its light palette).
    public func imagery(_ imagery: Imagery) -> Map { with { $0.imagery = imagery } }

    /// The map with this attribution text in its corner ("" for none).
    public func attribution(_ text: String) -> Map { with { $0.attribution = text } }

    /// What the corner says: `attribution` when set, else the imagery's and terrain's tile
    /// sources' attributions, distinct, joined by " · ". Empty: nothing is drawn.
    public var attributionText: String {
        if let attribution { return attribution }
        var parts: [String] = []
        let imageryCredit = drawnBasemap == nil && mode != .roadmap ? imagery?.tiles?.attribution : nil
        for text in [drawnBasemap?.attribution, imageryCredit, terrain?.grid.source?.attribution] {
            if let text, !text.isEmpty, !parts.contains(text) { parts.append(text) }
        }
        return parts.joined(separator: " · ")
    }

    /// The sun lighting terrain and buildings (Terrapin's): azimuth clockwise from north,
    /// altitude above the horizon, in degrees.
    public func sun(azimuth: Double, altitude: Double) -> Map { with { $0.sun = (azimuth, altitude) } }

    /// The SDK's `flyCameraTo`: when `trigger` changes (a `@State` set by a tap at T, or by
    /// `onAppear` at 0), the camera flies from where it is then to `camera` over `duration`
    /// seconds (nil: chosen by the distance, see `CameraFlight`); `completion` runs once when it
    /// lands, at that time, so what it changes is drawn from then on. A trigger that never
    /// changed starts nothing. (Inside a view holding the trigger's state; see Triggers.swift.)
    public func flyCameraTo(_ camera: Camera, duration: Double? = nil, trigger: some Equatable, completion: @escaping () -> Void = {}) -> Map {
        with { $0.triggeredFlights.append(TriggeredFlight(flight: .to(camera, duration: duration), trigger: trigger, completion: completion)) }
    }

    /// The SDK's `flyCameraAround`: when `trigger` changes, the camera orbits `camera`'s centre
    /// `repeatCount` times over `duration` seconds (nil: 12 s a round), then `completion` runs.
    public func flyCameraAround(_ camera: Camera, duration: Double? = nil, repeatCount: Double = 1, trigger: some Equatable,
                                completion: @escaping () -> Void = {}) -> Map {
        with { $0.triggeredFlights.append(TriggeredFlight(flight: .around(camera, duration: duration, rounds: repeatCount), trigger: trigger, completion: completion)) }
    }

    /// `flyCameraTo` on a time line (Terrapin's, as scene files write it): from the camera at
    /// `start` seconds to `camera`, over `duration` seconds.
    public func flyCameraTo(_ camera: Camera, duration: Double, start: Double = 0) -> Map {
        with { $0.flights.append(.to(camera, duration: duration, start: start)) }
    }

    /// `flyCameraAround` on a time line: `camera`, its heading turning `rounds` full turns over
    /// `duration`, from `start` seconds.
    public func flyCameraAround(_ camera: Camera, duration: Double, rounds: Double = 1, start: Double = 0) -> Map {
        with { $0.flights.append(.around(camera, duration: duration, rounds: rounds, start: start)) }
    }

    /// The flights drawn at `time`: the time line's and each triggered one from when its trigger
    /// changed (`starts`, in the order of `triggeredFlights`; nil: not started).
    public func flown(starts: [Double?]) -> Map {
        var m = self
        for (flight, start) in zip(triggeredFlights, starts) {
            guard let start else { continue }
            var f = flight.flight
            f.start = start
            m.flights.append(f)
        }
        return m
    }

    /// Limits the camera — initial, bound, fitted, flown or panned — to `restriction`.
    public func cameraRestriction(_ restriction: CameraLimits) -> Map { with { $0.cameraRestriction = restriction } }

    /// The SDK's form: `.cameraRestrictions([.altitude(0...5000), .bounds(LatLngBounds(…)), .heading(…), .tilt(…)])`.
    public func cameraRestrictions(_ restrictions: [CameraRestriction]) -> Map { with { $0.cameraRestriction = CameraLimits(restrictions) } }

    /// The map as drawn `seconds` after the scene's start (camera flights at that time).
    public func time(_ seconds: Double) -> Map { with { $0.time = seconds } }

    /// The basemap's place names (Terrapin draws no map data of its own: a scene gives them).
    public func basemapLabels(_ labels: [BasemapLabel]) -> Map { with { $0.basemapLabels = labels } }

    /// Buildings on the map (Terrapin's; the SDK draws its own). With the terrain they are the
    /// mesh that `relativeToMesh` and occlusion use.
    public func buildings(_ buildings: [Building]) -> Map { with { $0.buildings = buildings } }

    /// Draw markers hidden by terrain dimmed instead of not at all (Terrapin's option).
    public func occludedMarkers(_ style: OccludedMarkerStyle) -> Map { with { $0.occludedMarkers = style } }

    /// The map on another figure of the Earth (Terrapin's option; see `earth`).
    public func earth(_ ellipsoid: Ellipsoid) -> Map { with { $0.earth = ellipsoid } }

    /// A copy with `change` made (the modifiers above).
    // MARK: - Accepted with no offline effect (the SDK's online features)

    /// The SDK's API key (a `String`, as in the SDK 1.0). Terrapin reads no network: accepted
    /// and unused.
    nonisolated(unsafe) public static var apiKey: String = ""
    /// A cloud map style. Accepted and unused (Terrapin draws `mode`).
    public func style(mapID: String) -> Map { self }
    /// Taps on basemap places (the SDK 1.0's, from GoogleMaps3DKit): a vector basemap's labels
    /// and icons, by "layer/feature id" (the style layer's id and the vector tile feature's id,
    /// or the label's text when the tiles give their features no ids). The handler's answer
    /// says whether the place's card is drawn (`.default`) or not (`.none`); `Map.onTap` then
    /// runs with `.place(id:)`.
    public func onPlaceTap(_ action: @escaping (String) -> PlaceTapAction) -> Map { with { $0.placeTapHandler = action } }
    /// The SDK 0.2's form, whose handler returns nothing: the card is shown.
    @available(*, deprecated, message: "the SDK 1.0's handler returns a PlaceTapAction")
    public func onPlaceTap(_ action: @escaping (String) -> Void) -> Map {
        with { $0.placeTapHandler = { id in action(id); return .default } }
    }
    /// Whether a tapped place shows its card (default true); false shows none for any place.
    public func placeInformationEnabled(_ enabled: Bool) -> Map { with { $0.placeInformationEnabled = enabled } }

    /// A copy with `change` made (every modifier is one).
    public func with(_ change: (inout Map) -> Void) -> Map {
        var m = self
        change(&m)
        return m
    }

    /// The terrain the map is drawn with: `terrain`, except on Web Mercator's plane, which
    /// terrain does not lie on (scene files that ask for both are refused).
    public var groundTerrain: TerrainGround? { earth.isPlane ? nil : terrain }

    /// What markers stand on: the terrain (or flat ground), with the buildings on it, for a
    /// view 768 points high (the basemap's extrusions are made at the camera's zoom for the
    /// view's height: `ground(height:)`).
    public var ground: Ground { ground(height: 768) }

    /// What markers stand on in a view `height` points high: the terrain (or flat ground), with
    /// the buildings on it (the basemap's evaluated at the view's zoom).
    public func ground(height: Double) -> Ground {
        var bare: Ground = FlatGround(ellipsoid: earth)
        if var terrain = groundTerrain {
            terrain.ellipsoid = earth
            bare = terrain
        }
        let all = buildings + basemapBuildings(height: height)
        return all.isEmpty ? bare : BuiltGround(terrain: bare, buildings: Array(all.prefix(BuiltGround.maxBuildings)))
    }

    public var markers: [Marker] { items.compactMap { if case .marker(let m) = $0 { m } else { nil } } }
    public var polylines: [Polyline] { items.compactMap { if case .polyline(let p) = $0 { p } else { nil } } }
    public var polygons: [Polygon] { items.compactMap { if case .polygon(let p) = $0 { p } else { nil } } }
    public var models: [Model] { items.compactMap { if case .model(let m) = $0 { m } else { nil } } }

    /// Runs `action` for a tap that reaches the map itself (no marker, shape or popover took it),
    /// with the ground point under it.
    public func onTap(_ action: @escaping (MapTapInfo) -> Void) -> Map { with { $0.tapHandler = action } }
}

/// A camera flight that starts when its trigger changes (`Map.flyCameraTo(_:duration:trigger:completion:)`).
public struct TriggeredFlight {
    /// The flight (its `start` is when the trigger changes).
    public var flight: CameraFlight
    public var trigger: any Equatable
    public var completion: (() -> Void)?
}

/// A basemap place, as its card shows it.
public struct PlaceCard: Equatable, Hashable, Sendable {
    /// "layer/feature id", as `onPlaceTap` hears it.
    public var id: String
    public var name: String
    /// What it is, from the tile's attributes ("cafe", "village", …), or nil.
    public var kind: String?
    public init(id: String, name: String, kind: String? = nil) { self.id = id; self.name = name; self.kind = kind }
}

/// What a tap on a place does with its card (`Map.onPlaceTap`'s answer).
public enum PlaceTapAction: Equatable, Hashable, Sendable {
    /// The place's card is drawn (the SDK's Places widget; Terrapin's is a sheet with the
    /// place's name and kind, from the tile's attributes).
    case `default`
    /// No card.
    case none
}
