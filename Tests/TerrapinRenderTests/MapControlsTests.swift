// The SDK 1.0's map controls: laid out at their positions (as printed text), drawn (a golden),
// and tapped (each button's step on the camera binding).
import Foundation
import Testing
@testable import Terrapin
@testable import TerrapinRender

private let ferryBuilding = LatLngAltitude(latitude: 37.7955, longitude: -122.3937, altitude: 0)

/// Every control, at all four positions, with spacers pushing the top row right and the bottom
/// row apart; the map faces 30° east of north, so the compass's needle leans left.
private struct AllControls: View {
    @State var camera = Camera(center: ferryBuilding, heading: 30, tilt: 45, range: 2000)
    var body: some View {
        Map(camera: $camera, mode: .roadmap) {
            Marker(position: ferryBuilding)
        }
        .mapControls(at: .trailing) { CompassControl(); ZoomControl() }
        .mapControls(at: .top, margin: 12) { Spacer(); PanHorizontalControl() }
        .mapControls(at: .bottom, spacing: 12) {
            TiltControl(orientation: .horizontal)
            Spacer()
            RotateControl()
        }
        .mapControls(at: .leading) { PanVerticalControl() }
    }
}

@Suite struct MapControlsTests {
    func scene(_ map: Map, width: Double = 400, height: Double = 300) throws -> ResolvedScene {
        try MapResolver.resolve(map, width: width, height: height)
    }

    func controlLines(_ scene: ResolvedScene) -> [String] {
        scene.displayList.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.contains("control at") }
    }

    /// Stacked along their edge, `margin` from it and `spacing` apart: top to bottom at the
    /// sides, left to right at the top and bottom; centred without a spacer, pushed by one.
    @Test func placedAtTheirPositions() throws {
        let map = try #require(try MapResolver.maps(in: AllControls().frame(width: 400, height: 300)).first)
        #expect(controlLines(map.scene) == [
            // Trailing: 40 + 8 + 80 = 128 pt, centred in 300: from y 86; 16 pt from the right.
            "compass control at trailing: compass 344,86 40x40, needle turned -30°, box 344,86 40x40, taps: its buttons",
            "zoom control at trailing: + 344,134 40x40, − 344,174 40x40, box 344,134 40x80, taps: its buttons",
            // Top: the spacer takes the room left, so the control ends 12 pt from the right.
            "pan horizontal control at top: ← 308,12 40x40, → 348,12 40x40, box 308,12 80x40, taps: its buttons",
            // Bottom: 80 + 12 + spacer + 12 + 80 = 400 − 2 × 16.
            "tilt control at bottom: tilt up 16,244 40x40, tilt down 56,244 40x40, box 16,244 80x40, taps: its buttons",
            "rotate control at bottom: ↺ 304,244 40x40, ↻ 344,244 40x40, box 304,244 80x40, taps: its buttons",
            // Leading, `.auto`: vertical; centred: (300 − 80) / 2.
            "pan vertical control at leading: ↑ 16,110 40x40, ↓ 16,150 40x40, box 16,110 40x80, taps: its buttons",
        ])
        // Controls are the front layer: the list's last.
        #expect(map.scene.items.last?.layer == .controls)
    }

    /// A second `mapControls` for a position replaces its controls; other positions keep theirs.
    @Test func aSecondCallForAPositionReplacesIt() throws {
        let map = Map(initialCamera: Camera(center: ferryBuilding, range: 2000), mode: .roadmap)
            .mapControls(at: .trailing) { CompassControl() }
            .mapControls(at: .leading) { ZoomControl(orientation: .horizontal) }
            .mapControls(at: .trailing) {
                for _ in 0..<2 { RotateControl() }
                if Bool(truthy: false) { CompassControl() } else { TiltControl() }
            }
        #expect(map.controls.map(\.position) == [.leading, .trailing])
        #expect(map.controls[1].controls == [.rotate(.auto), .rotate(.auto), .tilt(.auto)])
        let lines = controlLines(try scene(map))
        #expect(lines.count == 4)
        // Horizontal at the leading edge: 80 wide, 40 high, centred vertically.
        #expect(lines[0].hasPrefix("zoom control at leading: + 16,130 40x40, − 56,130 40x40"))
    }

    /// Each button steps the bound camera: range halved and doubled, tilt ±15°, heading ±45°,
    /// the compass back to north, a pan a third of the view.
    @Test func buttonsStepTheBoundCamera() throws {
        let start = Camera(center: ferryBuilding, heading: 90, tilt: 30, range: 2000)
        let view = AllControls(camera: start)
        let size = ProposedSize(width: 400, height: 300)
        func tap(_ x: Double, _ y: Double) throws -> Camera {
            view.camera = start
            let hit = try ViewRenderer.tap(view.frame(width: 400, height: 300), at: Point(x, y), proposal: size)
            #expect(hit != nil)
            return view.camera
        }
        #expect(try tap(364, 106).heading == 0)  // compass
        #expect(try tap(364, 154).range == 1000)  // +
        #expect(try tap(364, 194).range == 4000)  // −
        #expect(try tap(36, 264).tilt == 45)  // tilt up
        #expect(try tap(76, 264).tilt == 15)  // tilt down
        #expect(try tap(324, 264).heading == 45)  // ↺
        #expect(try tap(364, 264).heading == 135)  // ↻
        // Facing east, "→" moves the centre south and "↑" east, so that the content shifts a
        // third of the view at the centre, as auto-pan shifts it: 133.3 pt × 4.204 m/pt = 560.5 m
        // across (2000 m × tan 17.5° / 150 pt, the field of view being 35°), and along the
        // ground tilted 30° away, 100 pt × 4.204 m/pt / cos 30° = 485.4 m.
        let right = try tap(368, 32), up = try tap(36, 130)
        let frame = LocalFrame(origin: ferryBuilding)
        let across = frame.enu(right.center), along = frame.enu(up.center)
        #expect(abs(across.y + 560.5) < 0.5 && abs(across.x) < 0.01, "\(across)")
        #expect(abs(along.x - 485.4) < 0.5 && abs(along.y) < 0.01, "\(along)")
        // The same pan as `MapResolver.pan` gives for that shift.
        let scene = try MapResolver.resolve(Map(initialCamera: start, mode: .roadmap), width: 400, height: 300)
        #expect(right.center == MapResolver.pan(start, by: Point(-400.0 / 3, 0), projection: try #require(scene.projection)).center)
    }

    /// An unbound map's controls are drawn and take the tap, which changes nothing.
    @Test func anUnboundMapTakesTheTapAndStays() throws {
        let map = Map(initialCamera: Camera(center: ferryBuilding, range: 2000), mode: .roadmap).mapControls { ZoomControl() }
        let scene = try scene(map)
        let hit = try #require(scene.hitTest(Point(364, 130)))
        #expect(hit.target == .control(0, .zoomIn) && hit.label == "zoom +" && !hit.mayChangeState)
    }

    @Test func drawn() { golden(AllControls(), "markers/controls/all-controls") }
}

