import Testing
import TerrapinTestSupport
import TerrapinRaster
import TerrapinTiles
@testable import TerrapinBasemap

/// `fill-pattern`: a sprite image repeated through a fill, aligned to the tile's pixel grid.
@Suite struct FillPatternTests {
    static func basemap(sprite: Bool) throws -> Basemap {
        let json = """
        {"version": 8, \(sprite ? #""sprite": "../sprites/icons","# : "")
         "sources": {"omt": {"type": "vector"}}, "layers": [
          {"id": "land", "type": "background", "paint": {"background-color": "#FFFFFF"}},
          {"id": "sea", "type": "fill", "source": "omt", "source-layer": "water",
           "paint": {"fill-color": "#0000FF", "fill-pattern": "dot"}}]}
        """
        let style = try BasemapStyle.parse(Array(json.utf8), file: "pattern.json", directory: Repository.fixtures + "/basemap/styles")
        return try Basemap(style: style, tiles: try TileSources.open(Repository.fixtures + "/tiles/monaco-omt.pmtiles")) { try TileSources.open($0) }
    }

    /// Monaco's z14 tile: the sea is the 16-pixel "dot" repeated (every pixel equals the one 16
    /// to its right and below, and the period holds more than one colour), the land is white.
    @Test func theSeaIsDotted() throws {
        let basemap = try Self.basemap(sprite: true)
        let id = TileID.containing(longitude: 7.4246, latitude: 43.7384, zoom: 14)
        let tile = try #require(try basemap.draw(id))
        #expect(basemap.warnings.isEmpty, "\(basemap.warnings)")
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(tile.data[(y * tile.width + x) * 4..<(y * tile.width + x) * 4 + 4]) }
        // The bottom-right corner of the tile is open sea (south-east of the harbour).
        var repeats = 0, colours = Set<[UInt8]>()
        for y in 448..<480 {
            for x in 448..<480 {
                colours.insert(pixel(x, y))
                if pixel(x, y) == pixel(x + 16, y) && pixel(x, y) == pixel(x, y + 16) { repeats += 1 }
            }
        }
        #expect(repeats == 32 * 32)
        #expect(colours.count > 1 && !colours.contains([0, 0, 255, 255]), "the pattern, not the fill colour")
        // Inland (the north-west corner) stays white.
        #expect(pixel(4, 4) == [255, 255, 255, 255])
    }

    /// Without a sprite the patterned features are not drawn, and the style is told so once.
    @Test func withoutASpriteThePatternIsNotDrawn() throws {
        let basemap = try Self.basemap(sprite: false)
        let id = TileID.containing(longitude: 7.4246, latitude: 43.7384, zoom: 14)
        let tile = try #require(try basemap.draw(id))
        #expect(basemap.warnings == ["layer 'sea': fill-pattern needs a local sprite (the style's \"sprite\"); patterned fills are not drawn"])
        #expect(Array(tile.data[(470 * tile.width + 470) * 4..<(470 * tile.width + 470) * 4 + 4]) == [255, 255, 255, 255])
    }
}

