// A `format` text-field whose sections set their own `text-color`: each section's glyphs drawn
// in its colour, the rest in the layer's (as MapLibre's render tests
// runtime-styling/layout-property-override-paint-property-* draw them).
import Foundation
import Testing
@testable import Terrapin
import TerrapinTestSupport

@Suite struct FormattedLabelTests {
    @Test func eachSectionInItsOwnColour() throws {
        let style = #"""
            {"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [7.4263, 43.7390]}}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                        {"id": "t", "type": "symbol", "source": "p",
                         "layout": {"text-field": ["format", "BLUE", {"text-color": "blue"}, "\n", {}, "RED", {}], "text-size": 24},
                         "paint": {"text-color": "red"}}]}
            """#
        try styledScene(style) { prepared in
            let image = try prepared.render()
            // Strongly blue and strongly red pixels, the blue ones all above the red ones.
            var blue: [Int] = [], red: [Int] = []
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let p = image[x, y]
                    if p.blue > 180 && p.red < 80 { blue.append(y) }
                    if p.red > 180 && p.blue < 80 { red.append(y) }
                }
            }
            #expect(blue.count > 40 && red.count > 40, "\(blue.count) \(red.count)")
            #expect((blue.max() ?? 0) < (red.min() ?? 0))
        }
    }
}
