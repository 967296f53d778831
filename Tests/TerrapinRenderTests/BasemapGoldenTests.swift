// Vector basemaps (Fixtures/basemap): Andorra over terrain and Monaco on flat ground, straight
// down and tilted, with the built-in styles and a style using what Terrapin does not draw.
// Each scene file there is a case the walker renders and compares with the PNG beside it
// (FixtureCasesTests; each looked at and compared with a web map of the place before
// committing); the tests here check what the pixels cannot say: placement and collision in
// the printed ResolvedScene, the ground and its buildings.
import Testing
@testable import Terrapin
@testable import TerrapinRender
import TerrapinSnapshotTesting
import TerrapinTestSupport

@Suite struct BasemapGoldenTests {
    func prepared(_ name: String) throws -> PreparedScene {
        try PreparedScene(try SceneDecoder.load(path: "\(mapFixtures)/basemap/\(name).json"))
    }

    /// The case's scene (its pixels are the walker's to compare: Fixtures/basemap/NAME.png).
    func golden(_ name: String) throws -> PreparedScene {
        try prepared(name)
    }

    /// Andorra la Vella from above: the Gran Valira and the CG-1 in yellow through the town,
    /// the town's name at its place node; the pin on the centre.
    @Test func andorraStraightDown() throws {
        let resolved = try #require(try golden("andorra-roadmap-tilt0").resolve())
        let text = resolved.description
        #expect(text.contains("\"Andorra la Vella\" [place-town]: shown"))
        #expect(resolved.displayList.contains("terrain mesh"))
        #expect(resolved.displayList.contains("basemap roadmap draped"))
    }

    /// The same, tilted 60°: the valley walls rise with the map draped on them.
    @Test func andorraTilted() throws {
        let resolved = try #require(try golden("andorra-roadmap-tilt60").resolve())
        #expect(resolved.labels.contains { $0.isShown && $0.name == "Andorra la Vella" })
        // Two credits wider than the 400-point map wrap onto two right-aligned lines.
        let credit = try #require(resolved.items.first { if case .attribution = $0.content { true } else { false } }?.box)
        #expect(credit.maxX == 400 && credit.width <= 400 && credit.height > 20)
    }

    /// Monaco from above: the port, the Rocher, Monte-Carlo.
    @Test func monacoStraightDown() throws {
        let resolved = try #require(try golden("monaco-roadmap-tilt0").resolve())
        #expect(resolved.description.contains("\"Monte-Carlo\" [place-village]: shown"))
        // No 3D buildings straight down? They stand at any tilt once the view's zoom is 15 or
        // more (this view of 300 points at 600 m: 15.5).
        #expect(resolved.displayList.contains("buildings: "))
    }

    /// Monaco tilted: the buildings of the OpenMapTiles building layer stand at their
    /// render_height, a relativeToMesh pin sits on the roof of the 111 m tower above the
    /// Boulevard d'Italie.
    @Test func monacoTiltedWithBuildingsAndARoofPin() throws {
        let scene = try golden("monaco-roadmap-tilt55")
        let resolved = try #require(try scene.resolve())
        let pin = try #require(resolved.markers.first)
        #expect(pin.isShown)
        let ground = try #require(scene.map?.ground(height: 300))
        let tower = LatLngAltitude(latitude: 43.741, longitude: 7.42347)
        let built = try #require(ground as? BuiltGround)
        #expect(built.buildings.count > 1000)
        #expect(ground.meshHeight(at: tower) == 111)
        // Lit by the style's light (the built-in roadmap has none: MapLibre's default).
        #expect(built.buildings.allSatisfy { $0.extrusionLight == .standard })
    }

    /// The basemap's extrusions follow the view's zoom, which its height decides: at 1.3 km a
    /// view 300 points high is zoom 14.3 (the built-in style's buildings, from zoom 15, lie
    /// flat), one 768 high zoom 15.7 (they stand).
    @Test func extrusionsFollowTheViewsZoom() throws {
        var scene = try SceneDecoder.load(path: "\(mapFixtures)/basemap/monaco-roadmap-tilt55.json")
        scene.map?.camera?.range = 1300
        let map = try #require(try PreparedScene(scene).map)
        #expect(!(map.ground(height: 300) is BuiltGround))
        let tall = try #require(map.ground(height: 768) as? BuiltGround)
        #expect(tall.buildings.count > 1000)
    }

