// Tiles drawn from the Andorra vector tiles with the built-in styles, against goldens under
// Fixtures/basemap/goldens (looked at, and compared with the place on a web map, before
// committing), and the labels and buildings a view takes, as numbers.
import Foundation
import Testing
import TerrapinIO
import TerrapinPNG
import TerrapinRaster
import TerrapinGeometry
import TerrapinSnapshotCore
import TerrapinTiles
@testable import TerrapinBasemap

@Suite struct BasemapDrawingTests {
    static func roadmap(_ archive: String) throws -> Basemap {
        let tiles = try TileSources.open(fixtures + "/tiles/" + archive)
        return try Basemap(style: BasemapStyle.builtin("roadmap")!, tiles: tiles) { path in try TileSources.open(path) }
    }

    /// Andorra la Vella at z14 (the Gran Valira, the CG-1 in yellow, the old town's streets)
    /// and the same area magnified to z16 from the z14 data (vectors, not pixels, magnified).
    @Test func drawsAndorraLaVella() throws {
        let basemap = try Self.roadmap("andorra-omt.pmtiles")
        for id in [TileID(z: 14, x: 8261, y: 6050), TileID(z: 16, x: 33046, y: 24201)] {
            let image = try #require(try basemap.draw(id))
            #expect(image.width == 512 && image.height == 512)
            assertSnapshot(of: image, as: .image, snapshotPath: "\(fixtures)/basemap/goldens/tile-andorra-\(id.z)-\(id.x)-\(id.y).png")
        }
        #expect(basemap.warnings == [])
    }

    /// The labels of a z14 view of Andorra la Vella: the towns, villages, peaks and road
    /// names of the tiles around it, each once, in placement order.
    @Test func symbolsOfAView() throws {
        let basemap = try Self.roadmap("andorra-omt.pmtiles")
        let symbols = basemap.symbols(area: [1.50, 42.49, 1.55, 42.52], zoom: 14)
        let towns = symbols.filter { $0.layer == "place-town" }.map(\.text)
        #expect(towns.contains("Andorra la Vella") && towns.contains("les Escaldes"))
        #expect(Set(symbols.map { "\($0.layer) \($0.text) \($0.latitude)" }).count == symbols.count)
        // Top-most symbol layer first: towns before villages before road names.
        let order = symbols.sorted { $0.priority < $1.priority }.map(\.layer)
        #expect(order.firstIndex(of: "place-town")! < order.firstIndex(of: "road-label")!)
        let town = try #require(symbols.first { $0.text == "Andorra la Vella" })
        #expect(abs(town.latitude - 42.5075) < 0.003 && abs(town.longitude - 1.5218) < 0.003)
        #expect(town.size > 14 && town.haloWidth == 2)
        let road = try #require(symbols.first { $0.layer == "road-label" })
        #expect(road.along != nil)
        // Within a layer of equal keys, tiles in MapLibre's placement order: west to east, then
        // north to south (its tiles sorted by `isLessThan`).
        for layer in ["place-village", "road-label"] {
            let tiles = symbols.filter { $0.layer == layer }.map { TileID.containing(longitude: $0.longitude, latitude: $0.latitude, zoom: 14) }
            let keys = tiles.map { [$0.x, $0.y] }
            #expect(Set(keys).count > 1 && keys == keys.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) }, "\(layer): \(keys)")
        }
        // No 3D buildings below zoom 15; at 15 the building layer stands.
        #expect(basemap.buildings(area: [1.519, 42.505, 1.524, 42.509], zoom: 14).isEmpty)
        let standing = basemap.buildings(area: [1.519, 42.505, 1.524, 42.509], zoom: 15.5)
        #expect(standing.count > 100)
        #expect(standing.allSatisfy { $0.roof > $0.base && $0.footprint.count >= 3 })
    }

