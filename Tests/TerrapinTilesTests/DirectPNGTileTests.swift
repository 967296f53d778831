// Real elevation tiles — the kind of PNG the direct decoder is for — decoded by it and by
// libpng: the same samples, tile by tile.
import Testing
import TerrapinTestSupport
@testable import TerrapinPNG
@testable import TerrapinTiles

@Suite struct DirectPNGTileTests {
    @Test func andorrasTerrainRGBTilesAsLibPNGDecodesThem() throws {
        let source = try TileSources.open(Repository.fixtures + "/tiles/andorra-terrainrgb-z8-12.pmtiles")
        var decoded = 0
        for z in 8...12 {
            // Andorra (1.55° E, 42.5° N) and the tiles round it.
            let n = Double(1 << z)
            let cx = Int((1.55 + 180) / 360 * n), cy = Int((1 - 0.8227 / Double.pi) / 2 * n)
            for x in (cx - 1)...(cx + 1) { for y in (cy - 1)...(cy + 1) {
                guard let bytes = try source.tile(TileID(z: z, x: x, y: y)) else { continue }
                let chunks = try PNGChunks.walk(bytes, source: "tile")
                let (width, height) = PNGChunks.size(of: chunks[0], in: bytes)
                let direct = try #require(PNGDirectDecoder.decode(bytes, chunks: chunks, width: width, height: height), "z\(z) \(x) \(y)")
                #expect(direct == (try LibPNG.decode(bytes, source: "tile").data), "z\(z) \(x) \(y)")
                decoded += 1
            }}
        }
        #expect(decoded >= 20)
    }
}