    @Test func monacoHybridRoadsOverFlatGround() throws {
        _ = try golden("monaco-hybrid-tilt55")
    }

    /// A user style over Monaco's tiles that blurs its labels' halos (`text-halo-blur`: the
    /// place names glow orange) and extrudes buildings shifted 6 px east and 4 px north
    /// (`fill-extrusion-translate`), tilted 55°: both drawn, nothing warned about.
    @Test func userStyleWithBlurredHalosAndTranslatedExtrusions() throws {
        let scene = try golden("monaco-halo-extrusion")
        let map = try #require(scene.map)
        #expect(map.warnings.isEmpty, "\(map.warnings)")
        let built = try #require(map.ground as? BuiltGround)
        #expect(built.buildings.count > 1000)
        let text = try #require(try scene.resolve()).description
        #expect(text.contains("\"Monte-Carlo\" [place]: shown"))
    }

    /// Monaco's one-way streets marked by `line-pattern` arrows (`styles/oneway.json`, the
    /// arrow from an SVG folder), straight down: drawn, nothing warned about.
    @Test func oneWayStreetsWithALinePattern() throws {
        let scene = try golden("monaco-oneway")
        let map = try #require(scene.map)
        #expect(map.warnings.isEmpty, "\(map.warnings)")
    }

    /// Monaco's buildings with windows (`fill-extrusion-pattern`, `styles/facades.json`) on
    /// their walls and roofs, tilted 62°: drawn, nothing warned about.
    @Test func facadesWithAnExtrusionPattern() throws {
        let scene = try golden("monaco-facades")
        let map = try #require(scene.map)
        #expect(map.warnings.isEmpty, "\(map.warnings)")
        let built = try #require(map.ground as? BuiltGround)
        #expect(built.buildings.count > 1000 && built.buildings.allSatisfy { $0.pattern != nil })
    }

    /// A style with properties, layers and operators Terrapin lacks renders what it can and
    /// says what it skipped, once each.
    @Test func unsupportedStylePartsRenderWithWarnings() throws {
        let scene = try golden("monaco-user-style")
        // Labels (and what their layers skip) are made when the scene is resolved, the tiles
        // (and what their layers skip) when it is painted: rendered here, so the list is whole
        // whichever test drew the shared basemap's tiles first.
        _ = try scene.render()
        let warnings = try #require(scene.map).warnings
        #expect(warnings.count == 8, "\(warnings)")
        #expect(warnings.contains("layer 'bg': background-pattern needs a local sprite (the style's \"sprite\"); the background is not drawn"))
        #expect(warnings.contains("layer 'names': layout property \"symbol-z-elevate\" is not drawn by Terrapin; ignored"))
        #expect(warnings.contains("layer 'names': icon-image needs a local sprite (the style's \"sprite\"); icons are not drawn"))
        #expect(warnings.contains { $0.contains("\"within\": a Polygon needs \"coordinates\"; the layer is skipped") })
    }

    /// Markers hide the basemap labels they overlap when their collision behaviour says so;
    /// required markers hide nothing.
    @Test func markersHideTheLabelsTheyOverlap() throws {
        func scene(_ behaviour: String) throws -> ResolvedScene {
            let json = """
            {"output": {"width": 400, "height": 300}, "map": {"mode": "roadmap",
              "camera": {"center": {"latitude": 43.7392, "longitude": 7.4262}, "range": 1500},
              "basemap": {"tiles": "\(mapFixtures)/tiles/monaco-omt.pmtiles"},
              "markers": [{"position": {"latitude": 43.7403, "longitude": 7.4259}, "collisionBehavior": "\(behaviour)",
                           "content": {"text": "A marker over Monte-Carlo", "modifiers": [{"padding": 8}, {"background": "white"}]}}]}}
            """
            let s = try SceneDecoder.decode(Array(json.utf8), file: "\(mapFixtures)/basemap/inline.json")
            return try #require(try PreparedScene(s).resolve())
        }
        let hiding = try scene("requiredAndHidesOptional")
        let label = try #require(hiding.labels.first { $0.name == "Monte-Carlo" })
        #expect(label.hidden == .collided(with: 0))
        let required = try scene("required")
        #expect(required.labels.first { $0.name == "Monte-Carlo" }?.isShown == true)
    }

