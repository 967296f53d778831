// `"earth": "mercator"` seen straight down: the basemap drawn tile by tile at the output's
// resolution, every device pixel by exactly one tile.
import Foundation
import Testing
@testable import Terrapin
import TerrapinTestSupport

@Suite struct FlatMapTests {
    func render(_ json: String) throws -> Pixmap {
        let scene = try SceneDecoder.decode(Array(json.utf8), path: Repository.fixtures + "/basemap/mercator/inline.json")
        return try PreparedScene(scene).render()
    }

    /// A half-transparent background over four tiles (a tile corner in the middle of the view,
    /// at a fractional zoom, at scale 1 and 2): every pixel the same colour, so no pixel was
    /// drawn twice (darker) or missed (the ground's colour). Turned or tilted, the same view
    /// drapes the tiles instead, and its pixels are the same colour too.
    @Test func tilesMeetWithoutSeams() throws {
        for (scale, heading, tilt) in [(1, 0, 0), (2, 0, 0), (1, 30, 0), (1, 0, 40)] {
            let image = try render(#"""
                {"output": {"width": 160, "height": 120, "scale": \#(scale)},
                 "map": {"mode": "roadmap", "earth": "mercator", "attribution": false,
                         "camera": {"center": {"latitude": 43.7390, "longitude": 7.4263}, "range": 830, "fieldOfView": 36.87, "heading": \#(heading), "tilt": \#(tilt)},
                         "basemap": {"tiles": "../../tiles/monaco-omt.pmtiles", "style": "../styles/half-background.json"}}}
                """#)
            var colours: [[UInt8]: Int] = [:]
            for i in stride(from: 0, to: image.data.count, by: 4) { colours[Array(image.data[i..<i + 4]), default: 0] += 1 }
            #expect(colours.count == 1, "scale \(scale), heading \(heading), tilt \(tilt): \(colours.sorted { $0.value > $1.value }.prefix(4))")
        }
    }
}