private extension Bool {
    init(truthy: Bool) { self = truthy }
}

/// A tapped basemap place opens its card (the SDK 1.0's Places widget, offline), unless
/// `onPlaceTap` answers `.none` or place information is off; the card's close button closes it.
@Suite struct PlaceCardTests {
    static let camera = Camera(center: LatLngAltitude(latitude: 43.7392, longitude: 7.4262), range: 1500)

    func map() throws -> Map {
        try Map(initialCamera: Self.camera, mode: .roadmap).basemap(tiles: "\(mapFixtures)/tiles/monaco-omt.pmtiles")
    }

    func tapMonteCarlo(_ map: Map) throws -> ResolvedScene {
        let scene = try MapResolver.resolve(map, width: 400, height: 300)
        let label = try #require(scene.labels.first { $0.name == "Monte-Carlo" && $0.isShown })
        try #require(scene.hitTest(Point(label.box.midX, label.box.midY))).action()
        return try MapResolver.resolve(map, width: 400, height: 300)
    }

    @Test func aTappedPlaceOpensItsCard() throws {
        nonisolated(unsafe) var order: [String] = []
        let map = try map()
            .onPlaceTap { id in order.append("place \(id)"); return .default }
            .onTap { info in order.append("tap \(info.content)") }
        let scene = try tapMonteCarlo(map)
        let id = try #require(map.placeCard.wrappedValue?.id)
        // onPlaceTap first, then onTap with the place.
        // The kind is the tile's `class` (the style's "place-village" layer draws suburbs too).
        #expect(order == ["place \(id)", "tap place(id: \"\(id)\")"])
        #expect(map.placeCard.wrappedValue == PlaceCard(id: id, name: "Monte-Carlo", kind: "suburb"))
        let line = try #require(scene.displayList.split(separator: "\n").first { $0.contains("place card") })
        #expect(line.trimmingCharacters(in: .whitespaces)
                == "place card \(id) \"Monte-Carlo\" (suburb), close button 352,233.1 28x28, box 8,221.1 384x70.9, taps: its close button")
        // The close button closes it; a tap elsewhere on the card changes nothing.
        let card = try #require(scene.placeCard)
        let body = try #require(scene.hitTest(Point(card.frame.minX + 20, card.frame.midY)))
        #expect(body.target == .placeCard(close: false) && !body.mayChangeState)
        try #require(scene.hitTest(Point(card.close.midX, card.close.midY))).action()
        #expect(map.placeCard.wrappedValue == nil)
        #expect(try MapResolver.resolve(map, width: 400, height: 300).placeCard == nil)
    }

    @Test func noCardWhenAskedForNone() throws {
        nonisolated(unsafe) var heard = 0
        let declined = try map().onPlaceTap { _ in heard += 1; return PlaceTapAction.none }
        #expect(try tapMonteCarlo(declined).placeCard == nil && heard == 1)
        let off = try map().placeInformationEnabled(false).onPlaceTap { _ in heard += 1; return .default }
        #expect(try tapMonteCarlo(off).placeCard == nil && heard == 2)
    }

    /// Drawn: the sheet at the map's foot, the place's name and kind, the close button.
    @Test func drawn() throws {
        let map = try map()
        _ = try tapMonteCarlo(map)
        golden(map, "markers/controls/place-card")
    }
}