    /// A tap on a basemap label is a tap on the place: `onPlaceTap` hears "layer/feature id";
    /// without it `onTap` hears `.place(id:)`.
    @Test func tapsOnLabelsReachPlaces() throws {
        let camera = Camera(center: LatLngAltitude(latitude: 43.7392, longitude: 7.4262), range: 1500)
        nonisolated(unsafe) var heard: [String] = []
        let map = try Map(initialCamera: camera, mode: .roadmap).basemap(tiles: "\(mapFixtures)/tiles/monaco-omt.pmtiles")
            .onPlaceTap { heard.append($0); return .none }
        let scene = try MapResolver.resolve(map, width: 400, height: 300)
        let label = try #require(scene.labels.first { $0.name == "Monte-Carlo" && $0.isShown })
        let hit = try #require(scene.hitTest(Point(label.box.midX, label.box.midY)))
        guard case .place(let id) = hit.target else { Issue.record("\(hit.target)"); return }
        #expect(id.hasPrefix("place-village/"))
        #expect(hit.label == "Monte-Carlo")
        hit.action()
        #expect(heard == [id])
        nonisolated(unsafe) var info: MapTapInfo.Content?
        let plain = try Map(initialCamera: camera, mode: .roadmap).basemap(tiles: "\(mapFixtures)/tiles/monaco-omt.pmtiles").onTap { info = $0.content }
        let second = try MapResolver.resolve(plain, width: 400, height: 300)
        try #require(second.hitTest(Point(label.box.midX, label.box.midY))).action()
        #expect(info == .place(id: id))
        #expect(second.displayList.contains("taps: place \(id)"))
    }

