// Tiles drawn from the Andorra and Monaco vector tiles with the built-in styles.
import Foundation
import Testing
import TerrapinIO
import TerrapinPNG
import TerrapinTiles
@testable import TerrapinBasemap

@Suite struct BasemapDrawingTests {
    static func roadmap(_ archive: String) throws -> Basemap {
        let tiles = try TileSources.open(fixtures + "/tiles/" + archive)
        return try Basemap(style: BasemapStyle.builtin("roadmap")!, tiles: tiles) { path in try TileSources.open(path) }
    }

    @Test func drawsAndorraLaVella() throws {
        let basemap = try Self.roadmap("andorra-omt.pmtiles")
        for id in [TileID(z: 14, x: 8261, y: 6050), TileID(z: 12, x: 2065, y: 1512), TileID(z: 16, x: 33046, y: 24201)] {
            let image = try #require(try basemap.draw(id))
            if let dir = ProcessInfo.processInfo.environment["TERRAPIN_BASEMAP_OUT"] {
                try PNGEncoder.write(image, to: "\(dir)/andorra-\(id.z)-\(id.x)-\(id.y).png")
            }
        }
        #expect(basemap.warnings == [])
    }
}
