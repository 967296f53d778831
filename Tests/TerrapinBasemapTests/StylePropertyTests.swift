// Style properties read as MapLibre reads them: colours interpolated in the space a style asks
// for (`interpolate-hcl`, `interpolate-lab`, a function's "colorSpace"), checked against
// MapLibre's own images of the same stops; `text-overlap` and `icon-overlap`.
import Foundation
import Testing
import TerrapinImagery
import TerrapinIO
import TerrapinRaster
import TerrapinTestSupport
import TerrapinTiles
@testable import TerrapinBasemap

@Suite struct ColourSpaceTests {
    /// `expression` at zoom 5, as bytes.
    func bytes(_ expression: String) throws -> [Int] {
        let parsed = try StyleExpressionParser.value(JSONParser.parse(Array(expression.utf8)), arrayValued: false)
        let c = try #require(parsed.evaluate(EvaluationContext(zoom: 5)).color)
        return [c.red, c.green, c.blue, c.alpha].map { Int(($0 * 255).rounded()) }
    }

    /// Purple to orange half way: (191, 86, 85) in Lab, as MapLibre's render-test image has it;
    /// (227, 40, 83) in HCL (the hue the short way round, through red: MapLibre's image has
    /// (245, 7, 53), within the suite's threshold of it); RGB is the plain mean.
    @Test func halfWayInEachSpace() throws {
        let stops = #"["zoom"], 0, "rgb(118,0,118)", 10, "rgb(255,155,0)"]"#
        let hcl = try bytes(#"["interpolate-hcl", ["linear"], "# + stops), lab = try bytes(#"["interpolate-lab", ["linear"], "# + stops)
        #expect(hcl == [227, 40, 83, 255], "\(hcl)")
        #expect(lab == [191, 86, 85, 255], "\(lab)")
        #expect(try bytes(#"["interpolate", ["linear"], "# + stops) == [187, 78, 59, 255])
        // A legacy function's "colorSpace" is the same; an unknown one is an error.
        #expect(try bytes(#"{"stops": [[0, "rgb(118,0,118)"], [10, "rgb(255,155,0)"]], "colorSpace": "hcl"}"#) == [227, 40, 83, 255])
        #expect(throws: ExpressionError.self) { try bytes(#"{"stops": [[0, "red"], [10, "blue"]], "colorSpace": "hsv"}"#) }
    }

    /// Colours interpolate premultiplied, as MapLibre Native interpolates them: a transparent
    /// stop is transparent black whatever colour it was written in, so from
    /// "rgba(255, 255, 255, 0)" and from "rgba(0, 0, 0, 0)" a colour fades in alike, keeping its
    /// own colour; greys have no hue, so HCL keeps the other stop's.
    @Test func transparentAndGreyStops() throws {
        let white = try bytes(#"["interpolate", ["linear"], ["zoom"], 0, "rgba(255, 255, 255, 0)", 10, "rgb(22, 73, 22)"]"#)
        let black = try bytes(#"["interpolate", ["linear"], ["zoom"], 0, "rgba(0, 0, 0, 0)", 10, "rgb(22, 73, 22)"]"#)
        #expect(white == black && white == [22, 73, 22, 128], "\(white)")
        let grey = try bytes(#"["interpolate-hcl", ["linear"], ["zoom"], 0, "rgb(128, 128, 128)", 10, "rgb(255, 0, 0)"]"#)
        #expect(grey[0] > grey[1] && grey[0] > grey[2], "reddish, not a hue from nowhere: \(grey)")
    }
}

/// `text-overlap` and `icon-overlap` (MapLibre's newer form of the allow-overlap properties)
/// win over `text-allow-overlap`/`icon-allow-overlap`: "always" and "cooperative" place a
/// symbol whatever it overlaps, "never" does not; without them the old properties decide.
@Suite struct OverlapModeTests {
    func allows(_ layout: String, _ kind: String) throws -> Bool {
        let json = #"{"version": 8, "sources": {"t": {"type": "vector", "tiles": ["x/{z}/{x}/{y}.pbf"]}}, "layers": [{"id": "s", "type": "symbol", "source": "t", "source-layer": "poi", "layout": LAYOUT}]}"#
            .replacingOccurrences(of: "LAYOUT", with: layout)
        let style = try BasemapStyle.parse(Array(json.utf8), file: "o.json", directory: "/")
        #expect(!style.warnings.contains { $0.contains("overlap") }, "\(style.warnings)")
        let layer = try #require(style.layers.first)
        return Basemap.allowsOverlap(layer, kind, EvaluationContext(zoom: 10))
    }

    @Test func overlapModesOverrideAllowOverlap() throws {
        #expect(try allows(#"{"text-overlap": "always"}"#, "text"))
        #expect(try allows(#"{"icon-overlap": "cooperative"}"#, "icon"))
        #expect(try !allows(#"{"text-overlap": "never", "text-allow-overlap": true}"#, "text"))
        #expect(try allows(#"{"text-allow-overlap": true}"#, "text"))
        #expect(try !allows(#"{"icon-allow-overlap": true}"#, "text"))
        #expect(try !allows(#"{}"#, "icon"))
    }
}

/// `line-dasharray` in widths of the line at the view's whole zoom (MapLibre's "floorwidth"),
/// scaled with the tile to the view: at zoom 0.5 a line 8 wide at zoom 0 and 16 at zoom 1
/// (12 at 0.5) is dashed [1, 1] in dashes of 8 · 2^0.5 ≈ 11.3 pixels, not 12 · 2^0.5 ≈ 17.
@Suite struct DashLengthTests {
    @Test func dashesAreInTheWholeZoomsWidths() throws {
        let json = """
        {"version": 8, "sources": {"l": {"type": "geojson", "data": {"type": "LineString", "coordinates": [[-170, 0], [170, 0]]}}},
         "layers": [{"id": "l", "type": "line", "source": "l", "paint": {"line-color": "black", "line-dasharray": [1, 1], "line-width": {"stops": [[0, 8], [1, 16]]}}}]}
        """
        let basemap = try Basemap(style: try BasemapStyle.parse(Array(json.utf8), file: "d.json", directory: "/"), tiles: nil) { try TileSources.open($0) }
        let side = Int((512 * 2.0.squareRoot()).rounded())
        let canvas = try #require(Canvas(width: side, height: side))
        #expect(try basemap.draw(TileID(z: 0, x: 0, y: 0), view: TileView(origin: (0, 0), pixelsPerTile: 512 * 2.0.squareRoot(), unit: 1, zoom: 0.5), into: canvas))
        // Runs of ink along the equator's row, the first and last (cut by the ends) left out.
        let image = canvas.pixmap, row = side / 2
        var runs: [Int] = [], run = 0
        for x in 0..<side {
            if image[x, row].alpha > 128 { run += 1 } else if run > 0 { runs.append(run); run = 0 }
        }
        let inner = runs.dropFirst().dropLast()
        #expect(inner.count > 10)
        let mean = Double(inner.reduce(0, +)) / Double(max(1, inner.count))
        #expect(abs(mean - 8 * 2.0.squareRoot()) < 1.5, "\(mean) pixels a dash: \(runs)")
    }
}

/// A source's `bounds`: tiles outside them are not read, as MapLibre's `TileBounds` judges it
/// (the box's west and north edges rounded down to tiles, its east and south edges up).
@Suite struct SourceBoundsTests {
    @Test func tilesOutsideTheBoundsAreNotRead() throws {
        // Berlin's box at z14: column 8802 (x 8802.05…8803.00), rows 5374 and 5375 (y 5374.46…5375.02).
        let berlin = [13.4043671, 52.4959407, 13.425247606101294, 52.5033795378269]
        #expect(Basemap.tile(TileID(z: 14, x: 8802, y: 5374), touches: berlin) && Basemap.tile(TileID(z: 14, x: 8802, y: 5375), touches: berlin))
        #expect(!Basemap.tile(TileID(z: 14, x: 8801, y: 5374), touches: berlin) && !Basemap.tile(TileID(z: 14, x: 8803, y: 5374), touches: berlin))
        #expect(!Basemap.tile(TileID(z: 14, x: 8802, y: 5373), touches: berlin))
        #expect(Basemap.tile(TileID(z: 0, x: 0, y: 0), touches: berlin))
        #expect(!Basemap.tile(TileID(z: 14, x: 8802, y: 5380), touches: berlin))
        // Monaco's water: drawn where the bounds hold the tile, not where they leave it out.
        func drawn(_ bounds: String) throws -> Bool {
            let json = """
            {"version": 8, "sources": {"m": {"type": "vector", "url": "pmtiles://../../tiles/monaco-omt.pmtiles"\(bounds)}},
             "layers": [{"id": "w", "type": "fill", "source": "m", "source-layer": "water", "paint": {"fill-color": "blue"}}]}
            """
            let style = try BasemapStyle.parse(Array(json.utf8), file: "b.json", directory: Repository.fixtures + "/basemap/styles")
            #expect(style.warnings.isEmpty, "\(style.warnings)")
            let basemap = try Basemap(style: style, tiles: nil) { try TileSources.open($0) }
            return try basemap.draw(TileID(z: 14, x: 8529, y: 5974)) != nil
        }
        #expect(try drawn(""))
        #expect(try drawn(#", "bounds": [7.3, 43.6, 7.5, 43.8]"#))
        #expect(try !drawn(#", "bounds": [40, 40, 50, 50]"#))
    }
}

/// A symbol layer with an icon and no text along lines (OSM Bright's one-way arrows): the icon
/// at each place along the line, turned with it (`icon-rotation-alignment` "auto" or "map"),
/// upright when aligned to the viewport.
@Suite struct IconsAlongLinesTests {
    func icons(_ alignment: String, keepUpright: Bool? = nil, westwards: Bool = false) throws -> [BasemapSymbol] {
        let upright = keepUpright.map { #", "icon-keep-upright": \#($0)"# } ?? ""
        let line = westwards ? "[[7.44, 43.75], [7.40, 43.73]]" : "[[7.40, 43.73], [7.44, 43.75]]"
        let json = """
        {"version": 8, "sprite": "../sprites/icons",
         "sources": {"l": {"type": "geojson", "data": {"type": "LineString", "coordinates": \(line)}}},
         "layers": [{"id": "arrows", "type": "symbol", "source": "l",
                     "layout": {"symbol-placement": "line", "symbol-spacing": 100, "icon-image": "dot", "icon-rotation-alignment": "\(alignment)"\(upright)}}]}
        """
        let style = try BasemapStyle.parse(Array(json.utf8), file: "a.json", directory: Repository.fixtures + "/basemap/styles")
        let basemap = try Basemap(style: style, tiles: nil) { try TileSources.open($0) }
        #expect(basemap.warnings.isEmpty, "\(basemap.warnings)")
        return basemap.symbols(area: [7.39, 43.72, 7.45, 43.76], zoom: 14)
    }

    @Test func iconsFollowTheLine() throws {
        let turned = try icons("map")
        #expect(turned.count > 5 && turned.allSatisfy { $0.icon != nil && $0.text.isEmpty }, "\(turned.count)")
        // The line climbs to the north-east: about 30° above east on the map, so the icons turn
        // by about −30° (screen y down).
        #expect(turned.allSatisfy { abs($0.iconRotate + 30) < 6 }, "\(turned.map(\.iconRotate))")
        #expect(try icons("viewport").allSatisfy { $0.iconRotate == 0 })
        // Turned on the map, they turn with its heading ("auto" is "map" along a line).
        #expect(try icons("auto").allSatisfy { $0.iconRotatesWithMap } && turned.allSatisfy { $0.iconRotatesWithMap })
        #expect(try icons("viewport").allSatisfy { !$0.iconRotatesWithMap })
        // Turned with the map, they lie flat on it under pitch ("auto" `icon-pitch-alignment`);
        // set upright, they stand.
        let upright = try icons("viewport")
        #expect(turned.allSatisfy(\.iconFlat) && upright.allSatisfy { !$0.iconFlat })
    }

    /// `icon-keep-upright` (default false) carries the line's direction with each icon turned
    /// with it, for the resolver to turn the icon half round where the line runs leftwards on
    /// screen; an icon set upright (viewport) has nothing to keep.
    @Test func keepUprightCarriesTheLinesDirection() throws {
        #expect(try icons("map").allSatisfy { $0.iconLineTurn == nil })
        #expect(try icons("map", keepUpright: false).allSatisfy { $0.iconLineTurn == nil })
        let east = try icons("map", keepUpright: true), west = try icons("map", keepUpright: true, westwards: true)
        #expect(!east.isEmpty && east.allSatisfy { abs(($0.iconLineTurn ?? 99) + 30) < 6 }, "\(east.map(\.iconLineTurn))")
        // Drawn from its east end the line runs the other way: about 150° below east.
        #expect(!west.isEmpty && west.allSatisfy { abs(abs($0.iconLineTurn ?? 0) - 150) < 6 }, "\(west.map(\.iconLineTurn))")
        #expect(try icons("viewport", keepUpright: true).allSatisfy { $0.iconLineTurn == nil })
    }
}

/// Extrusions below the ground are at the ground, as MapLibre's shader clamps base and height:
/// a base of −10 m stands from the ground; a height below zero makes no building.
@Suite struct ExtrusionClampTests {
    @Test func negativeBasesAndHeightsAreAtTheGround() throws {
        func buildings(base: Double, height: Double) throws -> [BasemapBuilding] {
            let json = """
            {"version": 8, "sources": {"b": {"type": "geojson", "data": {"type": "Polygon", "coordinates": [[[7.420, 43.730], [7.421, 43.730], [7.421, 43.731], [7.420, 43.731], [7.420, 43.730]]]}}},
             "layers": [{"id": "x", "type": "fill-extrusion", "source": "b", "paint": {"fill-extrusion-base": \(base), "fill-extrusion-height": \(height)}}]}
            """
            let basemap = try Basemap(style: try BasemapStyle.parse(Array(json.utf8), file: "x.json", directory: "/"), tiles: nil) { try TileSources.open($0) }
            return basemap.buildings(area: [7.41, 43.72, 7.43, 43.74], zoom: 16)
        }
        let standing = try buildings(base: -10, height: 20)
        // (The footprint straddles two tiles: each holds it.)
        #expect(!standing.isEmpty && standing.allSatisfy { $0.base == 0 && $0.roof == 20 }, "\(standing.map { ($0.base, $0.roof) })")
        #expect(try buildings(base: 0, height: -5).isEmpty)
    }
}

/// `line-blur`: MapLibre's line shader fades a line's edge over the blur plus a pixel, inward
/// from half its width plus half a pixel: alpha clamp((w/2 + ½ − d) / (blur + 1), 0, 1).
@Suite struct LineBlurTests {
    func profile(blur: Double) throws -> [Int] {
        let json = """
        {"version": 8, "sources": {"l": {"type": "geojson", "data": {"type": "LineString", "coordinates": [[-170, 0], [170, 0]]}}},
         "layers": [{"id": "l", "type": "line", "source": "l", "paint": {"line-color": "black", "line-width": 10, "line-blur": \(blur)}}]}
        """
        let style = try BasemapStyle.parse(Array(json.utf8), file: "b.json", directory: "/")
        #expect(style.warnings.isEmpty, "\(style.warnings)")
        let basemap = try Basemap(style: style, tiles: nil) { try TileSources.open($0) }
        let image = try #require(try basemap.draw(TileID(z: 0, x: 0, y: 0)))
        // The equator runs along y = 256: row 256 + k is k + ½ from it.
        return (0..<8).map { Int(image[256, 256 + $0].alpha) }
    }

    @Test func theEdgeFadesOverTheBlur() throws {
        let blurred = try profile(blur: 4)
        for (k, alpha) in blurred.enumerated() {
            let expected = min(1, max(0, (5.5 - (Double(k) + 0.5)) / 5)) * 255
            #expect(abs(Double(alpha) - expected) <= 16, "row \(k): \(alpha), expected \(expected): \(blurred)")
        }
        // Without a blur the line is solid to its edge, then a one-pixel ramp.
        #expect(try profile(blur: 0) == [255, 255, 255, 255, 255, 0, 0, 0])
    }
}

/// A drape's tiles drawn for the view, as MapLibre draws the view's own tiles: the style at the
/// view's zoom on every tile, a line `2^(tile's zoom − view's zoom)` texels a style pixel (so
/// at two pixels a point the tile a zoom deeper than the view holds its lines at twice their
/// width, and a far, shallower tile at a fraction of it); patterns at their size on the view's
/// whole zoom, scaled with the tile.
@Suite struct DrapeScaleTests {
    func lineWidth(unit: Double, zoom: Double?) throws -> Int {
        let json = """
        {"version": 8, "sources": {"l": {"type": "geojson", "data": {"type": "LineString", "coordinates": [[-170, 0], [170, 0]]}}},
         "layers": [{"id": "l", "type": "line", "source": "l", "paint": {"line-color": "black", "line-width": 4}}]}
        """
        let basemap = try Basemap(style: try BasemapStyle.parse(Array(json.utf8), file: "d.json", directory: "/"), tiles: nil) { try TileSources.open($0) }
        let drawer = try #require(try basemap.makeDrape(unit: unit, zoom: zoom).tiles?.drawer)
        // Tile 1/0/0: the equator is its bottom edge; count the rows of ink above it.
        let image = try #require(try drawer.draw(TileID(z: 1, x: 0, y: 0)))
        return (0..<image.height).filter { image[256, $0].alpha > 128 }.count
    }

    @Test func linesKeepTheirWidthAtTheViewsZoom() throws {
        // Half of a line 4 wide lies above the equator: 2 texels at its own zoom.
        #expect(try lineWidth(unit: 1, zoom: nil) == 2)
        // Two pixels a point: the view at zoom 0 reads zoom 1's tile, 8 texels wide.
        #expect(try lineWidth(unit: 2, zoom: 0) == 4)
        #expect(try lineWidth(unit: 2, zoom: nil) == 4)
        // A view at zoom 2 sees tile 1 far off: its line 2^−1 × 4 = 2 texels wide.
        #expect(try lineWidth(unit: 1, zoom: 2) == 1)
        #expect(Basemap.patternUnit(1, zoom: 14.5) == 2.0.squareRoot())
        #expect(Basemap.patternUnit(2, zoom: 14) == 2 && Basemap.patternUnit(1, zoom: 15 - 1e-9) == 1)
    }

    /// A tile deeper than the view's zoom (read where the view's own would be magnified) holds
    /// the view's data drawn finer, never the next zoom's: Andorra's z14 tile for a view at z13
    /// is its z13 data at two texels a style pixel, pixel for pixel what a drape at two pixels a
    /// point draws there. (Read from z14's data, as it was, the two differ: z14 has roads and paths z13 leaves out.)
    @Test func aTileDeeperThanTheViewHoldsTheViewsData() throws {
        let style = #"{"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [{"id": "w", "type": "line", "source": "s", "source-layer": "transportation", "paint": {"line-color": "black", "line-width": 1}}]}"#
        let basemap = try Basemap(style: try BasemapStyle.parse(Array(style.utf8), file: "s", directory: "."),
                                  tiles: try TileSources.open(Repository.fixtures + "/tiles/andorra-omt.pmtiles")) { try TileSources.open($0) }
        let tile = TileID(z: 14, x: 8261, y: 6050)
        let viewDrawer = try #require(try basemap.makeDrape(unit: 1, zoom: 13).tiles?.drawer)
        let finerDrawer = try #require(try basemap.makeDrape(unit: 2, zoom: nil).tiles?.drawer)
        let forView = try #require(try viewDrawer.draw(tile)), finer = try #require(try finerDrawer.draw(tile))
        let differing = zip(forView.data, finer.data).filter { $0 != $1 }.count + abs(forView.data.count - finer.data.count)
        #expect(differing == 0, "\(differing) bytes differ")
    }
}

/// Legacy functions of array-valued properties: the spec's interpolated arrays (`icon-offset`,
/// `text-offset`, the translates) interpolate between stops, element by element; the others
/// (`line-dasharray`) step.
@Suite struct ArrayFunctionTests {
    @Test func offsetsInterpolateAndDashesStep() throws {
        let json = """
        {"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
         "layers": [{"id": "s", "type": "symbol", "source": "p", "layout": {"icon-offset": {"stops": [[0, [0, 0]], [10, [10, 20]]]},
                     "text-offset": {"property": "rank", "stops": [[0, [0, 10]], [50, [20, 10]]]}}},
                    {"id": "l", "type": "line", "source": "p", "paint": {"line-dasharray": {"stops": [[0, [1, 1]], [10, [3, 3]]]}}}]}
        """
        let style = try BasemapStyle.parse(Array(json.utf8), file: "a.json", directory: "/")
        let symbol = try #require(style.layers.first { $0.id == "s" }), line = try #require(style.layers.first { $0.id == "l" })
        #expect(symbol.property("icon-offset")?.evaluate(EvaluationContext(zoom: 5)) == .array([.number(5), .number(10)]))
        #expect(line.property("line-dasharray")?.evaluate(EvaluationContext(zoom: 5)) == .array([.number(1), .number(1)]))
    }
}

/// Hostile drape parameters are bounded, not trapped on: a zoom far past any map's and a
/// pixel ratio in the thousands still draw (or decline to draw) a tile.
@Suite struct DrapeBoundsTests {
    @Test func hugeZoomsAndRatiosAreBounded() throws {
        let json = """
        {"version": 8, "sources": {"l": {"type": "geojson", "data": {"type": "LineString", "coordinates": [[-170, 0], [170, 0]]}}},
         "layers": [{"id": "l", "type": "line", "source": "l", "paint": {"line-color": "black"}}]}
        """
        let basemap = try Basemap(style: try BasemapStyle.parse(Array(json.utf8), file: "d.json", directory: "/"), tiles: nil) { try TileSources.open($0) }
        for (unit, zoom) in [(1.0, 1e20), (4096.0, 3.0), (1.0, -1e20)] {
            let drawer = try #require(try basemap.makeDrape(unit: unit, zoom: zoom).tiles?.drawer)
            _ = try drawer.draw(TileID(z: 1, x: 0, y: 0))
        }
        #expect(Basemap.patternOrigin(TileID(z: 1, x: 1, y: 1), tileSize: 512, scale: 1e300) == (1_000_000_000_000_000, 1_000_000_000_000_000))
    }
}

/// `collator` and the comparisons that take one, as MapLibre's render test `collator/default`
/// answers them (ICU's root collation: base letters, then diacritics, then case, lower first).
@Suite struct CollatorTests {
    func compare(_ op: String, _ a: String, _ b: String, caseSensitive: Bool, diacritics: Bool) throws -> StyleValue {
        let json = #"["\#(op)", "\#(a)", "\#(b)", ["collator", {"case-sensitive": \#(caseSensitive), "diacritic-sensitive": \#(diacritics), "locale": "en"}]]"#
        return try StyleExpressionParser.value(JSONParser.parse(Array(json.utf8))).evaluate(EvaluationContext(zoom: 0))
    }

    @Test func comparisonsFollowTheCollatorsLevels() throws {
        // (op, a, b, case-sensitive, diacritic-sensitive, answer): the render test's nine cells.
        let cells: [(String, String, String, Bool, Bool, Bool)] = [
            ("<", "a", "ä", true, false, false), ("!=", "a", "Â", false, false, false), ("<", "a", "ä", true, true, true),
            (">", "a", "ä", true, true, false), ("==", "a", "Â", false, false, true), ("<", "a", "ä", false, true, true),
            (">=", "a", "ä", true, true, false), ("<=", "a", "Â", true, false, true), ("<=", "a", "A", true, true, true),
        ]
        for (op, a, b, c, d, answer) in cells {
            #expect(try compare(op, a, b, caseSensitive: c, diacritics: d) == .bool(answer), "\(a) \(op) \(b) case \(c) diacritics \(d)")
        }
        // Base letters decide first, whatever the case: "B" after "a".
        #expect(try compare("<", "a", "B", caseSensitive: true, diacritics: true) == .bool(true))
        // Without a collator, strings compare by code point ("A" before "a").
        let plain = try StyleExpressionParser.value(JSONParser.parse(Array(#"["<", "a", "A"]"#.utf8))).evaluate(EvaluationContext(zoom: 0))
        #expect(plain == .bool(false))
    }

    @Test func resolvedLocaleAndMalformedCollators() throws {
        let locale = try StyleExpressionParser.value(JSONParser.parse(Array(#"["resolved-locale", ["collator", {"locale": "fr"}]]"#.utf8)))
        #expect(locale.evaluate(EvaluationContext(zoom: 0)) == .string("fr"))
        #expect(throws: ExpressionError.self) { try StyleExpressionParser.value(JSONParser.parse(Array(#"["collator", "en"]"#.utf8))) }
        // A third argument that is no collator: an evaluation error (null).
        let wrong = try StyleExpressionParser.value(JSONParser.parse(Array(#"["==", "a", "a", 3]"#.utf8)))
        #expect(wrong.evaluate(EvaluationContext(zoom: 0)) == .null)
    }
}

/// A `format` text-field's sections with their own `text-color`: the text joined, and each
/// coloured section's code points (after the blanks cut from the label's start).
@Suite struct FormatSectionTests {
    @Test func sectionsKeepTheirColours() throws {
        let json = #"["format", " Blue", {"text-color": "blue"}, "\n", {}, "Red", {"text-color": ["get", "c"]}]"#
        let field = try StyleExpressionParser.value(JSONParser.parse(Array(json.utf8)))
        let c = EvaluationContext(zoom: 0)
        #expect(field.evaluate(c) == .string(" Blue\nRed"))
        let sections = Basemap.sections(field, c, text: "Blue\nRed")
        // "Blue" at 0..<4 in blue; "Red"'s colour is null (no feature): not a section.
        #expect(sections.count == 1 && sections[0].start == 0 && sections[0].end == 4 && sections[0].color == StyleColor(red: 0, green: 0, blue: 1))
        // Not the label's text (a localized name of another length): no sections.
        #expect(Basemap.sections(field, c, text: "Bleu et rouge").isEmpty)
    }

    /// `font-scale` and `text-font` are read per section (a scale bounded to 0…10, a
    /// non-finite one 1), with or without a colour; the joined text is unchanged.
    @Test func sectionsKeepTheirScalesAndFonts() throws {
        let json = #"["format", "Big", {"font-scale": 1.5}, " ", {}, "tiny", {"font-scale": 0.25, "text-color": "red"}, "huge", {"font-scale": 1e9, "text-font": ["literal", ["DejaVu Sans Bold"]]}]"#
        let field = try StyleExpressionParser.value(JSONParser.parse(Array(json.utf8)))
        let c = EvaluationContext(zoom: 0)
        #expect(field.evaluate(c) == .string("Big tinyhuge"))
        let sections = Basemap.sections(field, c, text: "Big tinyhuge")
        #expect(sections.map(\.start) == [0, 4, 8] && sections.map(\.end) == [3, 8, 12])
        #expect(sections.map(\.scale) == [1.5, 0.25, 10])
        #expect(sections.map { $0.color != nil } == [false, true, false])
        #expect(sections.map(\.fonts) == [nil, nil, ["DejaVu Sans Bold"]])
    }

    /// An image inside a formatted text stands in it as U+FFFC, its section naming the image
    /// (evaluated per feature) with its `font-scale` and `vertical-align`; the style loads
    /// without a warning. A `vertical-align` outside its three words is no alignment.
    @Test func imagesInsideTheTextAreSectionsOfTheirOwn() throws {
        let json = #"["format", "London", {"vertical-align": "top"}, ["image", "underground"], {}, " ", {}, ["image", ["get", "line"]], {"font-scale": 2, "vertical-align": "center"}, "x", {"vertical-align": "middle"}]"#
        let field = try StyleExpressionParser.value(JSONParser.parse(Array(json.utf8)))
        let c = EvaluationContext(zoom: 0)
        #expect(field.evaluate(c) == .string("London\u{FFFC} \u{FFFC}x"))
        let sections = Basemap.sections(field, c, text: "London\u{FFFC} \u{FFFC}x")
        #expect(sections.map(\.start) == [0, 6, 8] && sections.map(\.end) == [6, 7, 9])
        #expect(sections.map(\.image) == [nil, "underground", ""])
        #expect(sections.map(\.align) == ["top", nil, "center"])
        #expect(sections.map(\.scale) == [nil, nil, 2])
        // An image call takes one name.
        #expect(throws: ExpressionError.self) { try StyleExpressionParser.value(JSONParser.parse(Array(#"["format", ["image", "a", "b"], {}]"#.utf8))) }
        let style = try BasemapStyle.parse(Array("""
            {"version": 8, "sources": {"s": {"type": "vector", "url": "pmtiles://a.pmtiles"}},
             "layers": [{"id": "t", "type": "symbol", "source": "s", "source-layer": "poi", "layout": {"text-field": \(json)}}]}
            """.utf8), file: "images.json", directory: "/styles")
        #expect(style.warnings.isEmpty, "\(style.warnings)")
    }

    /// A label's coloured sections are bounded: each is a pass over its glyphs when drawn.
    @Test func atMost64ColouredSections() throws {
        let parts = (0..<100).map { _ in #""x", {"text-color": "red"}"# }.joined(separator: ", ")
        let field = try StyleExpressionParser.value(JSONParser.parse(Array("[\"format\", \(parts)]".utf8)))
        #expect(Basemap.sections(field, EvaluationContext(zoom: 0), text: String(repeating: "x", count: 100)).count == 64)
    }
}

/// A colour property's CSS texts are parsed once, when the style is read: the outputs of its
/// expression become colours, while inputs, conditions and `match` labels stay text, and every
/// feature gets the colour it got before.
@Suite struct ColourOutputTests {
    @Test func outputsBecomeColoursAndEveryFeatureGetsTheSameColour() throws {
        let json = """
            ["case", ["==", ["get", "colour"], "red"], "#ff0000",
             ["match", ["get", "class"], "red", "rgba(0, 0, 255, 0.5)", "park", ["step", ["zoom"], "green", 10, "hsl(120, 100%, 25%)"], ["coalesce", ["get", "fill"], "#123"]]]
            """
        let plain = try StyleExpressionParser.value(JSONParser.parse(Array(json.utf8)))
        let parsed = plain.withColourOutputs
        // The literal outputs are colours now; the compared "red" and the match label "red" are not.
        guard case .cases(let pairs, let otherwise) = parsed, case .literal(.color) = pairs[0].1,
              case .call("==", let operands) = pairs[0].0, case .literal(.string("red")) = operands[1],
              case .match(_, let arms, let fallback) = otherwise, case .string("red") = arms[0].0[0], case .literal(.color) = arms[0].1,
              case .step(_, let first, let stops) = arms[1].1, case .literal(.color) = first, case .literal(.color) = stops[0].1,
              case .coalesce(let parts) = fallback, case .get = parts[0], case .literal(.color) = parts[1] else {
            Issue.record("not converted as expected: \(parsed)"); return
        }
        let features = [feature([("colour", .string("red"))]), feature([("class", .string("red"))]), feature([("class", .string("park"))]),
                        feature([("fill", .string("#abcdef"))]), feature([("fill", .number(3))]), feature([])]
        for f in features {
            for zoom in [5.0, 12] {
                var context = f
                context.zoom = zoom
                let a = plain.evaluate(context).color, b = parsed.evaluate(context).color
                #expect(a == b, "\(a.map(\.description) ?? "nil") against \(b.map(\.description) ?? "nil")")
            }
        }
    }
}

/// `symbol-avoid-edges`: MapLibre applies it only when rendering one tile at a time (Native's
/// tile mode); a whole view's labels collide across tiles, as MapLibre's static and continuous
/// maps place them, so the property is taken without a warning and changes no label.
@Suite struct SymbolAvoidEdgesTests {
    func symbols(_ avoid: Bool?) throws -> (symbols: [BasemapSymbol], warnings: [String]) {
        let layout = avoid.map { #", "symbol-avoid-edges": \#($0)"# } ?? ""
        let json = """
        {"version": 8,
         "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [7.4213, 43.7384]}},
                     "l": {"type": "geojson", "data": {"type": "LineString", "coordinates": [[7.40, 43.73], [7.44, 43.75]]}}},
         "layers": [{"id": "names", "type": "symbol", "source": "p", "layout": {"text-field": "Monaco"\(layout)}},
                    {"id": "street", "type": "symbol", "source": "l", "layout": {"text-field": "Avenue", "symbol-placement": "line"\(layout)}}]}
        """
        let style = try BasemapStyle.parse(Array(json.utf8), file: "a.json", directory: Repository.fixtures + "/basemap/styles")
        let basemap = try Basemap(style: style, tiles: nil) { try TileSources.open($0) }
        return (basemap.symbols(area: [7.39, 43.72, 7.45, 43.76], zoom: 14.6), style.warnings + basemap.warnings)
    }

    @Test func itIsTakenAndChangesNoLabel() throws {
        let plain = try symbols(nil), avoiding = try symbols(true), not = try symbols(false)
        #expect(plain.warnings.isEmpty && avoiding.warnings.isEmpty && not.warnings.isEmpty, "\(avoiding.warnings)")
        #expect(plain.symbols.count >= 2)
        #expect(avoiding.symbols == plain.symbols && not.symbols == plain.symbols)
        #expect(avoiding.symbols.map(\.line.count) == plain.symbols.map(\.line.count))
    }
}

/// `text-pitch-alignment` for a point's text and for a line's text set level at its places:
/// "map" lays it flat, "auto" follows `text-rotation-alignment` ("map" flat, else upright);
/// a line's text set level does not wrap (`text-max-width` is a point's only, as MapLibre
/// shapes it).
@Suite struct PitchAlignedPointTextTests {
    func symbols(_ layout: String, line: Bool = false) throws -> [BasemapSymbol] {
        let geometry = line ? #"{"type": "LineString", "coordinates": [[7.40, 43.73], [7.44, 43.75]]}"# : #"{"type": "Point", "coordinates": [7.4213, 43.7384]}"#
        let json = """
        {"version": 8, "sources": {"s": {"type": "geojson", "data": \(geometry)}},
         "layers": [{"id": "t", "type": "symbol", "source": "s", "layout": {"text-field": "Boulevard des Moulins", "text-max-width": 4\(layout)}}]}
        """
        let style = try BasemapStyle.parse(Array(json.utf8), file: "a.json", directory: Repository.fixtures + "/basemap/styles")
        #expect(style.warnings.isEmpty, "\(style.warnings)")
        let basemap = try Basemap(style: style, tiles: nil) { try TileSources.open($0) }
        return basemap.symbols(area: [7.39, 43.72, 7.45, 43.76], zoom: 14)
    }

    @Test func mapPitchLaysTextFlat() throws {
        #expect(try symbols("").allSatisfy { !$0.flat && $0.maxWidth == 4 })
        #expect(try symbols(#", "text-pitch-alignment": "map""#).allSatisfy(\.flat))
        #expect(try symbols(#", "text-rotation-alignment": "map""#).allSatisfy(\.flat))
        #expect(try symbols(#", "text-rotation-alignment": "map", "text-pitch-alignment": "viewport""#).allSatisfy { !$0.flat })
        let level = try symbols(#", "symbol-placement": "line", "text-rotation-alignment": "viewport", "text-pitch-alignment": "map""#, line: true)
        #expect(!level.isEmpty && level.allSatisfy { $0.flat && $0.maxWidth == 0 && $0.line.isEmpty })
        let levelUpright = try symbols(#", "symbol-placement": "line", "text-rotation-alignment": "viewport""#, line: true)
        #expect(!levelUpright.isEmpty && levelUpright.allSatisfy { !$0.flat && $0.maxWidth == 0 })
    }
}

/// The expression operators of the specification's math, type, colour and lookup groups, as
/// MapLibre evaluates them, and `global-state` from the style's `state`.
@Suite struct MoreExpressionOperatorTests {
    func value(_ json: String) throws -> StyleValue {
        try StyleExpressionParser.value(JSONParser.parse(Array(json.utf8))).evaluate(EvaluationContext(zoom: 3))
    }

    func number(_ json: String) throws -> Double {
        guard case .number(let n) = try value(json) else { Issue.record("\(json) is not a number"); return .nan }
        return n
    }

    @Test func mathConstantsAndFunctions() throws {
        #expect(try number(#"["pi"]"#) == Double.pi && number(#"["e"]"#) == exp(1.0) && number(#"["ln2"]"#) == log(2.0))
        #expect(try abs(number(#"["sin", ["/", ["pi"], 2]]"#) - 1) < 1e-15)
        #expect(try number(#"["cos", 0]"#) == 1 && number(#"["tan", 0]"#) == 0)
        #expect(try abs(number(#"["asin", 1]"#) - Double.pi / 2) < 1e-15 && number(#"["acos", 1]"#) == 0 && abs(number(#"["atan", 1]"#) - Double.pi / 4) < 1e-15)
        #expect(try number(#"["log2", 1024]"#) == 10)
        #expect(try number(#"["asin", 2]"#).isNaN)
        #expect(try value(#"["sin", "x"]"#) == .null)
    }

    @Test func typeofNamesTheType() throws {
        #expect(try value(#"["typeof", 1]"#) == .string("number"))
        #expect(try value(#"["typeof", "a"]"#) == .string("string"))
        #expect(try value(#"["typeof", true]"#) == .string("boolean"))
        #expect(try value(#"["typeof", ["get", "missing"]]"#) == .string("null"))
        #expect(try value(#"["typeof", ["to-color", "red"]]"#) == .string("color"))
        #expect(try value(#"["typeof", ["literal", [1, 2]]]"#) == .string("array<number, 2>"))
        #expect(try value(#"["typeof", ["literal", [1, "a"]]]"#) == .string("array<value, 2>"))
    }

    @Test func toRGBA() throws {
        #expect(try value(#"["to-rgba", ["to-color", "rgba(255, 128, 0, 0.5)"]]"#) == .array([.number(255), .number(128), .number(0), .number(0.5)]))
        #expect(try value(#"["to-rgba", 3]"#) == .null)
    }

    @Test func indexOfAndSlice() throws {
        #expect(try number(#"["index-of", "b", ["literal", ["a", "b", "c", "b"]]]"#) == 1)
        #expect(try number(#"["index-of", "b", ["literal", ["a", "b", "c", "b"]], 2]"#) == 3)
        #expect(try number(#"["index-of", "z", ["literal", ["a"]]]"#) == -1)
        #expect(try number(#"["index-of", "ö", "Köln Köln"]"#) == 1 && number(#"["index-of", "Köln", "Köln Köln", 1]"#) == 5)
        #expect(try number(#"["index-of", "x", "abc", 99]"#) == -1)
        #expect(try number(#"["index-of", "aab", "aaaaab"]"#) == 3 && number(#"["index-of", "", "abc", 2]"#) == 2)
        // A long needle in a longer text that nearly matches everywhere: found in time linear
        // in both (a place-by-place comparison would take their product).
        let hay = String(repeating: "a", count: 60_000) + "b", needle = String(repeating: "a", count: 30_000) + "b"
        #expect(try number(#"["index-of", "\#(needle)", "\#(hay)"]"#) == 30_000)
        #expect(try value(#"["slice", "Monte-Carlo", 6]"#) == .string("Carlo"))
        #expect(try value(#"["slice", "Monte-Carlo", 0, 5]"#) == .string("Monte"))
        #expect(try value(#"["slice", "Monte-Carlo", -5]"#) == .string("Carlo"))
        #expect(try value(#"["slice", "Köln", 1, 2]"#) == .string("ö"))
        #expect(try value(#"["slice", ["literal", [1, 2, 3, 4]], 1, -1]"#) == .array([.number(2), .number(3)]))
        #expect(try value(#"["slice", "abc", 2, 1]"#) == .string(""))
        #expect(try value(#"["slice", "abc", 1e300]"#) == .string(""))
    }

    /// Objects: a literal's members read by `get` and `has` with an object, `object` asserting
    /// one, `typeof` naming it, `to-string` writing it as JSON (keys sorted).
    @Test func objects() throws {
        let object = #"["literal", {"b": [1, "x"], "a": {"c": null}, "n": 2}]"#
        #expect(try value(#"["get", "n", \#(object)]"#) == .number(2))
        #expect(try value(#"["get", "zz", \#(object)]"#) == .null)
        #expect(try value(#"["has", "a", \#(object)]"#) == .bool(true) && value(#"["has", "zz", \#(object)]"#) == .bool(false))
        #expect(try value(#"["get", "c", ["get", "a", \#(object)]]"#) == .null)
        #expect(try value(#"["typeof", \#(object)]"#) == .string("object"))
        #expect(try value(#"["to-string", \#(object)]"#) == .string(#"{"a":{"c":null},"b":[1,"x"],"n":2}"#))
        #expect(try value(#"["typeof", ["object", 3, \#(object)]]"#) == .string("object"))
        #expect(try value(#"["object", 3]"#) == .null)
        #expect(throws: ExpressionError.self) { try StyleExpressionParser.value(JSONParser.parse(Array(#"["get", "a", "b", "c"]"#.utf8))) }
    }

    /// A feature's `properties` as an object, and a property read by a name an expression
    /// gives (the expression then reads the feature).
    @Test func propertiesAndComputedNames() throws {
        let json = #"""
        {"version": 8,
         "sources": {"p": {"type": "geojson", "data": {"type": "Feature", "properties": {"name": "Port", "name_fr": "Port Hercule", "rank": 3},
                                                      "geometry": {"type": "Point", "coordinates": [7.42, 43.735]}}}},
         "layers": [{"id": "s", "type": "symbol", "source": "p",
                     "layout": {"text-field": ["concat", ["get", ["concat", "name_", "fr"]], " ", ["to-string", ["get", "rank", ["properties"]]], " ",
                                               ["to-string", ["has", ["concat", "ra", "nk"]]], " ", ["typeof", ["properties"]]],
                                "text-allow-overlap": true}}]}
        """#
        let style = try BasemapStyle.parse(Array(json.utf8), file: "p.json", directory: "/")
        #expect(style.warnings.isEmpty, "\(style.warnings)")
        #expect(style.layers[0].property("text-field")?.readsFeature == true)
        let basemap = try Basemap(style: style, tiles: nil) { try TileSources.open($0) }
        let symbols = basemap.symbols(area: [7.41, 43.73, 7.43, 43.74], zoom: 14)
        #expect(symbols.map(\.text) == ["Port Hercule 3 true object"], "\(symbols.map(\.text))")
    }

    /// `global-state` reads the style's `state` defaults (null for a name it does not declare),
    /// in paint properties and filters alike.
    @Test func globalStateReadsTheStylesDefaults() throws {
        let style = try BasemapStyle.parse(Array("""
            {"version": 8, "state": {"accent": {"default": "#ff0000"}, "minRank": {"default": 3}},
             "sources": {"s": {"type": "vector", "url": "pmtiles://a.pmtiles"}},
             "layers": [{"id": "f", "type": "fill", "source": "s", "source-layer": "water",
                         "filter": [">=", ["get", "rank"], ["global-state", "minRank"]],
                         "paint": {"fill-color": ["global-state", "accent"], "fill-opacity": ["coalesce", ["global-state", "nowhere"], 0.5]}}]}
            """.utf8), file: "state.json", directory: "/styles")
        #expect(style.warnings.isEmpty, "\(style.warnings)")
        let layer = try #require(style.layers.first)
        #expect(layer.property("fill-color")?.evaluate(EvaluationContext(zoom: 3)) == .color(StyleColor(red: 1, green: 0, blue: 0)))
        #expect(layer.property("fill-opacity")?.evaluate(EvaluationContext(zoom: 3)) == .number(0.5))
        guard case .call(">=", let args)? = layer.filter else { Issue.record("\(String(describing: layer.filter))"); return }
        #expect(args.count == 2)
        if case .literal(let v) = args[1] { #expect(v == .number(3)) } else { Issue.record("not resolved: \(args[1])") }
        #expect(throws: ExpressionError.self) { try StyleExpressionParser.value(JSONParser.parse(Array(#"["global-state", 3]"#.utf8))) }
    }
}