    /// The golden's scene, resolved, with its "Monte-Carlo" place label (expected shown) and
    /// that label's icon.
    func placeWithIcon(_ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> (PreparedScene, ResolvedScene, ResolvedLabel, Pixmap) {
        let scene = try golden(name)
        let resolved = try #require(try scene.resolve(), sourceLocation: sourceLocation)
        let place = try #require(resolved.labels.first { $0.name == "Monte-Carlo" && $0.style?.layer == "place" }, sourceLocation: sourceLocation)
        #expect(place.isShown, sourceLocation: sourceLocation)
        return (scene, resolved, place, try #require(place.style?.icon, sourceLocation: sourceLocation))
    }

    /// Icons from a local sprite sheet (`sprite.json` + `sprite.png`; its @2x sheet for an
    /// image of 2 or more pixels a point, the 1x sheet at 1, as MapLibre picks them):
    /// the place's dot on its anchor with the name beside it (one box for both), POI icons by
    /// class; a name not in the sprite is drawn without an icon, with one warning.
    /// The same style with `"sprite"` naming a folder of SVG icons: each drawn by librsvg at
    /// pixel ratio 2 (the cafe's 15-point icon is 30 pixels, drawn at half a point each); the
    /// folder's damaged SVG is left out with a warning naming it.
    @Test func iconsFromAFolderOfSVGFiles() throws {
        let (scene, resolved, place, dot) = try placeWithIcon("monaco-svg-icons")
        #expect(dot.width == 20 && place.style?.iconScale == 0.5)
        let cafe = try #require(resolved.labels.first { $0.style?.layer == "poi" && $0.style?.icon?.width == 30 })
        #expect(cafe.style?.iconScale == 0.5)
        let warnings = try #require(scene.map).warnings
        #expect(warnings.contains { $0.hasPrefix("icon 'broken' is left out: ") && $0.contains("svg-icons/broken.svg") })
        #expect(warnings.contains("layer 'poi': icon 'nope' is not in the sprite; drawn without it"))
    }

    @Test func iconsFromALocalSprite() throws {
        let (scene, _, place, icon) = try placeWithIcon("monaco-icons")
        // The image is one pixel a point: the 1x sheet, 16 pixels drawn at a point each.
        #expect(icon.width == 16 && place.style?.iconScale == 1)
        // Two pixels a point: the @2x sheet, 32 pixels drawn at half a point each.
        var retina = try SceneDecoder.load(path: "\(mapFixtures)/basemap/monaco-icons.json")
        retina.output.scale = 2
        let sharp = try #require(try PreparedScene(retina).resolve()?.labels.first { $0.name == "Monte-Carlo" && $0.style?.layer == "place" })
        #expect(sharp.style?.icon?.width == 32 && sharp.style?.iconScale == 0.5)
        let anchor = try #require(place.anchor)
        #expect(place.box.minX <= anchor.x - 8 && place.box.maxX > anchor.x + 20)
        let warnings = try #require(scene.map).warnings
        #expect(warnings.contains("layer 'poi': icon 'nope' is not in the sprite; drawn without it"))
    }
}

/// `icon-text-fit`, as MapLibre's `fitIconToText`: the icon stretched over the text's box plus
/// its padding (top, right, bottom, left) where asked, centred on the text elsewhere.
@Test func iconsFitTheirText() {
    let text = Rect(x: 100, y: 50, width: 40, height: 20)
    #expect(MapResolver.fitIcon(width: 16, height: 16, to: text, fit: "both", padding: [2, 4, 3, 5]) == Rect(x: 95, y: 48, width: 49, height: 25))
    #expect(MapResolver.fitIcon(width: 16, height: 16, to: text, fit: "width", padding: [2, 4, 3, 5]) == Rect(x: 95, y: 52, width: 49, height: 16))
    #expect(MapResolver.fitIcon(width: 16, height: 16, to: text, fit: "height", padding: [0, 0, 0, 0]) == Rect(x: 112, y: 50, width: 16, height: 20))
    // Padding that would turn the box inside out leaves it empty.
    #expect(MapResolver.fitIcon(width: 16, height: 16, to: text, fit: "both", padding: [-20, -30, -20, -30]).width == 0)
}

/// The sprite's `textFitWidth` and `textFitHeight`, as MapLibre's `applyTextFit`: a
/// proportional side pushed out to the content's proportions (whole pixels, up) about the
/// label's anchor; "stretchOnly" only where the fitted box is narrower than the content.
@Test func iconsKeepTheirContentsProportionsWhereTheSpriteAsks() throws {
    let fitted = Rect(x: 80, y: 40, width: 40, height: 20), anchor = Point(100, 50)
    func fit(_ w: String, _ h: String) -> Rect {
        MapResolver.applyTextFit(fitted, about: anchor, stretch: IconStretch(content: [0, 0, 10, 10], textFitWidth: w, textFitHeight: h), width: 10, height: 10)
    }
    #expect(fit("stretchOrShrink", "stretchOrShrink") == fitted)
    // Proportional height: the width follows the height (20 × 1), centred on the anchor.
    #expect(fit("proportional", "proportional") == Rect(x: 90, y: 40, width: 20, height: 20))
    #expect(fit("stretchOrShrink", "proportional") == fitted)
    // Proportional width, stretch-only height: the height grows to the width (40).
    #expect(fit("proportional", "stretchOnly") == Rect(x: 80, y: 30, width: 40, height: 40))
    let json = #"{"pill": {"x": 0, "y": 0, "width": 20, "height": 10, "pixelRatio": 1, "textFitWidth": "stretchOnly", "textFitHeight": "proportional"}, "odd": {"x": 0, "y": 0, "width": 20, "height": 10, "textFitWidth": "sideways"}}"#
    let sheet = try SpriteSheet.parse(Array(json.utf8), image: Pixmap(width: 20, height: 10)!, file: "s.json")
    #expect(sheet.stretch("pill") == IconStretch(textFitWidth: "stretchOnly", textFitHeight: "proportional"))
    // An unknown word is left out (and with it the whole stretch, having nothing else).
    #expect(sheet.stretch("odd") == nil)
}

/// A style's `icon-text-fit` and its padding reach the resolved label: the icon's box is the
/// text's, widened by the padding.
@Test func aStylesFittedIconsReachTheLabels() throws {
    let scene = try SceneDecoder.load(path: Repository.fixture("basemap/symbols/text-fit-icons.json"))
    let resolved = try #require(try PreparedScene(scene).resolve())
    let labels = Dictionary(resolved.labels.filter(\.isShown).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    let a7 = try #require(labels["A7"]), n1 = try #require(labels["N1"])
    let icon = try #require(a7.iconBox), text = try #require(a7.textOrigin)
    #expect(abs(icon.minX - (text.x - 4)) < 1e-9 && abs(icon.minY - (text.y - 2)) < 1e-9, "\(icon) around text at \(text)")
    #expect(n1.iconBox == nil)
}

/// Road shields: a line layer with `text-rotation-alignment: viewport` places level labels at
/// its places along the line (not set along its curve), each on its icon fitted to the text.
@Test func shieldsStandLevelAlongTheirRoads() throws {
    let scene = try SceneDecoder.load(path: Repository.fixture("basemap/symbols/road-shields.json"))
    let shown = try #require(try PreparedScene(scene).resolve()).labels.filter(\.isShown)
    // Three, as MapLibre Native places them: a fourth place, on the bend at the bottom edge,
    // turns more than `text-max-angle` under its text.
    #expect(Set(shown.map(\.name)) == ["A8", "D6007"] && shown.count == 3, "\(shown.map(\.name))")
    for label in shown {
        #expect(label.angle == 0 && label.glyphs.isEmpty, "\(label.name) is level")
        #expect(label.iconBox != nil, "\(label.name) is on its shield")
    }
}

/// A sprite icon's stretch zones, as MapLibre cuts it: fixed parts keep their size, stretched
/// parts take the rest of the fitted box, and a `content` box lands on the fitted box exactly.
@Test func stretchableIconsAreCutAtTheirZones() throws {
    // 20 × 10 pixels, x stretching over 5…15 and y over 2…8, fitted to 40 × 20 points.
    let plain = try #require(MapResolver.iconSlices(width: 20, height: 10, scale: 1, stretch: IconStretch(x: [[5, 15]], y: [[2, 8]]),
                                                    box: Rect(x: 0, y: 0, width: 40, height: 20)))
    #expect(plain.count == 9)
    #expect(Set(plain.map(\.target.minX)) == [0, 5, 35] && Set(plain.map(\.target.maxX)) == [5, 35, 40])
    #expect(Set(plain.map(\.target.minY)) == [0, 2, 18] && Set(plain.map(\.target.maxY)) == [2, 18, 20])
    #expect(plain.contains { $0.source == Rect(x: 5, y: 2, width: 10, height: 6) && $0.target == Rect(x: 5, y: 2, width: 30, height: 16) })
    // With content [5, 2, 15, 8]: that box is the text's (30 × 16 at 10, 10), the rest beyond it.
    let content = try #require(MapResolver.iconSlices(width: 20, height: 10, scale: 1, stretch: IconStretch(x: [[5, 15]], y: [[2, 8]], content: [5, 2, 15, 8]),
                                                      box: Rect(x: 10, y: 10, width: 30, height: 16)))
    #expect(content.contains { $0.source == Rect(x: 5, y: 2, width: 10, height: 6) && $0.target == Rect(x: 10, y: 10, width: 30, height: 16) })
    #expect(content.map(\.target.minX).min() == 5 && content.map(\.target.maxX).max() == 45)
    // Content with nothing to stretch in it: no pieces (the icon is stretched whole).
    #expect(MapResolver.iconSlices(width: 20, height: 10, scale: 1, stretch: IconStretch(x: [[0, 4]], content: [5, 2, 15, 8]),
                                   box: Rect(x: 0, y: 0, width: 40, height: 20)) == nil)
}

