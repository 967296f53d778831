// Text and icons on the map: colour emoji in marker content, a popover and a Marker3D label
// (its halo a silhouette), an SVG marker image, the map's locale, and missing characters named
// by where they are.
import Foundation
import Testing
@testable import Terrapin
@testable import TerrapinRender
import TerrapinSnapshotTesting
import TerrapinTestSupport

private let textFixtures = Repository.fixture("text")

@Suite struct TextOnTheMapTests {
    func scene(_ json: String) throws -> SceneFile { try SceneDecoder.decode(Array(json.utf8), path: textFixtures + "/emoji/inline.json") }

    @Test func emojiInAPopoverALabelAndAMarkerAtOneAndThreeTimes() throws {
        for scale in [1, 3] {
            var scene = try SceneDecoder.load(path: textFixtures + "/emoji/pizza-popover.json")
            scene.output.scale = scale
            let prepared = try PreparedScene(scene)
            let resolved = try #require(try prepared.resolve())
            #expect(resolved.markers.allSatisfy { $0.hidden == nil })
            #expect(resolved.warnings.isEmpty, "\(resolved.warnings)")
            assertSnapshot(of: try prepared.render(), as: .image, snapshotPath: "\(textFixtures)/emoji/pizza-popover@\(scale)x.png")
        }
    }