/// The map's language names its basemap's labels (SDK 1.0 localisation: `.environment(\.locale,
/// …)` on the map): a label that shows a name shows the tile's `name:<language>` where it has
/// one; a view's environment and a scene file's `locale` set it.
@Suite struct LabelLanguageTests {
    static let camera = Camera(center: LatLngAltitude(latitude: 43.7392, longitude: 7.4262), range: 3000)

    func names(_ map: Map) throws -> Set<String> {
        Set(try MapResolver.resolve(map, width: 400, height: 300).labels.filter(\.isShown).map(\.name))
    }

    /// Protomaps' tiles name places in many languages (`name:ru`); Shortbread's in two
    /// (`name_en`, `name_de`); the OpenMapTiles fixture only in Latin script.
    func map(_ tiles: String = "monaco-protomaps") throws -> Map {
        try Map(initialCamera: Self.camera, mode: .roadmap).basemap(tiles: "\(mapFixtures)/tiles/\(tiles).pmtiles")
    }

    @Test func labelsInTheMapsLanguage() throws {
        let plain = try names(map())
        let russian = try names(map().labelLanguage("ru"))
        #expect(plain.contains("Monaco"))
        #expect(russian.contains("Монако") && !russian.contains("Monaco"), "\(russian.sorted())")
        // A language the tiles have no names in leaves the style's.
        #expect(try names(map().labelLanguage("xx")) == plain)
        // Shortbread's keys: the fountain's English name.
        let shortbread = try #require(try map("monaco-shortbread").drawnBasemap)
        let area = [7.40, 43.72, 7.44, 43.75]
        let english = Set(shortbread.symbols(area: area, zoom: 16, language: "en").map(\.text))
        let local = Set(shortbread.symbols(area: area, zoom: 16).map(\.text))
        #expect(english.contains("Prince's Palace of Monaco") && local.contains("Palais Princier de Monaco"))
        #expect(english.subtracting(local).count == 14, "\(english.subtracting(local).sorted())")
    }

    /// A tag's tile keys: its script first (Chinese's from its region, as Protomaps keys them),
    /// then the language alone.
    @Test func aTagsNameKeys() {
        #expect(Basemap.localNameKeys("zh-TW") == ["name:zh-Hant", "name_zh-Hant", "name:zh", "name_zh"])
        #expect(Basemap.localNameKeys("zh_CN") == ["name:zh-Hans", "name_zh-Hans", "name:zh", "name_zh"])
        #expect(Basemap.localNameKeys("zh-Hant-HK").prefix(1) == ["name:zh-Hant"])
        #expect(Basemap.localNameKeys("sr-latn-RS") == ["name:sr-Latn", "name_sr-Latn", "name:sr", "name_sr"])
        #expect(Basemap.localNameKeys("ru-RU") == ["name:ru", "name_ru"])
        #expect(Basemap.localNameKeys("") == [])
    }