/// The sprite JSON's stretch members are read, and bad ones left out.
@Test func spriteStretchZonesAreRead() throws {
    let image = Pixmap(width: 20, height: 10)!
    let json = #"{"box": {"x": 0, "y": 0, "width": 20, "height": 10, "pixelRatio": 1, "stretchX": [[5, 15], [14, 16], [18, 30]], "stretchY": [[2, 8]], "content": [5, 2, 15, 8]}, "plain": {"x": 0, "y": 0, "width": 20, "height": 10}}"#
    let sheet = try SpriteSheet.parse(Array(json.utf8), image: image, file: "s.json")
    #expect(sheet.stretch("box") == IconStretch(x: [[5, 15]], y: [[2, 8]], content: [5, 2, 15, 8]))
    #expect(sheet.stretch("plain") == nil)
    // At most `maxZones` a direction, whoever makes the stretch (pieces are cut per label).
    let many: [[Double]] = (0..<40).map { (k: Int) -> [Double] in [Double(k) * 2, Double(k) * 2 + 1] }
    #expect(IconStretch.zones(many, within: 100).count == IconStretch.maxZones)
    let slices = try #require(MapResolver.iconSlices(width: 100, height: 100, scale: 1, stretch: IconStretch(x: many, y: many), box: Rect(x: 0, y: 0, width: 300, height: 300)))
    #expect(slices.count <= (2 * IconStretch.maxZones + 1) * (2 * IconStretch.maxZones + 1))
}