    @Test func aMarker3DDrawsAnSVGImageAtTheDeviceScale() throws {
        // The summit icon's disc is #1A73E8: at 3× it covers about 9 times the pixels of 1×.
        func bluePixels(_ scale: Int) throws -> Int {
            let p = try PreparedScene(try scene(#"{"output": {"width": 100, "height": 80, "scale": \#(scale)}, "map": {"camera": {"center": {"latitude": 0, "longitude": 0}, "range": 500}, "markers": [{"type": "marker3D", "position": {"latitude": 0, "longitude": 0}, "style": {"image": {"file": "../../views/svg/summit.svg"}}}]}}"#)).render()
            let data: [UInt8] = p.data
            return stride(from: 0, to: data.count, by: 4).filter { (o: Int) -> Bool in data[o] == 0x1A && data[o + 1] == 0x73 && data[o + 2] == 0xE8 }.count
        }
        let one = try bluePixels(1), three = try bluePixels(3)
        #expect(one > 150 && Double(three) / Double(one) > 8)
    }

    @Test func basemapLabelsDrawEmojiWithASilhouetteHalo() throws {
        let prepared = try PreparedScene(try scene(#"{"output": {"width": 160, "height": 80}, "map": {"mode": "roadmap", "camera": {"center": {"latitude": 0, "longitude": 0}, "range": 800}, "labels": [{"name": "🌋 Vesuvio", "position": {"latitude": 0, "longitude": 0}}]}}"#))
        let resolved = try #require(try prepared.resolve())
        #expect(resolved.labels.map(\.isShown) == [true] && resolved.warnings.isEmpty, "\(resolved.warnings)")
        // The volcano's reds are drawn, not a box in the label colour.
        let p = try prepared.render()
        let data: [UInt8] = p.data
        let red = stride(from: 0, to: data.count, by: 4).contains { (o: Int) -> Bool in data[o] > 180 && data[o + 1] < 110 && data[o + 2] < 110 }
        #expect(red)
    }

    @Test func theMapsLocaleChangesHanForms() throws {
        func rendered(_ locale: String?) throws -> Pixmap {
            let l = locale.map { #", "locale": "\#($0)""# } ?? ""
            return try PreparedScene(try scene(#"{"output": {"width": 120, "height": 60}, "map": {"camera": {"center": {"latitude": 0, "longitude": 0}, "range": 500}\#(l), "markers": [{"position": {"latitude": 0, "longitude": 0}, "content": {"text": "直骨"}}]}}"#)).render()
        }
        let none = try rendered(nil), hans = try rendered("zh-Hans"), ja = try rendered("ja"), hant = try rendered("zh_TW")
        #expect(none == hans)             // without a locale, Han is Simplified Chinese
        #expect(ja != hans && hant != hans && ja != hant)
    }

    @Test func missingCharactersAreNamedByWhereTheyAre() throws {
        let prepared = try PreparedScene(try scene(#"""
            {"output": {"width": 200, "height": 120}, "map": {"camera": {"center": {"latitude": 0, "longitude": 0}, "range": 800},
             "markers": [{"position": {"latitude": 0, "longitude": 0}, "content": {"text": "Café \uE001"},
                          "popover": {"isOpen": true, "content": {"text": "x\uE002"}}},
                         {"type": "marker3D", "position": {"latitude": 0.001, "longitude": 0.001}, "label": "Peak \uE003"}]}}
            """#))
        let warnings = try #require(try prepared.resolve()).warnings
        #expect(warnings == [
            "marker 0 \"Café \u{E001}\": no installed font covers '\u{E001}' (U+E001); drawn as a box (install a font for that script, e.g. fonts-noto-core)",
            "the popover of marker 0: no installed font covers '\u{E002}' (U+E002); drawn as a box (install a font for that script, e.g. fonts-noto-core)",
            "the label of marker 1 \"Peak \u{E003}\": no installed font covers '\u{E003}' (U+E003); drawn as a box (install a font for that script, e.g. fonts-noto-core)",
        ])
    }
}

/// Labels along a line's curve: glyph by glyph on the projected line, read left to right.
@Suite struct CurvedLabelTests {
    /// An arch of radius 120 m (1 pt a metre straight down), its anchor at the top, given
    /// either way round.
    func arch(reversed: Bool = false) -> (LabelStyle, TextLayout) {
        var line = stride(from: 150.0, through: 30.0, by: -1).map { a -> LatLngAltitude in
            at(120 * cos(a * Double.pi / 180), -60 + 120 * sin(a * Double.pi / 180))
        }
        var anchor = 60
        if reversed { line.reverse(); anchor = line.count - 1 - anchor }
        var style = LabelStyle(font: FontSpec.system(size: 14), color: .black, haloColor: .white, haloWidth: 1)
        style.line = line
        style.lineAnchor = anchor
        return (style, try! TextLayout.make("Rue de la Colline", font: style.font))
    }

    @Test func glyphsFollowTheArchLeftToRight() throws {
        let projection = Projection(camera: overhead, width: 400, height: 300)
        let (style, layout) = arch()
        let curve = try #require(MapResolver.curve(layout, style, projection: projection, ground: FlatGround()))
        let glyphs = layout.lines[0].glyphs
        #expect(curve.glyphs.count == glyphs.count && curve.boxes.count == glyphs.count)
        // The arch's centre on screen: (200, 150 + 60).
        let centre = Point(200, 210)
        for g in curve.glyphs {
            let r = hypot(g.centre.x - centre.x, g.centre.y - centre.y)
            #expect(abs(r - 120) < 0.05, "\(g.centre) at \(r) pt from the centre")
            // Tangent to the circle, reading clockwise over the top (left to right).
            let radial = atan2(g.centre.y - centre.y, g.centre.x - centre.x)
            var d = g.angle - (radial + Double.pi / 2)
            while d > Double.pi { d -= 2 * Double.pi }
            while d < -Double.pi { d += 2 * Double.pi }
            #expect(abs(d) < 3 * Double.pi / 180, "glyph turned \(g.angle * 180 / Double.pi)°, radial \(radial * 180 / Double.pi)°")
        }
        let first = try #require(curve.glyphs.first), last = try #require(curve.glyphs.last)
        #expect(first.centre.x < 200 && last.centre.x > 200, "left to right")
        // Centred on the anchor: the arc from the first glyph's centre to the last's is the
        // distance between their centres in the layout.
        let ax = first.centre.x - centre.x, ay = first.centre.y - centre.y, bx = last.centre.x - centre.x, by = last.centre.y - centre.y
        let arc: Double = 120 * acos((ax * bx + ay * by) / (120 * 120))
        let lastCentre: Double = (glyphs[glyphs.count - 1].x + layout.lines[0].width) / 2
        let firstCentre: Double = (glyphs[0].x + glyphs[1].x) / 2
        let advance = lastCentre - firstCentre
        #expect(abs(arc - advance) < 0.5, "arc \(arc) pt, layout \(advance) pt")
        #expect(abs(abs(ax) - abs(bx)) < 2, "centred on the top: \(ax), \(bx)")
        // The line given the other way round: the same placement.
        let (back, _) = arch(reversed: true)
        let again = try #require(MapResolver.curve(layout, back, projection: projection, ground: FlatGround()))
        // One of the two was read the other way round to stand upright, and says so.
        #expect(curve.reversed != again.reversed)
        for (a, b) in zip(curve.glyphs, again.glyphs) {
            let moved: Double = hypot(a.centre.x - b.centre.x, a.centre.y - b.centre.y)
            #expect(moved < 1e-6 && abs(a.angle - b.angle) < 1e-9)
        }
    }

    @Test func sharpBendsAndShortLinesAreSetStraight() throws {
        let projection = Projection(camera: overhead, width: 400, height: 300)
        var (style, layout) = arch()
        // A right angle under the text.
        style.line = [at(-80, 0), at(0, 0), at(0, 80)]
        style.lineAnchor = 1
        #expect(MapResolver.curve(layout, style, projection: projection, ground: FlatGround()) == nil)
        // Shorter than the text.
        style.line = [at(-20, 0), at(0, 0), at(20, 0)]
        #expect(MapResolver.curve(layout, style, projection: projection, ground: FlatGround()) == nil)
        // Straight and long enough: glyphs on the line, unturned.
        style.line = [at(-150, 0), at(0, 0), at(150, 0)]
        let straight = try #require(MapResolver.curve(layout, style, projection: projection, ground: FlatGround()))
        #expect(straight.glyphs.allSatisfy { abs($0.centre.y - 150) < 1e-9 && abs($0.angle) < 1e-12 })
        layout = try TextLayout.make("A", font: style.font)
        #expect(MapResolver.curve(layout, style, projection: projection, ground: FlatGround())?.glyphs.count == 1)
    }
}

/// Style labels resolved over a 400 × 300 view from `overhead`'s camera (straight down unless
/// tilted or turned), nothing else in the collision index.
func resolveOverhead(_ labels: [BasemapLabel], tilt: Double = 0, heading: Double = 0) -> [ResolvedLabel] {
    var camera = overhead
    camera.tilt = tilt
    camera.heading = heading
    let projection = Projection(camera: camera, width: 400, height: 300)
    var index = CollisionIndex(bounds: Rect(x: 0, y: 0, width: 400, height: 300))
    return MapResolver.resolveLabels(labels, projection: projection, ground: FlatGround(), index: &index)
}

/// `text-padding` and `text-justify` of a style's labels.
@Suite struct LabelPaddingTests {
    func resolve(_ labels: [BasemapLabel]) -> [ResolvedLabel] { resolveOverhead(labels) }

    /// Two labels whose boxes are 3 pt apart both show unpadded; padded by 2 pt each, they
    /// need 4, and the second (placed later) is hidden by the first.
    @Test func paddingKeepsLabelsApart() throws {
        func labels(padding: Double) throws -> [BasemapLabel] {
            var style = LabelStyle(font: FontSpec.system(size: 12), color: .black, haloColor: .white, haloWidth: 0)
            style.padding = padding
            let width = try TextLayout.make("Abc", font: style.font).width
            var second = style
            second.priority = 1
            return [BasemapLabel("Abc", position: at(0, 0), style: style), BasemapLabel("Abc", position: at(width + 3, 0), style: second)]
        }
        #expect(resolve(try labels(padding: 0)).allSatisfy(\.isShown))
        let padded = resolve(try labels(padding: 2))
        #expect(padded[0].isShown && padded[1].hidden == .collidedWithLabel(0))
    }

    /// `text-allow-overlap` places a label over an earlier one; `text-ignore-placement` keeps
    /// no space for a label, so a later one overlapping it is placed too; with neither, the
    /// later one is hidden.
    @Test func allowOverlapAndIgnorePlacement() throws {
        func resolved(first: (LabelStyle) -> LabelStyle = { $0 }, second: (LabelStyle) -> LabelStyle = { $0 }) -> [ResolvedLabel] {
            var style = LabelStyle(font: FontSpec.system(size: 12), color: .black, haloColor: .white, haloWidth: 0)
            let a = first(style)
            style.priority = 1
            return resolve([BasemapLabel("Abc", position: at(0, 0), style: a), BasemapLabel("Abc", position: at(4, 0), style: second(style))])
        }
        let allowing: (LabelStyle) -> LabelStyle = { var s = $0; s.allowOverlap = true; return s }
        let ignoring: (LabelStyle) -> LabelStyle = { var s = $0; s.ignorePlacement = true; return s }
        let plain = resolved(), overlapping = resolved(second: allowing), firstIgnored = resolved(first: ignoring), secondIgnored = resolved(second: ignoring)
        #expect(plain[1].hidden == .collidedWithLabel(0))
        #expect(overlapping.allSatisfy { $0.isShown })
        #expect(firstIgnored.allSatisfy { $0.isShown })
        // Ignoring placement does not let a label overlap what was placed before it.
        #expect(secondIgnored[1].hidden == .collidedWithLabel(0))
    }

    /// A style's labels are placed as MapLibre's are, anywhere they reach into the view or the
    /// 100 points round it: one across the edge shows (cut off); one just beyond is off-screen
    /// but keeps its space (a later one across the edge that overlaps it is hidden by it); one
    /// further out takes no part.
    @Test func styleLabelsArePlacedToAHundredPointsBeyondTheView() throws {
        var style = LabelStyle(font: FontSpec.system(size: 12), color: .black, haloColor: .white, haloWidth: 0)
        func label(_ text: String, x: Double, y: Double, priority: Double) -> BasemapLabel {
            style.priority = priority
            return BasemapLabel(text, position: at(x - 200, 150 - y), style: style)
        }
        let labels = [label("Edge", x: 400, y: 50, priority: 0), label("Beyond", x: 445, y: 150, priority: 0),
                      label("Across", x: 405, y: 150, priority: 1), label("Far", x: 560, y: 250, priority: 0)]
        let resolved = resolve(labels)
        #expect(resolved[0].isShown && resolved[0].box.minX < 400 && resolved[0].box.maxX > 400, "\(resolved[0].box)")
        #expect(resolved[1].hidden == .offScreen && resolved[1].box.minX > 400, "\(resolved[1].box)")
        #expect(resolved[2].hidden == .collidedWithLabel(1))
        #expect(resolved[3].hidden == .offScreen)
    }

    /// `text-halo-blur` softens the halo's outer edge: blurred, the white halo around black
    /// text on black fades over more pixels and reaches further out, and it still covers the
    /// text's own neighbourhood; unblurred it is the halo drawn before.
    @Test func haloBlurSoftensTheHalosEdge() throws {
        func draw(blur: Double) throws -> Pixmap {
            var style = LabelStyle(font: FontSpec.system(size: 14), color: .black, haloColor: .white, haloWidth: 2)
            style.haloBlur = blur
            let layout = try TextLayout.make("Halo", font: style.font)
            let canvas = Canvas(width: 80, height: 40)!
            canvas.clear(.black)
            MapPainter.drawHalo(layout, at: Point(10, 10), style: LabelPaint(style), canvas: canvas)
            return canvas.pixmap
        }
        func profile(_ p: Pixmap) -> (partial: Int, lit: Int, reach: Int) {
            var partial = 0, lit = 0, reach = 0
            for y in 0..<p.height {
                for x in 0..<p.width {
                    let v = Int(p[x, y].red)
                    if v > 8 { lit += 1; reach = max(reach, x) }
                    if v > 8 && v < 247 { partial += 1 }
                }
            }
            return (partial, lit, reach)
        }
        // As MapLibre's: the blur widens the halo's threshold of each glyph's distance field, so
        // its edge fades further out (within the glyph's field, 6 texels of 24 beyond it).
        let sharp = profile(try draw(blur: 0)), soft = profile(try draw(blur: 4))
        #expect(soft.partial > 2 * sharp.partial, "\(soft.partial) partly lit pixels against \(sharp.partial)")
        #expect(soft.reach >= sharp.reach + 1, "the blurred halo reaches \(soft.reach), the sharp one \(sharp.reach)")
        #expect(soft.lit > sharp.lit)
        // A blur too small to see draws nearly the sharp halo.
        let tiny = try draw(blur: 0.01), none = try draw(blur: 0)
        #expect(zip(tiny.data, none.data).allSatisfy { abs(Int($0) - Int($1)) <= 4 })
    }

    /// Wrapped lines are aligned by `justify`: left-justified lines start at the box's left.
    @Test func justifyAlignsWrappedLines() throws {
        var style = LabelStyle(font: FontSpec.system(size: 12), color: .black, haloColor: .white, haloWidth: 0, maxWidth: 60)
        for (justify, expected) in [("left", TextAlignment.leading), ("right", .trailing), ("center", .center)] {
            style.justify = justify
            let label = try #require(resolve([BasemapLabel("Jardin exotique de Monaco", position: at(0, 0), style: style)]).first)
            let lines = try #require(label.layout?.lines)
            #expect(lines.count > 1)
            let width = try #require(label.layout?.width)
            for line in lines {
                switch expected {
                case .leading: #expect(abs(line.x) < 1e-9)
                case .trailing: #expect(abs(line.x + line.width - width) < 1e-9)
                case .center: #expect(abs(line.x + line.width / 2 - width / 2) < 1e-9)
                }
            }
        }
    }
}

/// `text-variable-anchor`: a point's label takes the first of its places that collides with
/// nothing.
@Suite struct VariableAnchorPlacementTests {
    func resolve(_ labels: [BasemapLabel]) -> [ResolvedLabel] { resolveOverhead(labels) }

    @Test func theFirstFreePlaceIsTaken() throws {
        var first = LabelStyle(font: FontSpec.system(size: 12), color: .black, haloColor: .white, haloWidth: 0)
        first.anchor = "left"
        var second = first
        second.priority = 1
        // Tried on the right of its point (where the first label lies), then below it.
        second.variableAnchors = [VariableAnchor(anchor: "left", offset: Size(width: 2, height: 0), justify: "left"),
                                  VariableAnchor(anchor: "top", offset: Size(width: 0, height: 12), justify: "center")]
        let labels = [BasemapLabel("Abcdef", position: at(0, 0), style: first), BasemapLabel("Xyz", position: at(0, 0), style: second)]
        let resolved = resolve(labels)
        #expect(resolved.allSatisfy { $0.isShown })
        let point = try #require(resolved[1].anchor), layout = try TextLayout.make("Xyz", font: second.font, options: second.layoutOptions)
        // Below the point, centred under it, 12 pt down (clear of the first label's box).
        #expect(abs(resolved[1].box.midX - point.x) < 1e-9 && abs(resolved[1].box.minY - (point.y + 12)) < 1e-9)
        #expect(abs(resolved[1].box.width - layout.width) < 1e-9)
        // With only the taken place on offer, it is hidden by the first label.
        second.variableAnchors.removeLast()
        let crowded = resolve([labels[0], BasemapLabel("Xyz", position: at(0, 0), style: second)])
        #expect(crowded[1].hidden == .collidedWithLabel(0))
        // Allowed to overlap, it takes its first place.
        second.allowOverlap = true
        let overlapping = resolve([labels[0], BasemapLabel("Xyz", position: at(0, 0), style: second)])
        #expect(overlapping[1].isShown && abs(overlapping[1].box.minX - (point.x + 2)) < 1e-9)
        // MapLibre moves the text by its collision box, `text-padding` included: 3 pt of
        // padding puts a left-anchored text 3 pt further right.
        second.padding = 3
        let padded = resolve([labels[0], BasemapLabel("Xyz", position: at(0, 0), style: second)])
        #expect(padded[1].isShown && abs((padded[1].textOrigin?.x ?? padded[1].box.minX) - (point.x + 5)) < 1e-9, "\(padded[1].box) \(String(describing: padded[1].textOrigin))")
    }
}

/// Each place of a variable anchor is set at its own `justify`, glyph for glyph as a layout
/// made at that justification; a text whose lines are all as wide (one line) is laid out once
/// for all three, a wrapped one at each.
@Test func eachVariablePlaceIsSetAtItsJustification() throws {
    var style = LabelStyle(font: FontSpec.system(size: 12), color: .black, haloColor: .white, haloWidth: 0, maxWidth: 60)
    style.variableAnchors = [VariableAnchor(anchor: "left", offset: .zero, justify: "left"),
                             VariableAnchor(anchor: "center", offset: .zero, justify: "center"),
                             VariableAnchor(anchor: "right", offset: .zero, justify: "right")]
    let point = ScreenPoint(x: 100, y: 50, depth: 10)
    for name in ["Monaco", "Jardin exotique de Monaco"] {
        let places = MapResolver.horizontalPlacements(name, style, layout: nil, at: point)
        #expect(places.count == 3)
        var starts: [Double] = []
        for (place, v) in zip(places, style.variableAnchors) {
            var justified = style
            justified.justify = v.justify
            let expected = try TextLayout.make(name, font: style.font, options: justified.layoutOptions)
            let laid = try #require(place.layout)
            #expect(laid.lines.map(\.x) == expected.lines.map(\.x), "\(name) \(v.justify)")
            #expect(laid.lines.flatMap { $0.glyphs.map(\.x) } == expected.lines.flatMap { $0.glyphs.map(\.x) }, "\(name) \(v.justify)")
            #expect(laid.width == expected.width && laid.height == expected.height)
            starts.append(laid.lines.map(\.x).max() ?? 0)
        }
        // One line starts at 0 however it is justified; the wrapped lines move with it.
        #expect(name == "Monaco" ? starts == [0, 0, 0] : starts[0] < starts[1] && starts[1] < starts[2], "\(name): \(starts)")
    }
}

/// `icon-anchor` and `icon-offset`: the icon's box about its point.
@Test func iconAnchorAndOffsetPlaceTheIcon() throws {
    var style = LabelStyle(font: FontSpec.system(size: 12), color: .black, haloColor: .white, haloWidth: 0)
    style.icon = Pixmap(width: 20, height: 10)
    style.iconScale = 0.5
    let point = ScreenPoint(x: 100, y: 50, depth: 10)
    // Centred by default: 10 × 5 points about the point.
    #expect(MapResolver.pointPlacement("", style, layout: nil, at: point, textAnchor: "center", offset: .zero).box == Rect(x: 95, y: 47.5, width: 10, height: 5))
    // Standing on it, moved 3 right and 1 up.
    style.iconAnchor = "bottom"
    style.iconOffset = Size(width: 3, height: -1)
    #expect(MapResolver.pointPlacement("", style, layout: nil, at: point, textAnchor: "center", offset: .zero).box == Rect(x: 98, y: 44, width: 10, height: 5))
    style.iconAnchor = "top-left"
    #expect(MapResolver.pointPlacement("", style, layout: nil, at: point, textAnchor: "center", offset: .zero).box == Rect(x: 103, y: 49, width: 10, height: 5))
}

/// Labels are drawn as MapLibre draws a style's: the bottom layer's first; within a layer by
/// sort key, or from the top of the view down where the layer's symbols may overlap.
@Test func labelsAreDrawnLayerByLayerFromTheBottomUp() {
    let base = LabelStyle(font: FontSpec.system(size: 12), color: .black, haloColor: .white, haloWidth: 0)
    func label(_ i: Int, rank: Double, key: Double = 0, y: Double, byY: Bool = false, scene: Bool = false) -> ResolvedLabel {
        var style = base
        style.priority = rank * 1e6 + key
        style.sortsByY = byY
        var l = ResolvedLabel(index: i, name: "\(i)", box: Rect(x: 0, y: y, width: 1, height: 1), hidden: nil, layout: nil, style: scene ? nil : style)
        l.anchor = Point(0, y)
        return l
    }
    let labels = [label(0, rank: 0, key: 5, y: 10), label(1, rank: 0, key: -5, y: 20), label(2, rank: 1, y: 50, byY: true),
                  label(3, rank: 1, y: 30, byY: true), label(4, rank: 0, y: 0, scene: true)]
    // The scene's own label; the lower layer (rank 1) top of the view down; the upper by key.
    #expect(DisplayListBuilder.labelDrawOrder(labels) == [4, 3, 2, 1, 0])
}

/// `text-rotate`: a point's text turned about its point collides by the turned box's bounds,
/// and is drawn from its unturned origin, turned.
@Test func rotatedTextCollidesByItsTurnedBounds() throws {
    var style = LabelStyle(font: FontSpec.system(size: 12), color: .black, haloColor: .white, haloWidth: 0, anchor: "left")
    let layout = try TextLayout.make("Abcdef", font: style.font, options: style.layoutOptions)
    let point = ScreenPoint(x: 100, y: 50, depth: 10)
    style.textRotate = 90
    let placed = MapResolver.pointPlacement("Abcdef", style, layout: layout, at: point, textAnchor: "left", offset: .zero, rotate: 90)
    // Left-anchored and turned a quarter clockwise: it hangs straight down from the point.
    #expect(abs(placed.box.minY - 50) < 1e-9 && abs(placed.box.height - layout.width) < 1e-9 && abs(placed.box.width - layout.height) < 1e-9)
    #expect(abs(placed.box.midX - 100) < 1e-9)
    #expect(placed.text == Rect(x: 100, y: 50 - layout.height / 2, width: layout.width, height: layout.height))
}

/// `text-rotation-alignment: map` on a point's text: it turns with the map (by the camera's
/// heading, on top of `text-rotate`); level on the screen when it is not so aligned. Likewise
/// `icon-rotation-alignment: map` on its icon.
@Test func pointTextAlignedToTheMapTurnsWithIt() throws {
    var style = LabelStyle(font: FontSpec.system(size: 12), color: .black, haloColor: .white, haloWidth: 0)
    style.rotatesWithMap = true
    var turned = overhead
    turned.heading = 90
    func rotation(_ style: LabelStyle, camera: Camera) throws -> Double {
        let projection = Projection(camera: camera, width: 400, height: 300)
        var index = CollisionIndex(bounds: Rect(x: 0, y: 0, width: 400, height: 300))
        let resolved = MapResolver.resolveLabels([BasemapLabel("Abc", position: LatLngAltitude(latitude: 0, longitude: 0), style: style)],
                                                 projection: projection, ground: FlatGround(), index: &index)
        let label = try #require(resolved.first)
        #expect(label.isShown)
        return label.textRotation
    }
    // Heading 90: the map's east points up the screen, and so does the text (−90°).
    #expect(abs(try rotation(style, camera: turned) + Double.pi / 2) < 1e-9)
    #expect(try rotation(style, camera: overhead) == 0)
    var level = style
    level.rotatesWithMap = false
    #expect(try rotation(level, camera: turned) == 0)
    // An icon aligned to the map (`icon-rotation-alignment: map`) turns with it the same way.
    var icon = level
    icon.iconRotatesWithMap = true
    icon.iconRotate = 10
    let projection = Projection(camera: turned, width: 400, height: 300)
    var index = CollisionIndex(bounds: Rect(x: 0, y: 0, width: 400, height: 300))
    let resolved = MapResolver.resolveLabels([BasemapLabel("Abc", position: LatLngAltitude(latitude: 0, longitude: 0), style: icon)],
                                             projection: projection, ground: FlatGround(), index: &index)
    #expect(resolved.first?.style?.iconRotate == -80)
}

/// `icon-keep-upright`: an icon along a line that runs leftwards on screen is turned half round
/// (as MapLibre flips it); one along a line running rightwards, or without the property, is not.
/// The heading counts: seen from the south (heading 180°) a westward line runs rightwards.
@Test func iconsAlongLinesAreKeptUpright() throws {
    var style = LabelStyle(font: FontSpec.system(size: 12), color: .black, haloColor: .white, haloWidth: 0)
    style.icon = Pixmap(width: 8, height: 8)
    style.iconRotatesWithMap = true
    func rotation(lineTurn: Double?, iconRotate: Double, heading: Double = 0) throws -> Double {
        var s = style
        s.iconRotate = iconRotate
        s.iconLineTurn = lineTurn
        return try #require(resolveOverhead([BasemapLabel("", position: at(0, 0), style: s)], heading: heading).first?.style?.iconRotate)
    }
    // A line 150° round from east (west-south-west, leftwards): turned from 150 to 330.
    #expect(try rotation(lineTurn: 150, iconRotate: 150) == 330)
    #expect(try rotation(lineTurn: nil, iconRotate: 150) == 150)
    // Rightwards (−30°): as it was.
    #expect(try rotation(lineTurn: -30, iconRotate: -30) == -30)
    // Heading 180: the map's turn less the heading (−30 …) and no flip for the westward line,
    // which now runs rightwards; the eastward one is flipped.
    #expect(try rotation(lineTurn: 150, iconRotate: 150, heading: 180) == -30)
    #expect(try rotation(lineTurn: -30, iconRotate: -30, heading: 180) == (-210 + 180).truncatingRemainder(dividingBy: 360))
}

/// `text-pitch-alignment: map` for a point's text: its glyphs lie on the ground about the
/// anchor, each drawn through the projection's local axes there. Seen straight down the axes
/// are the screen's own (the text as it stands upright); tilted, the text's y axis is
/// foreshortened and its x axis stays level; `text-rotate` turns both on the ground; it still
/// collides by its upright box.
@Test func pointTextLiesFlatOnTheMap() throws {
    var style = LabelStyle(font: FontSpec.system(size: 12), color: .black, haloColor: .white, haloWidth: 0)
    style.flat = true
    func resolved(tilt: Double, rotate: Double = 0, flat: Bool = true) throws -> ResolvedLabel {
        var s = style
        s.flat = flat
        s.textRotate = rotate
        return resolveOverhead([BasemapLabel("Abc\ndef", position: at(0, 0), style: s)], tilt: tilt)[0]
    }
    let down = try resolved(tilt: 0)
    #expect(down.isShown && down.glyphs.count == 6 && down.glyphOrigins.count == 6 && down.glyphAxes.count == 6)
    for axes in down.glyphAxes {
        #expect(abs(axes.x.x - 1) < 1e-3 && abs(axes.x.y) < 1e-3 && abs(axes.y.x) < 1e-3 && abs(axes.y.y - 1) < 1e-3, "\(axes)")
    }
    // Each glyph where the upright layout has it: its origin's offset from the text's top-left.
    let upright = try resolved(tilt: 0, flat: false)
    #expect(upright.glyphAxes.isEmpty && upright.glyphs.isEmpty)
    let origin = down.textOrigin ?? Point(down.box.minX, down.box.minY)
    for (place, o) in zip(down.glyphs, down.glyphOrigins) {
        #expect(abs(place.centre.x - (origin.x + o.x)) < 1e-3 && abs(place.centre.y - (origin.y + o.y)) < 1e-3)
    }
    // Tilted 55°: the anchor's glyphs have level x axes and foreshortened y axes.
    let tilted = try resolved(tilt: 55)
    #expect(tilted.glyphAxes.count == 6)
    let middle = tilted.glyphAxes[1]
    #expect(abs(middle.x.y) < 0.05 && middle.y.y > 0.3 && middle.y.y < 0.8, "\(middle)")
    // The first line's glyphs above the second's, both read left to right.
    #expect(tilted.glyphs[0].centre.x < tilted.glyphs[2].centre.x && tilted.glyphs[3].centre.y > tilted.glyphs[0].centre.y)
    // Turned a quarter clockwise on the ground: x runs down the screen.
    let turned = try resolved(tilt: 0, rotate: 90)
    #expect(turned.textRotation == 0 && abs(turned.glyphAxes[0].x.x) < 1e-3 && turned.glyphAxes[0].x.y > 0.99)
}

/// `icon-pitch-alignment: map`: the icon is drawn through the ground's axes at its anchor —
/// the screen's own seen straight down, its y axis foreshortened under tilt — and an upright
/// icon has none.
@Test func iconsLieFlatOnTheMap() throws {
    var style = LabelStyle(font: FontSpec.system(size: 12), color: .black, haloColor: .white, haloWidth: 0)
    style.icon = Pixmap(width: 8, height: 8)
    func axes(tilt: Double, flat: Bool) -> (x: Point, y: Point)? {
        var s = style
        s.iconFlat = flat
        return resolveOverhead([BasemapLabel("", position: at(0, 0), style: s)], tilt: tilt)[0].iconAxes
    }
    let down = try #require(axes(tilt: 0, flat: true))
    #expect(abs(down.x.x - 1) < 1e-3 && abs(down.x.y) < 1e-3 && abs(down.y.x) < 1e-3 && abs(down.y.y - 1) < 1e-3, "\(down)")
    let tilted = try #require(axes(tilt: 55, flat: true))
    #expect(abs(tilted.x.y) < 1e-3 && tilted.y.y > 0.3 && tilted.y.y < 0.8, "\(tilted)")
    #expect(axes(tilt: 55, flat: false) == nil)
}

/// A point's text turned with the map collides by its box turned by `text-rotate` alone, not by
/// the heading, as MapLibre Native collides it: under heading 90° a wide label's box stays wide,
/// while `text-rotate: 90` turns it tall.
@Test func textTurnedWithTheMapCollidesByItsUnturnedBox() throws {
    var style = LabelStyle(font: FontSpec.system(size: 12), color: .black, haloColor: .white, haloWidth: 0)
    style.rotatesWithMap = true
    func box(heading: Double, rotate: Double) -> Rect {
        var s = style
        s.textRotate = rotate
        return resolveOverhead([BasemapLabel("Wide label", position: at(0, 0), style: s)], heading: heading)[0].box
    }
    let turnedMap = box(heading: 90, rotate: 0), turnedText = box(heading: 0, rotate: 90)
    #expect(turnedMap.width > 3 * turnedMap.height, "\(turnedMap)")
    #expect(turnedText.height > 3 * turnedText.width, "\(turnedText)")
}
