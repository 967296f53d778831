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

/// Images set in a `format` text-field, from the style's sprite: drawn where the text leaves
/// their place, in a point's label and along a line's curve alike.
@Suite struct FormattedImageTests {
    static func style(_ geometry: String, _ layout: String) -> String {
        #"""
        {"version": 8, "sprite": "\#(Repository.fixtures)/basemap/sprites/icons",
         "sources": {"p": {"type": "geojson", "data": \#(geometry)}},
         "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                    {"id": "t", "type": "symbol", "source": "p", "layout": \#(layout), "paint": {"text-color": "black"}}]}
        """#
    }

    /// The sprite's red square right of "Port", its blue dot right of "Monaco": each where its
    /// text leaves its place, on its line.
    @Test func aPointsLabelDrawsItsImages() throws {
        let layout = #"{"text-field": ["format", "Port", {}, ["image", "square"], {"vertical-align": "center"}, "\n", {}, "Monaco", {}, ["image", "dot"], {}], "text-size": 16, "text-allow-overlap": true}"#
        try styledScene(Self.style(#"{"type": "Point", "coordinates": [7.4263, 43.7390]}"#, layout)) { prepared in
            let image = try prepared.render()
            var red: [(Int, Int)] = [], blue: [(Int, Int)] = [], dark: [(Int, Int)] = []
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let p = image[x, y]
                    if p.red > 200 && p.green < 90 && p.blue < 90 { red.append((x, y)) }
                    if p.blue > 200 && p.red < 120 && p.green < 170 { blue.append((x, y)) }
                    if p.red < 60 && p.green < 60 && p.blue < 60 { dark.append((x, y)) }
                }
            }
            // The sprite's 8 × 8 square of red (in its 16 × 16 image), its dot of blue.
            #expect((48...100).contains(red.count), "\(red.count)")
            #expect((30...120).contains(blue.count), "\(blue.count)")
            let textRight = dark.map(\.0).max() ?? 0
            #expect((red.map(\.0).min() ?? 0) > (dark.map(\.0).min() ?? 0) + 20 && (red.map(\.0).max() ?? 0) >= textRight - 2, "\(red.map(\.0).min() ?? 0) \(textRight)")
            // The square on the first line, the dot on the second.
            #expect((red.map(\.1).max() ?? 0) < (blue.map(\.1).min() ?? 0), "\(red.map(\.1)) \(blue.map(\.1))")
        }
    }

    /// Along a line, the image is set on the curve with the glyphs: the dot's pixels lie on the
    /// line's row, among the text's.
    @Test func aLinesLabelDrawsItsImagesAlongIt() throws {
        let layout = #"{"text-field": ["format", "Quai", {}, ["image", "dot"], {}, "Antoine", {}], "symbol-placement": "line-center", "text-size": 14}"#
        try styledScene(Self.style(#"{"type": "LineString", "coordinates": [[7.4200, 43.7390], [7.4330, 43.7390]]}"#, layout)) { prepared in
            let image = try prepared.render()
            var blue: [(Int, Int)] = [], dark: [(Int, Int)] = []
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let p = image[x, y]
                    if p.blue > 200 && p.red < 120 && p.green < 170 { blue.append((x, y)) }
                    if p.red < 60 && p.green < 60 && p.blue < 60 { dark.append((x, y)) }
                }
            }
            #expect(blue.count > 40, "\(blue.count)")
            let xs = dark.map(\.0), bx = blue.map(\.0)
            #expect((bx.min() ?? 0) > (xs.min() ?? 0) + 10 && (bx.max() ?? 0) < (xs.max() ?? 0) - 10, "\(bx.min() ?? 0)…\(bx.max() ?? 0) in \(xs.min() ?? 0)…\(xs.max() ?? 0)")
        }
    }
}