/// Under pitch, a style's labels that face the viewer are scaled as MapLibre scales them: by
/// 0.5 + 0.5 × the centre's distance over their own, text and icon alike.
@Test func labelsFacingTheViewerScaleWithDistance() throws {
    let scene = try SceneDecoder.load(path: Repository.fixture("basemap/symbols/perspective-labels.json"))
    let resolved = try #require(try PreparedScene(scene).resolve())
    let centre = try #require(resolved.projection?.project(enu: Vector3(0, 0, 0))?.depth)
    let shown = Dictionary(resolved.labels.filter(\.isShown).map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    #expect(shown.count == 5, "\(shown.keys.sorted())")
    for (name, label) in shown {
        let depth = try #require(label.depth), style = try #require(label.style)
        let k = 0.5 + 0.5 * centre / depth
        let expected = abs(k - 1) > 0.005 ? 16 * k : 16
        #expect(abs(style.font.size - expected) < 1e-9, "\(name): \(style.font.size) at \(depth) m, centre \(centre) m")
        let centreStyle = try #require(shown["Centre"]?.style)
        #expect(abs(style.iconScale / style.font.size - centreStyle.iconScale / centreStyle.font.size) < 1e-9, "\(name): the icon scales with the text")
    }
    let near = try #require(shown["Near"]?.style?.font.size), far = try #require(shown["Far"]?.style?.font.size)
    #expect(near > 17 && far < 15, "near \(near), far \(far)")
    // The display list says by how much.
    let line = try #require(resolved.description.split(separator: "\n").first { $0.contains("\"Far\"") })
    #expect(line.contains(", scaled ×0.") && line.hasSuffix("for its distance"), "\(line)")
}

/// Under pitch, labels along lines lie flat on the map, as MapLibre lays them
/// (`text-pitch-alignment` "map", their default): each glyph is drawn through the ground's
/// local affine at its centre, so a label across the view keeps its width and loses height
/// with the tilt, reads left to right and is not mirrored; straight down they stand upright
/// as before (`text-pitch-alignment: viewport` in LineLabelTests).
@Test func lineLabelsLieFlatUnderPitch() throws {
    func lineLabels(tilt: Double) throws -> [ResolvedLabel] {
        var scene = try SceneDecoder.load(path: Repository.fixture("basemap/monaco-roadmap-tilt55.json"))
        scene.map?.camera?.tilt = tilt
        // Further out than the golden (1.3 km, over Monte-Carlo): more of Monaco's streets,
        // one running across.
        scene.map?.camera?.range = 1300
        scene.map?.camera?.center = LatLngAltitude(latitude: 43.7392, longitude: 7.4262)
        let resolved = try #require(try PreparedScene(scene).resolve())
        return resolved.labels.filter { $0.isShown && !$0.glyphs.isEmpty }
    }
    let tilted = try lineLabels(tilt: 55)
    #expect(!tilted.isEmpty)
    for label in tilted {
        #expect(label.glyphAxes.count == label.glyphs.count, "\(label.name)")
        // Reading left to right: the last glyph right of the first.
        let first = try #require(label.glyphs.first), last = try #require(label.glyphs.last)
        #expect(last.centre.x >= first.centre.x, "\(label.name)")
        for (x, y) in label.glyphAxes {
            #expect(x.x * y.y - x.y * y.x > 0, "\(label.name): not mirrored")
        }
    }
    // A label running across the view is foreshortened: its glyphs' height under their width.
    let across = try #require(tilted.min { abs($0.glyphs[0].angle) < abs($1.glyphs[0].angle) })
    #expect(abs(across.glyphs[0].angle) < 0.6, "\(across.name)")
    let (x, y) = across.glyphAxes[0]
    #expect(hypot(y.x, y.y) < 0.8 * hypot(x.x, x.y), "\(across.name): \(x) \(y)")
    // The display list says so.
    let printed = try #require(try PreparedScene(try SceneDecoder.load(path: Repository.fixture("basemap/monaco-roadmap-tilt55.json"))).resolve()).description
    #expect(printed.contains("glyphs, laid flat on the map)"))
    // Straight down: upright (no axes).
    #expect(try lineLabels(tilt: 0).allSatisfy { $0.glyphAxes.isEmpty })
}

/// A stretched icon's pieces meet without a seam, as a GPU's quads do: fitted at fractional
/// places, every pixel whose centre lies in the fitted box is the icon's colour, fully.
@Test func stretchedIconPiecesMeetWithoutSeams() throws {
    var icon = Pixmap(width: 20, height: 10)!
    for y in 0..<10 { for x in 0..<20 { icon[x, y] = PremultipliedRGBA8(red: 255, green: 0, blue: 0, alpha: 255) } }
    var style = LabelStyle(font: FontSpec.system(size: 12), color: .black, haloColor: .white, haloWidth: 0)
    style.icon = icon
    style.iconScale = 1
    let box = Rect(x: 3.3, y: 2.6, width: 40.5, height: 20.2)
    let slices = try #require(MapResolver.iconSlices(width: 20, height: 10, scale: 1, stretch: IconStretch(x: [[5, 15]], y: [[2, 8]]), box: box))
    var label = ResolvedLabel(index: 0, name: "", box: box, hidden: nil, layout: nil, style: style)
    label.anchor = Point(box.midX, box.midY)
    label.iconBox = box
    label.iconSlices = slices
    let canvas = try #require(Canvas(width: 50, height: 30))
    MapPainter.drawLabelIcon(label, LabelPaint(style), canvas: canvas)
    let drawn = canvas.pixmap
    // Inside, at least half a pixel from the box's outer edge (nearer, a GPU's bilinear sample
    // takes in the transparent padding round the icon, as here).
    let inner = box.insetBy(dx: 1, dy: 1)
    var inside = 0
    for y in 0..<30 { for x in 0..<50 where inner.contains(Point(Double(x) + 0.5, Double(y) + 0.5)) {
        inside += 1
        #expect(drawn[x, y] == PremultipliedRGBA8(red: 255, green: 0, blue: 0, alpha: 255), "pixel \(x), \(y): \(drawn[x, y])")
    } }
    #expect(inside >= 38 * 18)
    // Every pixel whose centre is in the box is drawn (no gap where pieces meet at a corner).
    for y in 0..<30 { for x in 0..<50 where box.contains(Point(Double(x) + 0.5, Double(y) + 0.5)) {
        #expect(drawn[x, y].alpha > 100, "pixel \(x), \(y): \(drawn[x, y])")
    } }
    // And nothing beyond the box (its edges aliased).
    #expect(drawn[2, 1].alpha == 0 && drawn[44, 23].alpha == 0)
}
