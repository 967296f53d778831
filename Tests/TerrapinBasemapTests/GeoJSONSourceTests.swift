// A style's GeoJSON sources: features cut into vector tiles as MapLibre cuts them (extent 8192,
// a buffer of 128 512ths, coordinates rounded, exteriors positive), checked as numbers; a
// malformed source named with its JSON path; a style drawing one (a golden, Fixtures/basemap/geojson).
import Foundation
import Testing
import TerrapinImagery
import TerrapinIO
import TerrapinRaster
import TerrapinSnapshotCore
import TerrapinTiles
@testable import TerrapinBasemap

@Suite struct GeoJSONSourceTests {
    /// The style Fixtures/basemap/geojson/NAME.json drawn into Monaco's tile 14/8529/5974, with
    /// no warning, against its golden NAME-14-8529-5974.png (compared with MapLibre Native's
    /// image of the same tile before it was committed).
    func monacoTile(_ name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let folder = fixtures + "/basemap/geojson"
        let style = try BasemapStyle.parse(try FileIO.read(folder + "/\(name).json", limit: 1 << 20), file: "\(name).json", directory: folder)
        #expect(style.warnings == [], sourceLocation: sourceLocation)
        let basemap = try Basemap(style: style, tiles: nil) { path in try TileSources.open(path) }
        #expect(basemap.warnings == [], sourceLocation: sourceLocation)
        let image = try #require(try basemap.draw(TileID(z: 14, x: 8529, y: 5974)), sourceLocation: sourceLocation)
        assertSnapshot(of: image, as: .image, snapshotPath: "\(folder)/\(name)-14-8529-5974.png")
    }

    func source(_ text: String, buffer: Double = 128) throws -> GeoJSONSource {
        try GeoJSONSource(bytes: Array(text.utf8), name: "'test'", buffer: buffer)
    }