    /// A whole-world area at z14 lists only the tiles it can take (nearest the centre), not
    /// the 2.7 × 10⁸ of the area, so a style with extrusions at every zoom cannot stall a far
    /// view; absurd line widths are capped.
    @Test func hugeAreasAndWidthsAreBounded() throws {
        let ids = Basemap.tiles([-180, -85, 180, 85], zoom: 14, limit: 36)
        #expect(ids.count == 36)
        #expect(ids.allSatisfy { abs($0.x - 8192) <= 7 && abs($0.y - 8192) <= 7 })
        let style = #"{"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [{"id": "x", "type": "fill-extrusion", "source": "s", "source-layer": "building", "paint": {"fill-extrusion-height": 10}}, {"id": "w", "type": "line", "source": "s", "source-layer": "transportation", "paint": {"line-width": 1e12}}]}"#
        let basemap = try Basemap(style: try BasemapStyle.parse(Array(style.utf8), file: "s", directory: "."),
                                  tiles: try TileSources.open(fixtures + "/tiles/andorra-omt.pmtiles")) { try TileSources.open($0) }
        #expect(basemap.buildings(area: [-180, -85, 180, 85], zoom: 2).isEmpty)
        #expect(try basemap.draw(TileID(z: 14, x: 8261, y: 6050)) != nil)
    }