    /// Chinese by region: Traditional in Taiwan, Simplified in China, each from the tiles' own
    /// key; the tag is the labels' text language too, so Han characters take the Traditional
    /// or Simplified Chinese face.
    @Test func chineseByRegionAndItsHanForms() throws {
        func label(_ tag: String) throws -> ResolvedLabel {
            let labels = try MapResolver.resolve(map().labelLanguage(tag), width: 400, height: 300).labels
            return try #require(labels.first { $0.isShown && $0.name.hasPrefix("摩") }, "\(labels.filter(\.isShown).map(\.name))")
        }
        let taiwan = try label("zh-TW"), china = try label("zh-CN")
        #expect(taiwan.name == "摩納哥" && china.name == "摩纳哥")
        #expect(taiwan.style?.font.request.language == "zh-TW" && china.style?.font.request.language == "zh-CN")
        let face = { (tag: String) in FontLibrary.shared.fallback(for: "摩", weight: .regular, italic: false, language: tag)?.familyName }
        #expect(face("zh-TW")?.hasSuffix("CJK TC") == true && face("zh-CN")?.hasSuffix("CJK SC") == true, "\(String(describing: face("zh-TW"))), \(String(describing: face("zh-CN")))")
    }

    @Test func aViewsLocaleSetsIt() throws {
        let view = try map().environment(\.locale, Locale(identifier: "ru-RU")).frame(width: 400, height: 300)
        let scene = try #require(try MapResolver.maps(in: view).first).scene
        #expect(scene.labels.contains { $0.isShown && $0.name == "Монако" })
    }
}

/// The camera's `altitudeMode` (SDK 1.0): its centre's altitude is above sea level, above the
/// ground, or above the mesh (a roof), as the mode says.
@Test func theCamerasAltitudeMode() throws {
    let c = LatLngAltitude(latitude: 43.7384, longitude: 7.4246, altitude: 0)
    let d = 0.0003
    let roof = try #require(Building(footprint: [LatLngAltitude(latitude: c.latitude - d, longitude: c.longitude - d), LatLngAltitude(latitude: c.latitude - d, longitude: c.longitude + d),
                                                  LatLngAltitude(latitude: c.latitude + d, longitude: c.longitude + d), LatLngAltitude(latitude: c.latitude + d, longitude: c.longitude - d)], roof: 40))
    let ground = Map(mode: .roadmap).buildings([roof]).ground
    func centre(_ mode: AltitudeMode) -> Double {
        MapResolver.centerAltitude(Camera(center: LatLngAltitude(latitude: c.latitude, longitude: c.longitude, altitude: 15), range: 500, altitudeMode: mode), ground: ground)
    }
    #expect(abs(centre(.absolute) - 15) < 1e-9)
    #expect(abs(centre(.relativeToGround) - 15) < 1e-6)
    #expect(abs(centre(.relativeToMesh) - 55) < 1e-6)
}

/// Written as a scene file, a map's controls, place-tap handler and label language are named in
/// the notes (scene files have no field for them), not dropped silently.
@Test func sdk10PartsAScenefileLeavesOutAreNoted() throws {
    let map = Map(initialCamera: Camera(center: LatLngAltitude(latitude: 43.73, longitude: 7.42), range: 2000), mode: .roadmap)
        .mapControls(at: .trailing) { CompassControl() }
        .onPlaceTap { _ in .none }
        .labelLanguage("fr")
    var notes: [String] = []
    _ = try SceneFile(describing: map, output: OutputOptions(width: 400, height: 300), notes: &notes)
    #expect(notes == [
        "map controls at trailing: scene files have no controls, left out",
        "the map's onPlaceTap handler is code, left out",
        "the basemap labels' language \"fr\" is left out (a scene's \"locale\" sets it, and the markers' text language too)",
    ])
}

/// `EitherMapContent` (SDK 1.0) holds one of two pieces of map content, and a map-content
/// builder takes it as either: a helper that answers a route or a pin by a flag.
@Test func eitherMapContentIsOneOfTwo() throws {
    func stop(_ route: Bool) -> EitherMapContent<Polyline, Marker3D> {
        route ? EitherMapContent(first: Polyline(path: [at(-50, 0), at(50, 0)])) : EitherMapContent(second: Marker3D(position: at(0, 40)))
    }
    let map = Map(initialCamera: overhead, mode: .roadmap) {
        stop(true)
        stop(false)
    }
    let scene = try MapResolver.resolve(map, width: 400, height: 300)
    #expect(scene.shapes.count == 1 && scene.markers.count == 1, "\(scene.displayList)")
    guard case .polyline = stop(true).items.first, case .marker = stop(false).items.first else {
        Issue.record("the wrong side: \(stop(true).items), \(stop(false).items)")
        return
    }
}