    /// The square ±10° at z0: corners at Web Mercator's x and y times 8192, rounded
    /// ((lon + 180) / 360 · 8192; (½ − ln tan(45° + φ/2) / 2π) · 8192), the ring turned so its
    /// area is positive (an exterior, as in MVT) although GeoJSON wrote it the other way.
    @Test func aPolygonAtZoomZero() throws {
        let s = try source(#"{"type": "Polygon", "coordinates": [[[-10, -10], [10, -10], [10, 10], [-10, 10], [-10, -10]]]}"#)
        let tile = s.tile(TileID(z: 0, x: 0, y: 0))
        let layer = try #require(tile.layer(GeoJSONSource.layerName))
        #expect(layer.extent == 8192)
        let f = try #require(layer.features.first)
        #expect(f.type == .polygon)
        #expect(f.parts == [4])
        #expect(Array(f.coordinates) == [3868, 4325, 3868, 3867, 4324, 3867, 4324, 4325] || f.ringArea(0) > 0)
        #expect(f.ringArea(0) > 0)
        let corners: Set<[Int32]> = Set(stride(from: 0, to: 8, by: 2).map { (k: Int) -> [Int32] in [f.coordinates[k], f.coordinates[k + 1]] })
        let square: Set<[Int32]> = [[3868, 4325], [4324, 4325], [4324, 3867], [3868, 3867]]
        #expect(corners == square)
        #expect(f.polygons == [[0]])
    }

    /// A hole stays a hole (negative area) after the exterior is rewound.
    @Test func holesAreNegative() throws {
        let s = try source(#"{"type": "Polygon", "coordinates": [[[-20, -20], [20, -20], [20, 20], [-20, 20], [-20, -20]], [[-5, -5], [-5, 5], [5, 5], [5, -5], [-5, -5]]]}"#)
        let f = try #require(s.tile(TileID(z: 0, x: 0, y: 0)).layers.first?.features.first)
        #expect(f.ringArea(0) > 0 && f.ringArea(1) < 0)
        #expect(f.polygons == [[0, 1]])
    }

    /// At z1, the tile west of the meridian sees the square cut at its buffered east edge:
    /// 8192 + 128/512 · 8192 = 10240.
    @Test func polygonsAreClippedToTheBufferedTile() throws {
        let s = try source(#"{"type": "Polygon", "coordinates": [[[-10, -10], [100, -10], [100, 10], [-10, 10], [-10, -10]]]}"#)
        let f = try #require(s.tile(TileID(z: 1, x: 0, y: 0)).layers.first?.features.first)
        let xs = stride(from: 0, to: f.coordinates.count, by: 2).map { f.coordinates[$0] }
        #expect(xs.max() == 10240)
        let west: Int32 = Int32((170.0 / 360 * 2 * 8192).rounded())
        #expect(xs.min() == west)
        // Without a buffer the cut is at the tile's edge.
        let tight = try source(#"{"type": "Polygon", "coordinates": [[[-10, -10], [100, -10], [100, 10], [-10, 10], [-10, -10]]]}"#, buffer: 0)
        let g = try #require(tight.tile(TileID(z: 1, x: 0, y: 0)).layers.first?.features.first)
        #expect(stride(from: 0, to: g.coordinates.count, by: 2).map { g.coordinates[$0] }.max() == 8192)
    }

    /// A line that leaves the buffered tile and comes back is two parts; a point outside it
    /// is not in the tile.
    @Test func linesAreCutAndPointsKeptInside() throws {
        let s = try source(#"""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"kind": "route", "lanes": 2}, "geometry": {"type": "LineString", "coordinates": [[-100, 0], [150, 0], [150, 60], [-100, 60]]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "MultiPoint", "coordinates": [[-90, 0], [90, 0]]}}
            ]}
            """#)
        let layer = try #require(s.tile(TileID(z: 1, x: 0, y: 0)).layers.first)
        let line = try #require(layer.features.first { $0.type == .lineString })
        #expect(line.parts.count == 2)
        #expect(layer.property("kind", of: line) == .string("route"))
        #expect(layer.property("lanes", of: line) == .number(2))
        let points = try #require(layer.features.first { $0.type == .point })
        #expect(points.parts == [1])
        #expect(Array(points.coordinates) == [4096, 8192])
    }

    /// A latitude beyond ±90° is read as geojson-vt reads it, through its sine: 100° lies where
    /// 80° does, −100° where −80° does.
    @Test func latitudesBeyondThePolesWrapAsGeojsonVtWrapsThem() throws {
        func y(_ lat: Double) throws -> Int32 {
            let s = try source(#"{"type": "Point", "coordinates": [0, \#(lat)]}"#)
            return try #require(s.tile(TileID(z: 0, x: 0, y: 0)).layers.first?.features.first?.coordinates[1])
        }
        #expect(try y(100) == y(80) && y(-100) == y(-80) && y(80) < 4096)
    }

    /// Hostile input: a malformed geometry is an error naming the source, the JSON path and
    /// line:column.
    @Test func malformedDataIsATypedError() {
        do {
            _ = try source(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0, 0], [0, "95"]]}}]}"#)
            Issue.record("a latitude of \"95\" was read")
        } catch {
            #expect("\(error)" == "GeoJSON source 'test': $.features[0].geometry.coordinates[1] (line 1, column 123): expected a position [longitude, latitude] in degrees")
        }
        #expect(throws: BasemapError.self) { _ = try source(#"{"type": "Circle"}"#) }
        #expect(throws: BasemapError.self) { _ = try source(#"[1, 2"#) }
    }

    /// A style with an inline GeoJSON source and one from a file: parsed, and drawn into a tile
    /// (a fill with a hole and a line over a background).
    @Test func aStyleDrawsItsGeoJSONSources() throws {
        let folder = fixtures + "/basemap/geojson"
        let style = try BasemapStyle.parse(try FileIO.read(folder + "/style.json", limit: 1 << 20), file: "style.json", directory: folder)
        #expect(style.sources["harbour"]?.kind == .geojson)
        #expect(style.sources["route"]?.data == .file(folder + "/route.geojson"))
        let basemap = try Basemap(style: style, tiles: nil) { path in try TileSources.open(path) }
        #expect(basemap.warnings == [])
        let image = try #require(try basemap.draw(TileID(z: 14, x: 8529, y: 5974)))
        assertSnapshot(of: image, as: .image, snapshotPath: "\(fixtures)/basemap/geojson/tile-14-8529-5974.png")
    }

    /// A circle layer: discs at points (and at a line's vertices), their radius, colour,
    /// stroke and blur from the features, drawn in `circle-sort-key` order; one crossing the
    /// tile's east edge is drawn from this tile's buffer.
    @Test func circles() throws {
        try monacoTile("circles")
    }

    /// One disc's pixels as MapLibre's circle shader makes them: solid inside, one pixel of
    /// anti-aliasing at the rim, the stroke's colour outside radius / (radius + stroke).
    @Test func aDiscsPixels() throws {
        let disc = try #require(Basemap.disc(x: 10, y: 10, radius: 6, stroke: 2, blur: 0, fill: RGBAColor(red: 1, green: 0, blue: 0),
                                             ring: RGBAColor(red: 0, green: 0, blue: 1), within: 512))
        #expect(disc.origin == (x: 2, y: 2))
        #expect(disc.image.width == 16 && disc.image.height == 16)
        // Pixel (i, j) of the image is centred on (2.5 + i, 2.5 + j).
        let centre = disc.image[7, 7], rim = disc.image[14, 8], outside = disc.image[0, 0]
        #expect(centre == PremultipliedRGBA8(red: 255, green: 0, blue: 0, alpha: 255))
        // 6.52 px out: t = 0.815, past radius / (radius + stroke) = 0.75 by more than the blur.
        #expect(rim == PremultipliedRGBA8(red: 0, green: 0, blue: 255, alpha: 255), "\(rim)")
        #expect(outside.alpha == 0)
        // 7.52 px out: t = 0.9396, the shader's smoothstep(0, −⅛, t − 1) = 0.475, 121 of 255.
        let edge = disc.image[15, 8]
        #expect(edge == PremultipliedRGBA8(red: 0, green: 0, blue: 121, alpha: 121), "\(edge)")
    }

    /// Icons' placement rules: an icon alone follows `icon-allow-overlap` and
    /// `icon-ignore-placement`; with text, both the text's rule and the icon's must allow it;
    /// `icon-opacity` is carried to the painter.
    @Test func iconPlacementRulesAndOpacity() throws {
        func symbols(_ layout: String, paint: String = "{}") throws -> [BasemapSymbol] {
            let json = """
            {"version": 8, "sprite": "\(fixtures)/basemap/sprites/icons",
             "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [7.42, 43.735]}}},
             "layers": [{"id": "s", "type": "symbol", "source": "p", "layout": \(layout), "paint": \(paint)}]}
            """
            let style = try BasemapStyle.parse(Array(json.utf8), file: "icons.json", directory: "/")
            let basemap = try Basemap(style: style, tiles: nil) { path in try TileSources.open(path) }
            #expect(basemap.warnings == [], "\(basemap.warnings)")
            return basemap.symbols(area: [7.41, 43.73, 7.43, 43.74], zoom: 14)
        }
        let alone = try #require(try symbols(#"{"icon-image": "dot", "icon-allow-overlap": true, "icon-ignore-placement": true}"#,
                                             paint: #"{"icon-opacity": 0.5}"#).first)
        #expect(alone.icon != nil && alone.allowOverlap && alone.ignorePlacement && alone.iconOpacity == 0.5)
        let withText = try #require(try symbols(#"{"icon-image": "dot", "text-field": "Port", "icon-allow-overlap": true, "icon-ignore-placement": true}"#).first)
        #expect(!withText.allowOverlap && !withText.ignorePlacement && withText.iconOpacity == 1)
        let both = try #require(try symbols(#"{"icon-image": "dot", "text-field": "Port", "icon-allow-overlap": true, "text-allow-overlap": true, "text-ignore-placement": true, "icon-ignore-placement": true}"#).first)
        #expect(both.allowOverlap && both.ignorePlacement)
        // icon-rotate (degrees clockwise, taken modulo 360) and text-translate (pixels).
        let turned = try #require(try symbols(#"{"icon-image": "dot", "text-field": "Port", "icon-rotate": 450}"#, paint: #"{"text-translate": [5, -3]}"#).first)
        #expect(turned.iconRotate == 90 && turned.translate == (x: 5, y: -3))
    }

    /// `["image", name]` gives null for an image the sprite lacks, as MapLibre's does: a
    /// `coalesce` of images takes the first the sprite has, and none of them is no icon, said
    /// of nothing (a plain name the sprite lacks is still said).
    @Test func imageExpressionsFallBackToTheSpritesImages() throws {
        func symbols(_ iconImage: String) throws -> (symbols: [BasemapSymbol], warnings: [String]) {
            let json = """
            {"version": 8, "sprite": "\(fixtures)/basemap/sprites/icons",
             "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [7.42, 43.735]}}},
             "layers": [{"id": "s", "type": "symbol", "source": "p", "layout": {"icon-image": \(iconImage), "text-field": "Port"}}]}
            """
            let style = try BasemapStyle.parse(Array(json.utf8), file: "icons.json", directory: "/")
            let basemap = try Basemap(style: style, tiles: nil) { path in try TileSources.open(path) }
            let found = basemap.symbols(area: [7.41, 43.73, 7.43, 43.74], zoom: 14)
            return (found, basemap.warnings)
        }
        let (dot, _) = try symbols(#"["image", "dot"]"#)
        let (fallback, quiet) = try symbols(#"["coalesce", ["image", "nowhere"], ["image", "dot"]]"#)
        #expect(fallback.first?.icon != nil && fallback.first?.icon == dot.first?.icon && quiet.isEmpty, "\(quiet)")
        let (none, silent) = try symbols(#"["coalesce", ["image", "nowhere"], ["image", "elsewhere"]]"#)
        #expect(none.first?.icon == nil && none.first?.text == "Port" && silent.isEmpty, "\(silent)")
        let (_, said) = try symbols(#""nowhere""#)
        #expect(said == ["layer 's': icon 'nowhere' is not in the sprite; drawn without it"], "\(said)")
    }

    /// The images set in labels' texts are bounded over a view: 300 labels of 64 images of
    /// 32 × 32 pixels each pass 16 M pixels; the labels past it are set without them, and that
    /// is said once.
    @Test func imagesInTextAreBoundedOverTheView() throws {
        let points = (0..<300).map { k in
            #"{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [\#(7.411 + Double(k % 20) * 0.0009), \#(43.731 + Double(k / 20) * 0.0005)]}}"#
        }.joined(separator: ", ")
        let field = "[\"format\", " + (0..<64).map { _ in #"["image", "dot"], {}"# }.joined(separator: ", ") + "]"
        let json = """
        {"version": 8, "sprite": "\(fixtures)/basemap/sprites/icons",
         "sources": {"p": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(points)]}}},
         "layers": [{"id": "s", "type": "symbol", "source": "p", "layout": {"text-field": \(field), "text-allow-overlap": true}}]}
        """
        let style = try BasemapStyle.parse(Array(json.utf8), file: "many.json", directory: "/")
        let basemap = try Basemap(style: style, tiles: nil) { path in try TileSources.open(path) }
        let found = basemap.symbols(area: [7.41, 43.73, 7.43, 43.74], zoom: 14)
        let withImages = found.filter { !$0.inlineImages.isEmpty }
        #expect(found.count == 300 && withImages.count == Basemap.maxInlineImagePixels / (64 * 32 * 32), "\(found.count) \(withImages.count)")
        #expect(basemap.warnings == ["the view's labels set images of more than \(Basemap.maxInlineImagePixels) pixels in their texts; the rest are set without them"], "\(basemap.warnings)")
    }

    /// Images inside a formatted text: each from the sprite at its code point, drawn at its
    /// display size times the text's size over the tile's, its
    /// alignment and the text's opacity carried; an image the sprite lacks is warned of and
    /// left out (its text set without it); a label that may be set vertically keeps its images.
    @Test func imagesInsideFormattedText() throws {
        func symbols(_ layout: String, paint: String = "{}", zoom: Double = 14) throws -> (symbols: [BasemapSymbol], warnings: [String]) {
            let json = """
            {"version": 8, "sprite": "\(fixtures)/basemap/sprites/icons",
             "sources": {"p": {"type": "geojson", "data": {"type": "Feature", "properties": {"kind": "cafe"},
                                                          "geometry": {"type": "Point", "coordinates": [7.42, 43.735]}}},
                         "l": {"type": "geojson", "data": {"type": "LineString", "coordinates": [[7.411, 43.735], [7.429, 43.735]]}}},
             "layers": [{"id": "s", "type": "symbol", "source": "p", "layout": \(layout), "paint": \(paint)}]}
            """
            let style = try BasemapStyle.parse(Array(json.utf8), file: "icons.json", directory: "/")
            let basemap = try Basemap(style: style, tiles: nil) { path in try TileSources.open(path) }
            let found = basemap.symbols(area: [7.41, 43.73, 7.43, 43.74], zoom: zoom)
            return (found, basemap.warnings)
        }
        let field = #"["format", "Caf", {}, ["image", ["get", "kind"]], {"font-scale": 0.5, "vertical-align": "top"}, "é", {"vertical-align": "center"}]"#
        let (found, warnings) = try symbols(#"{"text-field": \#(field), "text-size": ["interpolate", ["linear"], ["zoom"], 14, 10, 15, 20]}"#,
                                            paint: #"{"text-opacity": 0.5}"#, zoom: 14.5)
        #expect(warnings.isEmpty, "\(warnings)")
        let label = try #require(found.first)
        #expect(label.text == "Caf\u{FFFC}é")
        let image = try #require(label.inlineImages.first)
        // 16 × 16 display pixels (the @2x sheet's 32 at ratio 2); 15 points now over 10 at the
        // tile's zoom, 14 (its section's `font-scale` unread, as MapLibre reads none).
        #expect(label.inlineImages.count == 1 && image.index == 3 && image.pixels.width == 32 && image.pixelRatio == 2, "\(label.inlineImages.count) \(image.index) \(image.pixels.width)")
        #expect(abs(image.scale - 15.0 / 10) < 1e-9 && image.align == "top" && image.opacity == 0.5 && image.smooth)
        #expect(label.sectionAligns == [SectionAlign(start: 3, end: 4, align: "top"), SectionAlign(start: 4, end: 5, align: "center")])
        // Not in the sprite: its text set without it, and said.
        let (lacking, said) = try symbols(#"{"text-field": ["format", "A", {}, ["image", "nowhere"], {}]}"#)
        #expect(lacking.first?.inlineImages.isEmpty == true && said == ["layer 's': image 'nowhere' is not in the sprite; its text is set without it"], "\(said)")
        let (vertical, told) = try symbols(#"{"text-field": ["format", "東京", {}, ["image", "dot"], {}], "text-writing-mode": ["vertical"]}"#)
        #expect(vertical.first?.inlineImages.count == 1 && vertical.first?.writingModes == ["vertical"] && told.isEmpty, "\(told)")
    }

    /// A point-placed label on a line stands at each of the line's parts' first points, as
    /// MapLibre places it (mapbox-gl-js#3808), not halfway along; one in the buffer beyond the
    /// tile is its neighbour's.
    @Test func pointLabelsOnLinesStandAtTheirFirstPoints() throws {
        let json = """
        {"version": 8,
         "sources": {"r": {"type": "geojson", "data": {"type": "MultiLineString", "coordinates": [[[7.415, 43.731], [7.425, 43.738]], [[7.418, 43.736], [7.421, 43.733]]]}}},
         "layers": [{"id": "s", "type": "symbol", "source": "r", "layout": {"text-field": "Riu", "text-allow-overlap": true}}]}
        """
        let style = try BasemapStyle.parse(Array(json.utf8), file: "rivers.json", directory: "/")
        let basemap = try Basemap(style: style, tiles: nil) { path in try TileSources.open(path) }
        let symbols = basemap.symbols(area: [7.41, 43.73, 7.43, 43.74], zoom: 14)
        #expect(symbols.count == 2, "\(symbols.map { ($0.latitude, $0.longitude) })")
        for (lat, lng) in [(43.731, 7.415), (43.736, 7.418)] {
            #expect(symbols.contains { abs($0.latitude - lat) < 1e-4 && abs($0.longitude - lng) < 1e-4 }, "\(lat), \(lng) in \(symbols.map { ($0.latitude, $0.longitude) })")
        }
    }

    /// A polygon's point label stands at its pole of inaccessibility, as MapLibre's polylabel
    /// finds it: inside an L (whose corners' mean is outside it), out of a square's hole, and
    /// found with bounded work for a polygon of many thin spikes.
    @Test func polygonLabelsStandAtTheirPoles() throws {
        // An L: 0…100 × 0…20 and 0…20 × 0…100. Its widest place is the corner square.
        let l: [[(Double, Double)]] = [[(0, 0), (100, 0), (100, 20), (20, 20), (20, 100), (0, 100), (0, 0)]]
        let pole = PoleOfInaccessibility.pole(l, precision: 0.5)
        #expect(PoleOfInaccessibility.distance(pole.0, pole.1, l) > 9.5, "\(pole)")
        #expect(pole.0 < 20 && pole.1 < 20, "\(pole)")
        // A square with a hole in its middle: the pole is in the ring around the hole.
        let framed: [[(Double, Double)]] = [[(0, 0), (100, 0), (100, 100), (0, 100), (0, 0)], [(30, 30), (70, 30), (70, 70), (30, 70), (30, 30)]]
        let ring = PoleOfInaccessibility.pole(framed, precision: 0.5)
        #expect(PoleOfInaccessibility.distance(ring.0, ring.1, framed) > 14, "\(ring)")
        // 20,000 spikes: bounded work.
        var comb: [(Double, Double)] = [(0, 0)]
        for k in 0..<20_000 { comb += [(Double(k) * 0.2, 1000), (Double(k) * 0.2 + 0.1, 0)] }
        comb.append((0, 0))
        let spiky = PoleOfInaccessibility.search([comb], precision: 16)
        #expect(spiky.cells <= PoleOfInaccessibility.maxWork / comb.count + 4, "\(spiky.cells) cells for \(comb.count) points")
    }

    /// A heatmap layer: points' kernels summed into a density, coloured by the default ramp.
    @Test func heatmap() throws {
        try monacoTile("heatmap")
    }

    /// All 148 named colours of CSS, as MapLibre's parser knows them (the default heatmap
    /// ramp names royalblue; with 38 names its low end was transparent).
    @Test func cssNamedColours() throws {
        #expect(CSSColor.named.count == 148 + 1)
        #expect(CSSColor.parse("royalblue") == StyleColor(red: 65.0 / 255, green: 105.0 / 255, blue: 225.0 / 255))
        #expect(CSSColor.parse("RebeccaPurple") == StyleColor(red: 0x66 / 255.0, green: 0x33 / 255.0, blue: 0x99 / 255.0))
    }

    /// MapLibre's default heatmap-color through its 256-step ramp: transparent at 0, lime at
    /// ½ (between two ramp texels), red at 1 and beyond; opacity scales the premultiplied colour.
    @Test func heatmapColours() throws {
        let layer = BasemapStyle.Layer(id: "h", kind: .heatmap, source: nil, sourceLayer: nil, minZoom: 0, maxZoom: 24, filter: nil, visible: true, properties: [:])
        let ramp = Basemap.heatmapRamp(layer, zoom: 10)
        #expect(ramp[0] == SIMD4(0, 0, 0, 0))
        #expect(ramp[255] == SIMD4(1, 0, 0, 1))
        let canvas = try #require(Canvas(width: 2, height: 2))
        let values: [Float] = [0, 0.5, 1, 3]
        #expect(Basemap.colourHeatmap(layer, width: 2, height: 2, zoom: 10, opacity: 1, canvas: canvas) { values[$1 * 2 + $0] })
        let p = canvas.pixmap
        #expect(p[0, 0].alpha == 0)
        #expect(p[1, 0].green > 240 && p[1, 0].red < 15 && p[1, 0].alpha == 255, "\(p[1, 0])")
        #expect(p[0, 1] == PremultipliedRGBA8(red: 255, green: 0, blue: 0, alpha: 255) && p[1, 1] == p[0, 1])
        let faded = try #require(Canvas(width: 2, height: 2))
        _ = Basemap.colourHeatmap(layer, width: 2, height: 2, zoom: 10, opacity: 0.5, canvas: faded) { values[$1 * 2 + $0] }
        #expect(faded.pixmap[0, 1] == PremultipliedRGBA8(red: 128, green: 0, blue: 0, alpha: 128))
    }

    /// On a flat map straight down a heatmap is one density over the image, as MapLibre's
    /// quarter-size texture holds it: a point just west of a tile's edge warms the tile east
    /// of it (the kernels of its neighbours' points reach it), the two tiles meet without a
    /// seam, and at the image's edge the texture's first texel is read clamped (pixels 0 and
    /// 1 alike). A canvas one pixel wide is drawn too.
    @Test func aFlatMapsHeatmapIsOneDensity() throws {
        // A point 10 pixels west of the z1 tiles' meridian (at zoom 1, 512-pixel tiles).
        let json = """
        {"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [-3.515625, 0.5]}}},
         "layers": [{"id": "h", "type": "heatmap", "source": "p", "paint": {"heatmap-radius": 20, "heatmap-intensity": 3}}]}
        """
        let basemap = try Basemap(style: try BasemapStyle.parse(Array(json.utf8), file: "h.json", directory: "/styles"), tiles: nil) { try TileSources.open($0) }
        #expect(basemap.drawsDirectly)
        // The image: 200 × 100 pixels, the meridian at x = 100; the west tile's canvas holds
        // x < 100, the east tile's x ≥ 100, both rows 0..<100 (the point on row 49).
        func draw(_ x: Int, width: Int, origin: Double) throws -> Pixmap {
            let canvas = try #require(Canvas(width: width, height: 100))
            var view = TileView(origin: (origin, -461), pixelsPerTile: 512, unit: 1, zoom: 1)
            view.frame = (Double(-x), 0, Double(200 - x), 100)
            _ = try basemap.draw(TileID(z: 1, x: origin < 0 ? 0 : 1, y: 0), view: view, into: canvas)
            return canvas.pixmap
        }
        let west = try draw(0, width: 100, origin: -412), east = try draw(100, width: 100, origin: 0)
        // The east tile is warm near its western edge, from the west tile's point.
        #expect(east[0, 50].alpha > 100, "\(east[0, 50])")
        // No seam: the step across the meridian is no larger than the steps beside it.
        func level(_ p: PremultipliedRGBA8) -> Int { Int(p.alpha) }
        let across = abs(level(west[99, 50]) - level(east[0, 50]))
        let beside = max(abs(level(west[98, 50]) - level(west[99, 50])), abs(level(east[0, 50]) - level(east[1, 50])))
        #expect(across <= beside + 2, "\(across) across, \(beside) beside")
        // At the image's west edge (the point 2 pixels in): the first texel, clamped, for
        // pixels 0 and 1.
        let edge = try draw(0, width: 100, origin: -500)
        #expect(edge[0, 50] == edge[1, 50] && edge[0, 50].alpha > 0)
        // A sliver of a canvas, one pixel wide, at the frame's east edge.
        let sliver = try draw(199, width: 1, origin: -313)
        #expect(sliver.width == 1)
    }
}

/// `lineMetrics`: each clipped piece of a line knows where it starts and ends along the whole
/// line (geojson-vt's clip start and end), and `line-gradient` colours it by that place.
@Suite struct LineGradientTests {
    /// A short line (10° W to 10° E) lies whole in each z1 tile's buffered box (its buffer is
    /// 45°): both pieces run from 0 to 1. A longer one (60° W to 60° E) at z3, where tile 3
    /// spans 45° W to 0° and its buffer 11.25° more each side, is cut to 56.25° W…11.25° E:
    /// (60 − 56.25) / 120 to (60 + 11.25) / 120 of the line.
    @Test func piecesKnowWhereTheyLieAlongTheLine() throws {
        let s = try GeoJSONSource(bytes: Array(#"{"type": "LineString", "coordinates": [[-10, 0], [10, 0]]}"#.utf8), name: "'g'", lineMetrics: true)
        let west = try #require(s.tile(TileID(z: 1, x: 0, y: 0)).layers.first?.features.first?.lineClips?.first)
        let east = try #require(s.tile(TileID(z: 1, x: 1, y: 0)).layers.first?.features.first?.lineClips?.first)
        #expect(abs(west.x) < 1e-9 && abs(west.y - 1) < 1e-9 && abs(east.x) < 1e-9 && abs(east.y - 1) < 1e-9, "\(west) \(east)")
        let long = try GeoJSONSource(bytes: Array(#"{"type": "LineString", "coordinates": [[-60, 0], [60, 0]]}"#.utf8), name: "'g'", lineMetrics: true)
        let piece = try #require(long.tile(TileID(z: 3, x: 3, y: 3)).layers.first?.features.first?.lineClips?.first)
        #expect(abs(piece.x - (60 - 56.25) / 120) < 1e-6 && abs(piece.y - (60 + 11.25) / 120) < 1e-6, "\(piece)")
        // Without lineMetrics, no clips.
        let plain = try GeoJSONSource(bytes: Array(#"{"type": "LineString", "coordinates": [[-60, 0], [60, 0]]}"#.utf8), name: "'g'")
        #expect(plain.tile(TileID(z: 3, x: 3, y: 3)).layers.first?.features.first?.lineClips == nil)
    }

    /// A line across Monaco's tile 14/8529/5974 from red to blue: red at its start, blue at
    /// its end, between them in the middle; `["line-progress"]` reads the place.
    @Test func aGradientRunsFromStartToEnd() throws {
        let w = (8529.0 / 16384) * 360 - 180, e = (8530.0 / 16384) * 360 - 180
        let lat = atan(sinh(Double.pi * (1 - 2 * 5974.5 / 16384))) * 180 / Double.pi
        let text = ##"{"version": 8, "sources": {"g": {"type": "geojson", "lineMetrics": true, "data": {"type": "LineString", "coordinates": [[W, LAT], [E, LAT]]}}}, "layers": [{"id": "l", "type": "line", "source": "g", "paint": {"line-width": 20, "line-gradient": ["interpolate", ["linear"], ["line-progress"], 0, "#ff0000", 1, "#0000ff"]}}]}"##
            .replacingOccurrences(of: "W", with: "\(w + 0.001)").replacingOccurrences(of: "E", with: "\(e - 0.001)").replacingOccurrences(of: "LAT", with: "\(lat)")
        let style = try BasemapStyle.parse(Array(text.utf8), file: "gradient.json", directory: "/")
        #expect(style.warnings.isEmpty, "\(style.warnings)")
        let basemap = try Basemap(style: style, tiles: nil) { path in try TileSources.open(path) }
        let image = try #require(try basemap.draw(TileID(z: 14, x: 8529, y: 5974)))
        let y = image.height / 2
        let start = image[40, y], middle = image[image.width / 2, y], end = image[image.width - 40, y]
        #expect(start.red > 230 && start.blue < 25, "\(start)")
        #expect(end.blue > 230 && end.red < 25, "\(end)")
        #expect(abs(Int(middle.red) - 128) < 12 && abs(Int(middle.blue) - 128) < 12, "\(middle)")
        // Away from the line, nothing.
        #expect(image[image.width / 2, 10].alpha == 0)
        #expect(try expr(#"["line-progress"]"#).evaluate({ var c = EvaluationContext(zoom: 0); c.lineProgress = 0.25; return c }()) == .number(0.25))
    }
}

/// `fill-sort-key` and `line-sort-key`: a layer's features drawn by ascending key, ties in their
/// order, as MapLibre draws each tile's.
@Suite struct SortKeyTests {
    func centre(_ layer: String) throws -> PremultipliedRGBA8 {
        let square = #"{"type": "Polygon", "coordinates": [[[-20, -20], [20, -20], [20, 20], [-20, 20], [-20, -20]]]}"#
        let json = #"""
            {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
                {"type": "Feature", "properties": {"c": "red", "k": 2}, "geometry": \#(square)},
                {"type": "Feature", "properties": {"c": "blue", "k": 1}, "geometry": \#(square)}]}}},
             "layers": [\#(layer)]}
            """#
        let style = try BasemapStyle.parse(Array(json.utf8), file: "s.json", directory: ".")
        #expect(style.warnings.isEmpty, "\(style.warnings)")
        let basemap = try Basemap(style: style, tiles: nil) { path in try TileSources.open(path) }
        let image = try #require(try basemap.draw(TileID(z: 0, x: 0, y: 0)))
        return image[image.width / 2, image.height / 2]
    }

    @Test func featuresDrawnByTheirKey() throws {
        // In data order the blue square is drawn last; by key the red one (key 2) is.
        #expect(try centre(#"{"id": "f", "type": "fill", "source": "s", "paint": {"fill-color": ["get", "c"]}}"#).blue > 200)
        #expect(try centre(#"{"id": "f", "type": "fill", "source": "s", "layout": {"fill-sort-key": ["get", "k"]}, "paint": {"fill-color": ["get", "c"]}}"#).red > 200)
        #expect(try centre(#"{"id": "l", "type": "line", "source": "s", "layout": {"line-sort-key": ["get", "k"]}, "paint": {"line-color": ["get", "c"], "line-width": 400}}"#).red > 200)
    }
}

/// A clustered GeoJSON source (`"cluster": true`), as supercluster makes its clusters: points
/// within `clusterRadius` pixels gathered at their weighted centre, with `point_count`,
/// `point_count_abbreviated`, `cluster_id` and reduced `clusterProperties`; and a source's
/// `filter`.
@Suite struct ClusterTests {
    func source(_ options: String, points: [(Double, Double, Int)]) throws -> GeoJSONSource {
        let features = points.map { #"{"type": "Feature", "properties": {"rank": \#($0.2)}, "geometry": {"type": "Point", "coordinates": [\#($0.0), \#($0.1)]}}"# }
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\#(features.joined(separator: ","))]}\#(options)}}, "layers": []}"#
        let style = try BasemapStyle.parse(Array(json.utf8), file: "s.json", directory: ".")
        #expect(style.warnings.isEmpty, "\(style.warnings)")
        let s = try #require(style.sources["s"])
        guard case .inline(let node)? = s.data else { throw BasemapError.geojson(source: "s", path: "$", location: nil, message: "no data") }
        return try GeoJSONSource(node, name: "'s'", maxZoom: s.maxZoom ?? 18, filter: s.filter?.expression, cluster: s.cluster)
    }

    /// Each feature of the tile: its properties by name, and its position in tile units.
    func features(_ source: GeoJSONSource, _ id: TileID) -> [(properties: [String: StyleValue], x: Int32, y: Int32)] {
        guard let layer = source.tile(id).layers.first else { return [] }
        return layer.features.map { f in
            var properties: [String: StyleValue] = [:]
            for k in stride(from: 0, to: f.tags.count - 1, by: 2) { properties[layer.keys[Int(f.tags[k])]] = layer.values[Int(f.tags[k + 1])] }
            return (properties, f.coordinates[0], f.coordinates[1])
        }
    }

    @Test func nearbyPointsClusterAtLowZooms() throws {
        // Three points a few kilometres apart near (0, 0), one far away.
        let s = try source(#", "cluster": true, "clusterRadius": 50, "clusterProperties": {"sum": ["+", ["get", "rank"]], "top": ["max", ["get", "rank"]]}"#,
                           points: [(0, 0, 1), (0.02, 0, 2), (0, 0.02, 3), (60, 30, 4)])
        let z0 = features(s, TileID(z: 0, x: 0, y: 0))
        let clusters = z0.filter { $0.properties["cluster"] == .bool(true) }
        #expect(z0.count == 2 && clusters.count == 1, "\(z0)")
        let c = try #require(clusters.first)
        #expect(c.properties["point_count"] == .number(3) && c.properties["point_count_abbreviated"] == .number(3))
        #expect(c.properties["sum"] == .number(6) && c.properties["top"] == .number(3))
        #expect(c.properties["cluster_id"]?.number != nil)
        // At the weighted centre: (0.0067°, 0.0067°) is 4096 + 0.6 units at z0.
        #expect(abs(Int(c.x) - 4096) <= 1 && abs(Int(c.y) - 4096) <= 1, "\(c.x) \(c.y)")
        // Past clusterMaxZoom (17) every point on its own, with its own properties.
        let deep = features(s, TileID(z: 18, x: 131072, y: 131071))
        #expect(deep.allSatisfy { $0.properties["cluster"] == nil })
    }

    /// Zooms where nothing gathers share the zoom above's points (a sparse source's deep
    /// zooms cost one copy of it).
    @Test func zoomsWithoutClustersShareStorage() {
        let points = (0..<4).map { (x: Double($0) / 4 + 0.1, y: 0.5, feature: $0, properties: [StyleValue]()) }
        let made = GeoJSONSource.clusterLevelsSharing(points, options: ClusterOptions(), maxZoom: 17)
        // A quarter of the world apart: together only at zoom 0 (50 px of 512 is a tenth).
        #expect(made.levels[0].count == 4 && made.sameAsAbove[1...17].allSatisfy { $0 })
        let close = (0..<2).map { (x: 0.5 + Double($0) * 1e-7, y: 0.5, feature: $0, properties: [StyleValue]()) }
        let together = GeoJSONSource.clusterLevelsSharing(close, options: ClusterOptions(), maxZoom: 17)
        #expect(together.levels[17].count == 1 && together.levels[18].count == 2 && !together.sameAsAbove[17])
    }

    @Test func minimumPointsAndAbbreviations() throws {
        let s = try source(#", "cluster": true, "clusterMinPoints": 4"#, points: [(0, 0, 1), (0.02, 0, 2), (0, 0.02, 3)])
        #expect(features(s, TileID(z: 0, x: 0, y: 0)).allSatisfy { $0.properties["cluster"] == nil })
        #expect(GeoJSONSource.abbreviated(1234) == .string("1.2k") && GeoJSONSource.abbreviated(1000) == .string("1k") && GeoJSONSource.abbreviated(15_600) == .string("16k"))
    }

    @Test func aSourceFilterKeepsSomeFeatures() throws {
        let s = try source(#", "filter": [">", ["get", "rank"], 2]"#, points: [(0, 0, 1), (10, 0, 2), (20, 0, 3), (30, 0, 4)])
        #expect(features(s, TileID(z: 0, x: 0, y: 0)).map { $0.properties["rank"] } == [.number(3), .number(4)])
    }

    /// A reducer written as an expression of `["accumulated"]` and `["get", name]`, as the
    /// spec allows besides the operators: here a sum of squares and a running text.
    @Test func reducersWrittenAsExpressions() throws {
        let s = try source(#", "cluster": true, "clusterRadius": 50, "clusterProperties": {"squares": [["+", ["accumulated"], ["get", "squares"]], ["*", ["get", "rank"], ["get", "rank"]]], "names": [["concat", ["accumulated"], "-", ["get", "names"]], ["to-string", ["get", "rank"]]]}"#,
                           points: [(0, 0, 1), (0.02, 0, 2), (0, 0.02, 3), (60, 30, 4)])
        let c = try #require(features(s, TileID(z: 0, x: 0, y: 0)).first { $0.properties["cluster"] == .bool(true) })
        // 1 + 4 + 9; the points in the order they are gathered.
        #expect(c.properties["squares"] == .number(14))
        #expect(c.properties["names"] == .string("1-2-3"), "\(String(describing: c.properties["names"]))")
    }

    /// Reducer expressions run at every merge: a source that could take more than
    /// `maxReducerEvaluations` of them is refused before clustering, naming the source.
    @Test func reducerExpressionsAreBounded() throws {
        let many: [(Double, Double, Int)] = (0..<13_000).map { (i: Int) -> (Double, Double, Int) in (Double(i % 130) * 0.001, Double(i / 130) * 0.001, i) }
        let reducer = #"[["+", ["accumulated"], ["get", "s"]], 1]"#
        let props = (0..<64).map { "\"p\($0)\": \(reducer)" }.joined(separator: ", ")
        #expect(throws: BasemapError.self) {
            _ = try source(#", "cluster": true, "clusterMaxZoom": 24, "clusterProperties": {"# + props + "}", points: many)
        }
        do {
            _ = try source(#", "cluster": true, "clusterMaxZoom": 24, "clusterProperties": {"# + props + "}", points: many)
        } catch {
            #expect("\(error)".contains("reducer expressions"), "\(error)")
        }
        // The same with an operator: no bound but the source's own.
        _ = try source(#", "cluster": true, "clusterMaxZoom": 24, "clusterProperties": {"s": ["+", 1]}"#, points: many)
    }

    @Test func unknownClusterReductionsAreLeftOutWithAWarning() throws {
        let json = #"{"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}, "cluster": true, "clusterProperties": {"odd": ["median", 1], "bad": [["nonsense", 1], 1], "good": [["+", ["accumulated"], 1], 1]}}}, "layers": []}"#
        let style = try BasemapStyle.parse(Array(json.utf8), file: "s.json", directory: ".")
        #expect(style.warnings.contains { $0.contains("cluster property 'odd'") })
        #expect(style.warnings.contains { $0.contains("cluster property 'bad'") })
        #expect(style.sources["s"]?.cluster?.properties.map(\.name) == ["good"])
    }
}