/// `background-pattern`: the sprite image repeated over the whole tile from its corner; a
/// missing sprite leaves the background undrawn, said once.
@Test func backgroundPatternsTileTheBackground() throws {
    func basemap(sprite: Bool) throws -> Basemap {
        let json = """
        {"version": 8, \(sprite ? #""sprite": "../sprites/icons","# : "")
         "sources": {"omt": {"type": "vector"}}, "layers": [
          {"id": "paper", "type": "background", "paint": {"background-color": "#FF0000", "background-pattern": "dot"}}]}
        """
        let style = try BasemapStyle.parse(Array(json.utf8), file: "pattern.json", directory: Repository.fixtures + "/basemap/styles")
        return try Basemap(style: style, tiles: try TileSources.open(Repository.fixtures + "/tiles/monaco-omt.pmtiles")) { try TileSources.open($0) }
    }
    let id = TileID.containing(longitude: 7.4246, latitude: 43.7384, zoom: 14)
    let patterned = try basemap(sprite: true)
    #expect(!patterned.drawsDirectly, "patterns are drawn into tiles' textures")
    let tile = try #require(try patterned.draw(id))
    #expect(patterned.warnings.isEmpty, "\(patterned.warnings)")
    func pixel(_ t: Pixmap, _ x: Int, _ y: Int) -> [UInt8] { Array(t.data[(y * t.width + x) * 4..<(y * t.width + x) * 4 + 4]) }
    var colours = Set<[UInt8]>(), repeats = 0
    for y in 0..<64 { for x in 0..<64 {
        colours.insert(pixel(tile, x, y))
        if pixel(tile, x, y) == pixel(tile, x + 16, y + 16) { repeats += 1 }
    } }
    #expect(repeats == 64 * 64 && colours.count > 1 && !colours.contains([255, 0, 0, 255]))
    let plain = try basemap(sprite: false)
    _ = try plain.draw(id)
    #expect(plain.warnings == ["layer 'paper': background-pattern needs a local sprite (the style's \"sprite\"); the background is not drawn"])
}

/// A pattern whose size does not divide the tile's runs on over the world's pixel grid: the
/// next tile starts where the last one stopped.
@Test func unevenPatternsRunOnAcrossTiles() throws {
    var image = try #require(Pixmap(width: 3, height: 1))
    for x in 0..<3 { image.data[x * 4] = UInt8(50 * (x + 1)); image.data[x * 4 + 3] = 255 }
    var mask = try #require(Pixmap(width: 4, height: 1))
    for x in 0..<4 { mask.data[x * 4 + 3] = 255 }
    func reds(_ origin: (Int, Int)) throws -> [UInt8] {
        let laid = try #require(Basemap.pattern(image, ratio: 1, through: mask, origin: origin))
        return (0..<4).map { laid.data[$0 * 4] }
    }
    #expect(try reds((0, 0)) == [50, 100, 150, 50])
    #expect(try reds((4, 0)) == [100, 150, 50, 100])
    #expect(try reds((-1, 0)) == [150, 50, 100, 150])
}

/// Laid through a mask, a pixel is its pattern texel times the mask's coverage, rounded, at
/// every coverage: where the mask covers wholly, the texel's own byte (made once a cell), as
/// scaling by a coverage of exactly 1 gives — for a pattern at its size and magnified.
@Test func aPatternLaidThroughAMaskIsItsTexelsTimesCoverage() throws {
    var image = try #require(Pixmap(width: 3, height: 2))
    for i in 0..<6 {
        image.data[i * 4] = UInt8(37 * i + 11); image.data[i * 4 + 1] = UInt8(200 - 29 * i)
        image.data[i * 4 + 2] = UInt8(i * 13); image.data[i * 4 + 3] = 255
    }
    var mask = try #require(Pixmap(width: 256, height: 2))
    for y in 0..<2 { for x in 0..<256 { mask.data[(y * 256 + x) * 4 + 3] = UInt8(x) } }
    for ratio in [1.0, 0.5, 0.3] {
        let (w, h, cell) = try #require(Basemap.patternCell(image, ratio: ratio))
        let laid = try #require(Basemap.pattern(image, ratio: ratio, through: mask, origin: (5, 1)))
        var wrong = 0
        for y in 0..<2 { for x in 0..<256 {
            let p = (((1 + y) % h) * w + (5 + x) % w) * 4, o = (y * 256 + x) * 4
            let expected = (0..<4).map { c in x == 0 ? UInt8(0) : Basemap.roundedByte(Double(cell[p + c] * (Float(x) / 255))) }
            if Array(laid.data[o..<(o + 4)]) != expected { wrong += 1 }
        } }
        #expect(wrong == 0, "ratio \(ratio)")
    }
}
