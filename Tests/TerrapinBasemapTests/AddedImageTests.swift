// Images a scene adds to its style's sprite (a basemap's `images`, MapLibre's `addImage`):
// drawn where the style names them, replacing the sprite's own of that name; a missing file is
// said and left out. (The scene field: TerrapinSceneTests/AddedImagesFieldTests.)
import Foundation
import Testing
import TerrapinIO
import TerrapinPNG
import TerrapinRaster
import TerrapinTestSupport
import TerrapinTiles
@testable import TerrapinBasemap

@Suite struct AddedImageTests {
    /// A 4 × 4 PNG of one colour, written to a temporary folder.
    static func png(_ name: String, _ colour: PremultipliedRGBA8) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("terrapin-added-images").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var image = try #require(Pixmap(width: 4, height: 4))
        for y in 0..<4 { for x in 0..<4 { image[x, y] = colour } }
        let path = dir + "/\(name).png"
        try Data(try PNGEncoder.encode(image)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The world filled with the pattern named `pattern`, the style's sprite Fixtures' icons.
    func centre(pattern: String, added: [AddedImage]) throws -> (PremultipliedRGBA8, [String]) {
        let json = """
        {"version": 8, "sprite": "../sprites/icons",
         "sources": {"w": {"type": "geojson", "data": {"type": "Polygon", "coordinates": [[[-179, -80], [179, -80], [179, 80], [-179, 80], [-179, -80]]]}}},
         "layers": [{"id": "f", "type": "fill", "source": "w", "paint": {"fill-pattern": "\(pattern)"}}]}
        """
        var style = try BasemapStyle.parse(Array(json.utf8), file: "added.json", directory: Repository.fixtures + "/basemap/styles")
        style.addedImages = added
        let basemap = try Basemap(style: style, tiles: nil) { try TileSources.open($0) }
        // (Nothing drawn: no tile.)
        guard let tile = try basemap.draw(TileID(z: 2, x: 1, y: 1)) else { return (PremultipliedRGBA8(red: 0, green: 0, blue: 0, alpha: 0), basemap.warnings) }
        return (tile[tile.width / 2, tile.height / 2], basemap.warnings)
    }

    /// An added image is a pattern the style can name; one named as a sprite icon replaces it;
    /// a missing file is said once and its name is drawn as the sprite has it (or not at all).
    @Test func addedImagesAreDrawnWhereTheStyleNamesThem() throws {
        let red = PremultipliedRGBA8(red: 255, green: 0, blue: 0, alpha: 255), blue = PremultipliedRGBA8(red: 0, green: 0, blue: 255, alpha: 255)
        let redFile = try Self.png("red", red), blueFile = try Self.png("blue", blue)
        // Without it, the pattern's name is unknown: nothing drawn, and said.
        let (none, said) = try centre(pattern: "rocket", added: [])
        #expect(none.alpha == 0 && said.contains { $0.contains("'rocket'") })
        let (rocket, quiet) = try centre(pattern: "rocket", added: [AddedImage(name: "rocket", file: redFile)])
        #expect(rocket == red && quiet.isEmpty, "\(rocket) \(quiet)")
        // The sprite's own "square" is replaced by the scene's.
        let (own, _) = try centre(pattern: "square", added: [])
        let (replaced, _) = try centre(pattern: "square", added: [AddedImage(name: "square", file: blueFile, pixelRatio: 2)])
        #expect(own != blue && replaced == blue)
        let (missing, warnings) = try centre(pattern: "square", added: [AddedImage(name: "square", file: "/nowhere/gone.png")])
        #expect(missing == own && warnings.contains { $0.hasPrefix("image 'square': ") && $0.contains("gone.png") && $0.hasSuffix("it is not added") })
    }
}
