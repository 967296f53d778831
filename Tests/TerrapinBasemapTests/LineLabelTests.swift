import Foundation
import Testing
import TerrapinTestSupport
import TerrapinIO
import TerrapinTiles
@testable import TerrapinBasemap

/// Labels along lines: same-named lines merged end to end, anchors every `symbol-spacing`
/// (MapLibre's `mergeLines` and `getAnchors`), in tile units.
@Suite struct LineLabelTests {
    @Test func linesOfOneTextMergeEndToEnd() {
        let a = [(0.0, 0.0), (10, 0)], b = [(10.0, 0.0), (20, 5)], c = [(20.0, 5.0), (30, 5)], d = [(100.0, 100.0), (110, 100)]
        // In order, out of order, and a middle piece that joins the two on either side.
        #expect(Basemap.mergeLines([a, b, c, d]).map(\.count) == [4, 2])
        let reversed = Basemap.mergeLines([c, b, a])
        #expect(reversed.count == 1 && reversed[0].map(\.0) == [0, 10, 20, 30])
        let bridged = Basemap.mergeLines([a, c, b])
        #expect(bridged.count == 1 && bridged[0].map(\.0) == [0, 10, 20, 30] && bridged[0].map(\.1) == [0, 0, 5, 5])
        // As features (MapLibre Native's form): only each feature's first line is merged, into
        // the earlier feature's; the feature it came from keeps its place and its other lines.
        let features = Basemap.mergeLines(features: [("x", [a]), ("y", [b]), ("x", [b, d]), ("x", [c])])
        #expect(features.map { $0.map(\.count) } == [[4], [2], [0, 2], [0]])
        #expect(features[0][0].map(\.0) == [0, 10, 20, 30])
        // A one-point piece is dropped.
        #expect(Basemap.mergeLines([[(1.0, 1.0)]]).isEmpty)
    }

    @Test func anchorsEverySpacing() {
        let line = [(48.0, 2000.0), (4048, 2000)]
        // Starting inside the tile: the first half a label (100) and the extra offset (50) in.
        let inside = Basemap.anchors(line, spacing: 1000, labelLength: 200, extraOffset: 50, extent: 4096)
        #expect(inside.map(\.x) == [198, 1198, 2198, 3198])
        #expect(inside.allSatisfy { $0.y == 2000 && $0.direction.0 > 0 && $0.direction.1 == 0 })
        // Coming in from beyond the tile: half a spacing in; anchors stay inside the tile.
        let continued = Basemap.anchors([(-200.0, 10.0), (5000, 10)], spacing: 1000, labelLength: 200, extraOffset: 50, extent: 4096)
        #expect(continued.count == 4 && zip(continued.map(\.x), [300.0, 1300, 2300, 3300]).allSatisfy { abs($0 - $1) < 1e-9 })
        // A label longer than the spacing keeps a quarter spacing to the next.
        let long = Basemap.anchors(line, spacing: 1000, labelLength: 900, extraOffset: 0, extent: 4096)
        #expect(zip(long, long.dropFirst()).allSatisfy { $1.x - $0.x == 1150 })
        // A short line: the first place is past the end, so the middle, if the label fits.
        let short = Basemap.anchors([(10.0, 10.0), (260, 10)], spacing: 1000, labelLength: 200, extraOffset: 100, extent: 4096)
        #expect(short.map(\.x) == [135])
        #expect(Basemap.anchors([(10.0, 10.0), (160, 10)], spacing: 1000, labelLength: 200, extraOffset: 100, extent: 4096).isEmpty)
    }

    @Test func theWindowHoldsTheLineAroundAnAnchor() {
        let line = [(0.0, 0.0), (100, 0), (100, 100), (200, 100)]
        let a = Basemap.LinePoint(x: 100, y: 50, direction: (0, 16), segment: 2)
        // The points within 60 each side, and the first beyond, so the text is covered.
        let w = Basemap.window(line, around: a, halfLength: 60)
        #expect(w.points.count == 5 && w.anchor == 2)
        #expect(w.points[w.anchor] == (100, 50))
    }
}

