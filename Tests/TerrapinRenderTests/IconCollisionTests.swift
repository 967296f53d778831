// A point label's text and icon collide each by its own box, as MapLibre places them: the icon's
// padded by `icon-padding`, and either shown without the other where `text-optional` or
// `icon-optional` allows it (numbers from the resolved labels).
import Foundation
import Testing
@testable import Terrapin
@testable import TerrapinRender
import TerrapinTestSupport

@Suite struct IconCollisionTests {
    /// A style with layer `a` on top (placed first) and `b` under it; `b`'s point `east`
    /// degrees east of `a`'s (about 290 points a degree here... 0.001° is 23 points).
    func labels(a: String, b: String, east: Double) throws -> (a: ResolvedLabel, b: ResolvedLabel) {
        let style = #"""
            {"version": 8, "sprite": "\#(Repository.fixtures)/basemap/sprites/icons",
             "sources": {"a": {"type": "geojson", "data": {"type": "Point", "coordinates": [7.4263, 43.7390]}},
                         "b": {"type": "geojson", "data": {"type": "Point", "coordinates": [\#(7.4263 + east), 43.7390]}}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                        {"id": "b", "type": "symbol", "source": "b", "layout": \#(b)},
                        {"id": "a", "type": "symbol", "source": "a", "layout": \#(a)}]}
            """#
        return try styledScene(style) { prepared in
            let resolved = try #require(try prepared.resolve())
            let a = try #require(resolved.labels.first { $0.style?.layer == "a" }), b = try #require(resolved.labels.first { $0.style?.layer == "b" })
            return (a, b)
        }
    }

    @Test func anOptionalTextLeavesItsIconShowing() throws {
        // `b`'s icon is clear of `a`'s text, its text runs into it.
        let a = #"{"text-field": "WWWWWW", "text-size": 16}"#
        func b(_ optional: Bool) -> String {
            #"{"text-field": "WWWWWW", "text-size": 16, "text-anchor": "left", "text-offset": [1, 0], "icon-image": "dot", "text-optional": \#(optional)}"#
        }
        let together = try labels(a: a, b: b(false), east: -0.0026)
        #expect(together.a.isShown && !together.b.isShown)
        let alone = try labels(a: a, b: b(true), east: -0.0026)
        #expect(alone.b.isShown && alone.b.showsIcon && !alone.b.showsText, "\(alone.b)")
    }

    @Test func anOptionalIconLeavesItsTextShowing() throws {
        // `b` on `a`'s icon, its text well to the east.
        let a = #"{"icon-image": "dot"}"#
        func b(_ optional: Bool) -> String {
            #"{"text-field": "Beside", "text-size": 12, "text-anchor": "left", "text-offset": [2.5, 0], "icon-image": "dot", "icon-optional": \#(optional)}"#
        }
        #expect(try !labels(a: a, b: b(false), east: 0).b.isShown)
        let alone = try labels(a: a, b: b(true), east: 0)
        #expect(alone.b.isShown && alone.b.showsText && !alone.b.showsIcon, "\(alone.b)")
    }

    @Test func theIconIsPaddedByIconPadding() throws {
        // `b`'s icon 5 points east of `a`'s (its text further east): clear with no padding, not
        // with 8 points of it.
        let a = #"{"icon-image": "dot"}"#
        func b(_ padding: Double) -> String {
            #"{"text-field": "Beside", "text-size": 12, "text-anchor": "left", "text-offset": [2.5, 0], "icon-image": "dot", "icon-padding": \#(padding)}"#
        }
        let step = 21.0 * 3.458 / (111_320 * cos(43.739 * Double.pi / 180))
        #expect(try labels(a: a, b: b(0), east: step).b.isShown)
        #expect(try !labels(a: a, b: b(8), east: step).b.isShown)
    }
}
