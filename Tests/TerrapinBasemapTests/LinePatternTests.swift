import Testing
import TerrapinTestSupport
import TerrapinGeometry
import TerrapinRaster
import TerrapinTiles
@testable import TerrapinBasemap

/// `line-pattern`: a sprite image repeated along a line, centred across it.
@Suite struct LinePatternTests {
    /// A 16 × 8 image whose texel (i, j) is red 16 i, green 32 j, blue 200, opaque: every texel
    /// says where it comes from.
    static let image: Pixmap = {
        var data = [UInt8]()
        for j in 0..<8 { for i in 0..<16 { data += [UInt8(16 * i), UInt8(32 * j), 200, 255] } }
        return Pixmap(width: 16, height: 8, premultipliedData: data)!
    }()

    static func draw(_ points: [Point], width: Double, size: Int = 64) throws -> Pixmap {
        let pattern = try #require(LinePattern(tileSize: size, image: image, ratio: 1))
        var b = PathBuilder()
        for (k, p) in points.enumerated() { if k == 0 { b.move(to: p) } else { b.line(to: p) } }
        #expect(pattern.add([points], path: b.build(), style: StrokeStyle(width: width), opacity: 1, feature: 1))
        return try #require(pattern.image())
    }

    static func pixel(_ p: Pixmap, _ x: Int, _ y: Int) -> [Int] { (0..<4).map { Int(p.data[(y * p.width + x) * 4 + $0]) } }

    /// Eastward, 8 px wide (the image's height): each pixel is the texel at its distance along
    /// the line (modulo 16) and across it from the top edge, exactly.
    @Test func eastwardTheImageRunsAlongAtItsOwnSize() throws {
        let tile = try Self.draw([Point(0, 32), Point(64, 32)], width: 8)
        for y in 28..<36 {
            for x in 0..<64 {
                #expect(Self.pixel(tile, x, y) == [16 * (x % 16), 32 * (y - 28), 200, 255], "\(x), \(y)")
            }
        }
        // Nothing beyond the line's edges.
        #expect(Self.pixel(tile, 10, 26) == [0, 0, 0, 0] && Self.pixel(tile, 10, 37) == [0, 0, 0, 0])
    }

    /// Westward the image is turned half round: its start at the line's start (the east end)
    /// and its top row on the line's left, which is south.
    @Test func westwardTheImageTurnsWithTheLine() throws {
        let tile = try Self.draw([Point(64, 32), Point(0, 32)], width: 8)
        for y in 28..<36 {
            for x in 0..<64 {
                #expect(Self.pixel(tile, x, y) == [16 * ((63 - x) % 16), 32 * (35 - y), 200, 255], "\(x), \(y)")
            }
        }
    }

    /// Round a corner the distance runs on, and the image turns with the line: going south
    /// after 20 px east, the pixel whose centre is 10.5 px down the southward leg and ½ px east
    /// of it reads column 30.5 mod 16 = 14 and — its left being east — row 3 (½ px above the
    /// middle).
    @Test func theDistanceRunsOnRoundACorner() throws {
        let tile = try Self.draw([Point(0, 20), Point(20, 20), Point(20, 64)], width: 8)
        #expect(Self.pixel(tile, 20, 30) == [16 * 14, 32 * 3, 200, 255])
        // And ½ px west of it, row 4.
        #expect(Self.pixel(tile, 19, 30) == [16 * 14, 32 * 4, 200, 255])
    }

    /// A line wider than the image stretches it to its edges: the outermost pixels read the
    /// image's edge rows, and the centre line its middle.
    @Test func aWiderLineStretchesTheImage() throws {
        let tile = try Self.draw([Point(0, 32), Point(64, 32)], width: 20)
        #expect(Self.pixel(tile, 5, 22)[1] == 0, "top edge: row 0")
        #expect(Self.pixel(tile, 5, 41)[1] == 224, "bottom edge: row 7")
        #expect(Self.pixel(tile, 5, 22)[3] == 255 && Self.pixel(tile, 5, 41)[3] == 255)
        // Halfway out (5 px below the centre) the image is read 2.5 rows below its middle.
        #expect(abs(Self.pixel(tile, 5, 36)[1] - Int(32 * (4 + 4.5 / 2 - 0.5))) <= 1, "\(Self.pixel(tile, 5, 36))")
    }

    /// A layer's lines of one pattern visit at most 64 × the tile's pixels: a 1,000-px-wide
    /// line of many long segments spends them and is told so.
    @Test func visitsAreBounded() throws {
        let pattern = try #require(LinePattern(tileSize: 64, image: Self.image, ratio: 1))
        let points = (0..<200).map { Point(Double($0 % 2) * 64, Double($0)) }
        var b = PathBuilder()
        for (k, p) in points.enumerated() { if k == 0 { b.move(to: p) } else { b.line(to: p) } }
        var added = 0
        for feature in 1...40 where pattern.add([points], path: b.build(), style: StrokeStyle(width: 1000), opacity: 1, feature: Int32(feature)) { added += 1 }
        #expect(added < 40)
        #expect(pattern.budget <= 0)
    }

    /// On Monaco's one-way streets (`styles/oneway.json`, arrows from an SVG folder): drawn,
    /// nothing warned about; without the sprite, not drawn and said once.
    @Test func monacoOneWayStreets() throws {
        func basemap(_ sprite: Bool) throws -> Basemap {
            var text = try String(contentsOfFile: Repository.fixtures + "/basemap/styles/oneway.json", encoding: .utf8)
            if !sprite { text = text.replacingOccurrences(of: #""sprite": "../sprites/patterns","#, with: "") }
            let style = try BasemapStyle.parse(Array(text.utf8), file: "oneway.json", directory: Repository.fixtures + "/basemap/styles")
            return try Basemap(style: style, tiles: try TileSources.open(Repository.fixtures + "/tiles/monaco-omt.pmtiles")) { try TileSources.open($0) }
        }
        let id = TileID.containing(longitude: 7.4265, latitude: 43.7395, zoom: 16)
        let with = try basemap(true), without = try basemap(false)
        let a = try #require(try with.draw(id)), b = try #require(try without.draw(id))
        #expect(with.warnings.isEmpty, "\(with.warnings)")
        #expect(without.warnings == ["layer 'oneway': line-pattern needs a local sprite (the style's \"sprite\"); patterned lines are not drawn"])
        // The arrows' blue (#145A82) shows only with the sprite.
        func arrowPixels(_ p: Pixmap) -> Int {
            var count = 0
            for k in stride(from: 0, to: p.data.count, by: 4) {
                let r = Int(p.data[k]), g = Int(p.data[k + 1]), b = Int(p.data[k + 2])
                if b > r + 60, b > 120, g < 160 { count += 1 }
            }
            return count
        }
        #expect(arrowPixels(a) > 500, "\(arrowPixels(a))")
        #expect(arrowPixels(b) == 0)
    }
}