extension LineLabelTests {
    /// Monaco's street names at z15: a tighter `symbol-spacing` gives more labels along the
    /// same streets (a label longer than the spacing still keeps a quarter of it to the next);
    /// the default (250) is what the property left out gives.
    /// Monaco's street names at z15 by a one-layer style: line placement of `{name:latin}` at
    /// 12 points, with `layout` (more layout members, each led by a comma) added.
    static func monacoStreetNames(_ layout: String) throws -> [BasemapSymbol] {
        let json = """
        {"version": 8, "sources": {"omt": {"type": "vector"}}, "layers": [
          {"id": "names", "type": "symbol", "source": "omt", "source-layer": "transportation_name",
           "layout": {"symbol-placement": "line", "text-field": "{name:latin}", "text-size": 12\(layout)}}]}
        """
        let style = try BasemapStyle.parse(Array(json.utf8), file: "names.json", directory: ".")
        let basemap = try Basemap(style: style, tiles: try TileSources.open(Repository.fixtures + "/tiles/monaco-omt.pmtiles")) { try TileSources.open($0) }
        #expect(basemap.warnings.isEmpty, "\(basemap.warnings)")
        return basemap.symbols(area: [7.41, 43.725, 7.44, 43.75], zoom: 15)
    }

    @Test func spacingSetsHowOftenAStreetIsNamed() throws {
        let labels = Self.monacoStreetNames
        let plain = try labels(""), standard = try labels(#", "symbol-spacing": 250"#), tight = try labels(#", "symbol-spacing": 80"#)
        #expect(plain.count == standard.count)
        #expect(tight.count > standard.count, "\(tight.count) labels at 80 px, \(standard.count) at 250")
        // The longest-named street gets a label more often.
        let counts = Dictionary(grouping: tight, by: \.text).mapValues(\.count)
        let (street, most) = try #require(counts.max { $0.value < $1.value })
        #expect(most > standard.filter { $0.text == street }.count, "\(street)")
    }
}

extension LineLabelTests {
    /// An overscaled tile keeps its parent's places along a line (lines are cut to the tile
    /// first: `clipLine`, TerrapinGeometry).
    @Test func linesAreCutToTheTile() {
        // Coming in from the edge: half a spacing in, twice that in a tile drawn at twice its size.
        let edge = [(0.0, 10.0), (4000, 10)]
        #expect(Basemap.anchors(edge, spacing: 1000, labelLength: 200, extraOffset: 50, extent: 4096).first?.x == 500)
        #expect(Basemap.anchors(edge, spacing: 1000, labelLength: 200, extraOffset: 50, extent: 4096, overscaling: 2).first?.x == 1000)
        let inside = [(48.0, 10.0), (4048, 10)]
        #expect(Basemap.anchors(inside, spacing: 1000, labelLength: 200, extraOffset: 50, extent: 4096, overscaling: 2).first?.x == 348)
    }
}

extension LineLabelTests {
    /// A spacing far below a tile unit (a pixel in a tile magnified 2^10 times) over a long line
    /// tries a bounded number of places.
    @Test func aTinySpacingIsBounded() {
        let zigzag: [(Double, Double)] = (0..<2_000).map { (k: Int) -> (Double, Double) in
            let x: Double = k % 2 == 0 ? 10 : 4010
            return (x, Double(k) * 2 + 10)
        }
        let anchors = Basemap.anchors(zigzag, spacing: 1.0 / 128, labelLength: 0.01, extraOffset: 0, extent: 4096)
        #expect(anchors.count == 1_000)
    }
}

extension LineLabelTests {
    /// Line labels are measured as set, as MapLibre Native measures them to find their places:
    /// a size that reads only the zoom at the tile's zoom — 12 points at z15 for a size of 10 at
    /// z13 rising to 13 at z16 —, one that reads the feature at z18 (13). The measure gets the
    /// layer's fonts and letter spacing; a longer label (here twice as long) is placed
    /// differently and fits fewer lines; nothing measured falls back to 0.6 em a character.
    @Test func lineLabelsAreMeasuredAtTheirLargestSize() throws {
        let json = """
        {"version": 8, "sources": {"omt": {"type": "vector"}}, "layers": [
          {"id": "names", "type": "symbol", "source": "omt", "source-layer": "transportation_name",
           "layout": {"symbol-placement": "line", "text-field": "{name:latin}", "text-font": ["Noto Sans Italic"],
                      "text-letter-spacing": 0.1, "text-size": ["interpolate", ["linear"], ["zoom"], 13, 10, 16, 13]}}]}
        """
        let style = try BasemapStyle.parse(Array(json.utf8), file: "measure.json", directory: ".")
        let basemap = try Basemap(style: style, tiles: try TileSources.open(Repository.fixtures + "/tiles/monaco-omt.pmtiles")) { try TileSources.open($0) }
        let area = [7.41, 43.725, 7.44, 43.75]
        nonisolated(unsafe) var asked: [(String, [String], Double, Double)] = []
        let measured = basemap.symbols(area: area, zoom: 15) { text, fonts, size, spacing in
            asked.append((text, fonts, size, spacing))
            return Double(text.count) * size * 0.6
        }
        #expect(!asked.isEmpty)
        #expect(asked.allSatisfy { $0.1 == ["Noto Sans Italic"] && $0.2 == 12 && $0.3 == 0.1 })
        // A size that reads the feature is measured at z18.
        let driven = try BasemapStyle.parse(Array(json.replacingOccurrences(of: "13, 10, 16, 13", with: #"13, ["case", ["has", "name"], 10, 9], 16, 13"#).utf8),
                                            file: "driven.json", directory: ".")
        let drivenMap = try Basemap(style: driven, tiles: try TileSources.open(Repository.fixtures + "/tiles/monaco-omt.pmtiles")) { try TileSources.open($0) }
        nonisolated(unsafe) var drivenSizes: Set<Double> = []
        _ = drivenMap.symbols(area: area, zoom: 15) { text, _, size, _ in drivenSizes.insert(size); return Double(text.count) * size * 0.6 }
        #expect(drivenSizes == [13])
        // As measured at 0.6 em a character, the same places as without a measure.
        let estimated = basemap.symbols(area: area, zoom: 15)
        #expect(measured.map { "\($0.text) \($0.latitude) \($0.longitude)" } == estimated.map { "\($0.text) \($0.latitude) \($0.longitude)" })
        // Twice as long: other places, and fewer (a label needs its length of line).
        let long = basemap.symbols(area: area, zoom: 15) { text, _, size, _ in Double(text.count) * size * 1.2 }
        #expect(long.count < measured.count, "\(long.count) long labels, \(measured.count) as measured")
        // A measure that cannot set the text (nil, NaN) leaves the estimate.
        let unset = basemap.symbols(area: area, zoom: 15) { _, _, _, _ in .nan }
        #expect(unset.map(\.latitude) == estimated.map(\.latitude))
    }
}

extension LineLabelTests {
    /// MapLibre's `checkMaxAngle`: a place is kept only where the line's turns under the label,
    /// summed over any window of 0.6 em, stay within `text-max-angle`. A gentle zigzag passes, a
    /// hairpin (a pier out and back) does not, and neither does a label running off the line.
    @Test func sharpTurnsUnderALabelAreRefused() {
        let straight = [(0.0, 0.0), (1000, 0)]
        #expect(Basemap.turnsWithin(straight, at: (500, 0), segment: 0, labelLength: 400, window: 60, maxAngle: Double.pi / 4))
        // Two 30° turns 200 apart: each window of 60 holds one…
        let bends = [(0.0, 0.0), (200, 0), (373.2, 100), (573.2, 100)]
        #expect(Basemap.turnsWithin(bends, at: (286.6, 50), segment: 1, labelLength: 500, window: 60, maxAngle: Double.pi / 4))
        // …but a window of 250 holds both, 60° in all, over 45°.
        #expect(!Basemap.turnsWithin(bends, at: (286.6, 50), segment: 1, labelLength: 500, window: 250, maxAngle: Double.pi / 4))
        // A hairpin: out 300, across 10, back 300.
        let hairpin = [(0.0, 0.0), (300, 0), (300, 10), (0, 10)]
        #expect(!Basemap.turnsWithin(hairpin, at: (250, 0), segment: 0, labelLength: 200, window: 60, maxAngle: Double.pi / 4))
        // Past the line's start or end under the label.
        #expect(!Basemap.turnsWithin(straight, at: (100, 0), segment: 0, labelLength: 400, window: 60, maxAngle: Double.pi / 4))
        #expect(!Basemap.turnsWithin(straight, at: (900, 0), segment: 0, labelLength: 400, window: 60, maxAngle: Double.pi / 4))
        // In `anchors` (a spacing widened to 262.5 for the 200-long label): the place whose
        // label would round the hairpin's end is refused with a window, kept without one.
        let pier = [(100.0, 50.0), (400, 50), (400, 60), (100, 60)]
        let checked = Basemap.anchors(pier, spacing: 250, labelLength: 200, extraOffset: 0, extent: 4096, window: 60, maxAngle: Double.pi / 4)
        let unchecked = Basemap.anchors(pier, spacing: 250, labelLength: 200, extraOffset: 0, extent: 4096)
        #expect(checked.map { "\($0.x),\($0.y)" } == ["200.0,50.0"])
        #expect(unchecked.map { "\($0.x),\($0.y)" } == ["200.0,50.0", "347.5,60.0"])
    }
}

extension LineLabelTests {
    /// A line label lies flat on the map unless `text-pitch-alignment` is "viewport" ("auto",
    /// the default, follows the text along its line); level labels (shields) never do.
    @Test func pitchAlignmentSaysWhichLabelsLieFlat() throws {
        let labels = Self.monacoStreetNames
        let byDefault = try labels(""), map = try labels(#", "text-pitch-alignment": "map""#)
        let viewport = try labels(#", "text-pitch-alignment": "viewport""#), level = try labels(#", "text-rotation-alignment": "viewport""#)
        #expect(!byDefault.isEmpty && byDefault.allSatisfy(\.flat) && map.allSatisfy(\.flat))
        #expect(!viewport.isEmpty && viewport.allSatisfy { !$0.flat })
        #expect(!level.isEmpty && level.allSatisfy { !$0.flat })
    }
}

/// A view's labels read each tile once, however many symbol layers read it: the pass keeps the
/// tiles it fetched (`Basemap.PassTiles`), where the 48 decoded tiles the basemap keeps would
/// evict 64 tiles read layer after layer in the very order they come back.
@Suite struct LabelPassTileTests {
    final class Counting: TileSource, @unchecked Sendable {
        let inner: any TileSource
        let reads = Locked<[TileID: Int]>([:])
        var path: String { inner.path }
        var info: TileSourceInfo { inner.info }
        init(_ inner: any TileSource) { self.inner = inner }
        func tile(_ id: TileID) throws(TileError) -> [UInt8]? {
            reads.withLock { $0[id, default: 0] += 1 }
            return try inner.tile(id)
        }
    }

    @Test func eachTileIsReadOnceForAllTheLayers() throws {
        let json = """
        {"version": 8, "sources": {"omt": {"type": "vector"}}, "layers": [
          {"id": "places", "type": "symbol", "source": "omt", "source-layer": "place", "layout": {"text-field": "{name:latin}"}},
          {"id": "pois", "type": "symbol", "source": "omt", "source-layer": "poi", "layout": {"text-field": "{name:latin}"}},
          {"id": "water", "type": "symbol", "source": "omt", "source-layer": "water_name", "layout": {"text-field": "{name:latin}"}}]}
        """
        let style = try BasemapStyle.parse(Array(json.utf8), file: "labels.json", directory: ".")
        let tiles = Counting(try TileSources.open(Repository.fixtures + "/tiles/monaco-omt.pmtiles"))
        let basemap = try Basemap(style: style, tiles: tiles) { try TileSources.open($0) }
        // (Opening the basemap reads a tile to learn the archive's schema.)
        tiles.reads.withLock { $0.removeAll() }
        // An area wider than eight tiles a side at z14: the 64 tiles nearest its centre.
        let symbols = basemap.symbols(area: [7.2, 43.6, 7.7, 43.9], zoom: 14)
        #expect(!symbols.isEmpty)
        let reads = tiles.reads.withLock { $0 }
        #expect(reads.keys.filter { $0.z == 14 }.count == 64)
        #expect(reads.values.allSatisfy { $0 == 1 }, "read more than once: \(reads.filter { $0.value > 1 })")
    }
}