    /// Label text is bounded: a label of more than 1,000 characters is not drawn (a warning
    /// says so), and a view's labels stop at 200,000 characters in all.
    @Test func labelTextIsBounded() throws {
        func symbols(_ field: String) throws -> (symbols: [BasemapSymbol], warnings: [String]) {
            let style = #"{"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [{"id": "p", "type": "symbol", "source": "s", "source-layer": "transportation_name", "layout": {"text-field": \#(field)}}]}"#
            let basemap = try Basemap(style: try BasemapStyle.parse(Array(style.utf8), file: "s", directory: "."),
                                      tiles: try TileSources.open(fixtures + "/tiles/andorra-omt.pmtiles")) { try TileSources.open($0) }
            return (basemap.symbols(area: [1.40, 42.43, 1.79, 42.66], zoom: 14), basemap.warnings)
        }
        let ordinary = try symbols(#""{name:latin}""#)
        #expect(ordinary.symbols.count > 250 && ordinary.warnings.isEmpty, "\(ordinary.symbols.count)")
        let long = try symbols(JSONText.quoted(String(repeating: "x", count: 1_001)))
        #expect(long.symbols.isEmpty)
        #expect(long.warnings == ["layer 'p': a label of more than 1000 characters is not drawn"])
        // 900 characters a label: under the limit each, but only 222 of them fit the view's.
        let many = try symbols(#"["concat", "{name:latin}", "\#(String(repeating: "y", count: 900))"]"#)
        #expect(many.symbols.count < ordinary.symbols.count)
        #expect(many.symbols.reduce(0) { $0 + $1.text.unicodeScalars.count } <= Basemap.maxViewScalars)
        #expect(many.warnings.contains("the view's labels hold more than 200000 characters; the rest are not drawn"), "\(many.warnings)")
    }

    /// `fill-extrusion-translate` moves every building by pixels of a 512-pixel tile at the
    /// view's zoom: each footprint vertex 10 px east and 6 px south in Web Mercator, exactly.
    @Test func extrusionTranslateMovesBuildings() throws {
        func buildings(_ translate: String) throws -> [BasemapBuilding] {
            let style = #"{"version": 8, "sources": {"openmaptiles": {"type": "vector"}}, "layers": [{"id": "b", "type": "fill-extrusion", "source": "openmaptiles", "source-layer": "building", "paint": {"fill-extrusion-height": 12"# + translate + "}}]}"
            let basemap = try Basemap(style: try BasemapStyle.parse(Array(style.utf8), file: "s", directory: "."),
                                      tiles: try TileSources.open(fixtures + "/tiles/andorra-omt.pmtiles")) { try TileSources.open($0) }
            #expect(basemap.warnings == [])
            return basemap.buildings(area: [1.519, 42.505, 1.524, 42.509], zoom: 15.5)
        }
        let plain = try buildings(""), moved = try buildings(#", "fill-extrusion-translate": [10, 6]"#)
        #expect(plain.count > 10 && moved.count == plain.count)
        func world(_ g: (latitude: Double, longitude: Double)) -> (Double, Double) {
            let s = sin(g.latitude * Double.pi / 180)
            return ((g.longitude + 180) / 360, 0.5 - log((1 + s) / (1 - s)) / (4 * Double.pi))
        }
        let pixel = 1 / (512 * pow(2, 15.5))
        var worst = 0.0
        for (a, b) in zip(plain, moved) {
            for (p, q) in zip(a.footprint, b.footprint) {
                let (px, py) = world(p), (qx, qy) = world(q)
                worst = max(worst, abs((qx - px) / pixel - 10), abs((qy - py) / pixel - 6))
            }
        }
        #expect(worst < 1e-3, "off by \(worst) px")
    }

    /// `text-halo-blur` is read (zoom functions included, capped at 10 pixels) and not warned
    /// about.
    @Test func haloBlurIsRead() throws {
        let style = ##"{"version": 8, "sources": {"openmaptiles": {"type": "vector"}}, "layers": [{"id": "t", "type": "symbol", "source": "openmaptiles", "source-layer": "place", "layout": {"text-field": "{name:latin}"}, "paint": {"text-halo-width": 1, "text-halo-color": "#fff", "text-halo-blur": {"stops": [[10, 0.5], [16, 20]]}}}]}"##
        let basemap = try Basemap(style: try BasemapStyle.parse(Array(style.utf8), file: "s", directory: "."),
                                  tiles: try TileSources.open(fixtures + "/tiles/andorra-omt.pmtiles")) { try TileSources.open($0) }
        let low = basemap.symbols(area: [1.50, 42.49, 1.55, 42.52], zoom: 10).first, high = basemap.symbols(area: [1.50, 42.49, 1.55, 42.52], zoom: 14).first
        #expect(low?.haloBlur == 0.5)
        #expect(high?.haloBlur == 10, "\(String(describing: high?.haloBlur))")
        #expect(basemap.warnings == [])
    }

    /// `line-translate` and `fill-translate` move a layer by pixels of a 512-pixel tile: the
    /// roads drawn 10 right and 6 down are the same pixels moved, and no warning is given.
    @Test func translateMovesALayerByPixels() throws {
        func draw(_ translate: String) throws -> Pixmap {
            let style = ##"{"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [{"id": "w", "type": "line", "source": "s", "source-layer": "transportation", "paint": {"line-width": 2, "line-color": "#000""## + translate.replacingOccurrences(of: "T", with: "line-translate") + ##"}}, {"id": "f", "type": "fill", "source": "s", "source-layer": "building", "paint": {"fill-color": "#f00""## + translate.replacingOccurrences(of: "T", with: "fill-translate") + "}}]}"
            let basemap = try Basemap(style: try BasemapStyle.parse(Array(style.utf8), file: "s", directory: "."),
                                      tiles: try TileSources.open(fixtures + "/tiles/andorra-omt.pmtiles")) { try TileSources.open($0) }
            let image = try #require(try basemap.draw(TileID(z: 14, x: 8261, y: 6050)))
            #expect(basemap.warnings == [])
            return image
        }
        let plain = try draw(""), moved = try draw(#", "T": [10, 6]"#)
        var same = 0, inked = 0
        for y in 80..<430 {
            for x in 80..<430 {
                let a = plain[x, y]
                guard a.alpha > 0 else { continue }
                inked += 1
                if moved[x + 10, y + 6] == a { same += 1 }
            }
        }
        #expect(inked > 1000 && same == inked, "\(same) of \(inked) pixels moved")
    }

    /// `line-offset` moves a line to the right of its direction (screen y down): a line going
    /// east moves south; at a right-angle corner the vertex moves along the bisector by d·√2;
    /// a hairpin's miter is cut to 2 d.
    @Test func lineOffsetMovesALineToItsRight() {
        let east = Basemap.offset([Point(0, 0), Point(10, 0)], by: 5, closed: false)
        #expect(east.map(\.x) == [0, 10] && east.map(\.y) == [5, 5])
        let corner = Basemap.offset([Point(0, 0), Point(10, 0), Point(10, 10)], by: 2, closed: false)
        // East then south: the right side is the inside of the turn.
        #expect(abs(corner[1].x - 8) < 1e-9 && abs(corner[1].y - 2) < 1e-9, "\(corner[1])")
        let hairpin = Basemap.offset([Point(0, 0), Point(10, 0), Point(0, 0.001)], by: 1, closed: false)
        #expect(hypot(hairpin[1].x - 10, hairpin[1].y) <= 2 + 1e-9)
        #expect(Basemap.offset([Point(0, 0), Point(10, 0)], by: -5, closed: false).map(\.y) == [-5, -5])
    }

    /// A damaged tile is drawn as missing, with one warning naming it; the rest still draws.
    @Test func damagedTilesAreMissingWithAWarning() throws {
        final class Damaged: TileSource, @unchecked Sendable {
            let path = "damaged.pmtiles"
            let info = TileSourceInfo(type: .mvt, minZoom: 0, maxZoom: 14)
            func tile(_ id: TileID) throws(TileError) -> [UInt8]? { [0x1A, 0x05, 0x0A] }
        }
        let basemap = try Basemap(style: BasemapStyle.builtin("roadmap")!, tiles: Damaged()) { try TileSources.open($0) }
        let image = try #require(try basemap.draw(TileID(z: 14, x: 8261, y: 6050)))
        // The background still draws.
        #expect(image[256, 256].alpha == 255)
        #expect(basemap.warnings.count == 1)
        #expect(basemap.warnings[0].contains("damaged.pmtiles") && basemap.warnings[0].contains("drawn as missing"))
    }
}

/// A translucent line is cut at its joins sharper than 120° and its pieces laid on apart, as
/// MapLibre's overlapping triangles blend twice there; milder joins keep it whole.
@Suite struct SharpJoinPiecesTests {
    func path(_ points: [Point]) -> Path {
        var b = PathBuilder()
        b.move(to: points[0])
        for p in points.dropFirst() { b.line(to: p) }
        return b.build()
    }

    @Test func cutAtSharpJoinsOnly() throws {
        let style = StrokeStyle(width: 4, cap: .butt, join: .round)
        // A right angle and a gentle bend: whole.
        #expect(Basemap.sharpPieces(path([Point(0, 0), Point(10, 0), Point(10, 10), Point(12, 20)]), style: style) == nil)
        // Out and back (180°) and a 150° turn: three pieces, round caps at the cuts, the line's
        // own butt caps at its ends.
        let pieces = try #require(Basemap.sharpPieces(path([Point(0, 0), Point(20, 0), Point(5, 0), Point(10, 8.66)]), style: style))
        #expect(pieces.count == 3)
        #expect(pieces.map { $0.1.startCap } == [nil, .round, .round] && pieces.map { $0.1.endCap } == [.round, .round, nil])
        #expect(pieces.map { $0.0.flattened().points.count } == [2, 2, 2])
        // Miter and bevel joins are cut with butt ends.
        var miter = style
        miter.join = .miter
        #expect(try #require(Basemap.sharpPieces(path([Point(0, 0), Point(20, 0), Point(0, 1)]), style: miter)).map { $0.1.endCap } == [.butt, nil])
    }

    /// Drawn: where the line doubles back its colour is laid on twice (darker), elsewhere once.
    @Test func overlapsOfATranslucentLineBlendTwice() throws {
        let json = """
        {"version": 8,
         "sources": {"l": {"type": "geojson", "data": {"type": "LineString", "coordinates": [[7.4150, 43.7350], [7.4250, 43.7350], [7.4200, 43.7350]]}}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "l", "type": "line", "source": "l", "paint": {"line-color": "black", "line-opacity": 0.5, "line-width": 6}}]}
        """
        let style = try BasemapStyle.parse(Array(json.utf8), file: "back.json", directory: "/")
        let basemap = try Basemap(style: style, tiles: nil) { try TileSources.open($0) }
        let id = TileID.containing(longitude: 7.42, latitude: 43.735, zoom: 14)
        let tile = try #require(try basemap.draw(id))
        func grey(_ lon: Double) -> Int {
            let n = Double(1 << 14)
            let x = (lon + 180) / 360 * n - Double(id.x)
            let lat = 43.735 * Double.pi / 180
            let y = (1 - log(tan(lat) + 1 / cos(lat)) / Double.pi) / 2 * n - Double(id.y)
            let p = tile[Int(x * Double(tile.width)), Int(y * Double(tile.height))]
            return Int(p.red)
        }
        // Once: half black over white; twice: a quarter of white left.
        let once = grey(7.4170), twice = grey(7.4225)
        #expect(abs(once - 128) <= 3 && abs(twice - 64) <= 3, "\(once) \(twice)")
    }
}
