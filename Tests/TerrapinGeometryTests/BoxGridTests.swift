import Testing
@testable import TerrapinGeometry

/// The grid offers at least every box a point lies in or a segment meets (edges included),
/// checked against a test of every box, over boxes and queries from a fixed stream.
@Suite struct BoxGridTests {
    struct Stream {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    static func boxes(_ n: Int, _ s: inout Stream) -> [BoxGrid.Box] {
        (0..<n).map { _ in
            let x = s.next() * 1000, y = s.next() * 600, w = s.next() * s.next() * 80, h = s.next() * s.next() * 80
            return (x, y, x + w, y + h)
        }
    }

    static func offered(_ grid: BoxGrid, near p: (Double, Double)) -> Set<Int> {
        var out: Set<Int> = []
        grid.first(near: p.0, p.1) { out.insert($0); return false }
        return out
    }

    static func offered(_ grid: BoxGrid, along a: (Double, Double), _ b: (Double, Double)) -> Set<Int> {
        var out: Set<Int> = []
        grid.first(along: (a.0, a.1), (b.0, b.1)) { out.insert($0); return false }
        return out
    }

    /// Whether the segment meets the closed box (Liang–Barsky).
    static func meets(_ a: (Double, Double), _ b: (Double, Double), _ box: BoxGrid.Box) -> Bool {
        var t0 = 0.0, t1 = 1.0
        let d = (b.0 - a.0, b.1 - a.1)
        for (p, q) in [(-d.0, a.0 - box.minX), (d.0, box.maxX - a.0), (-d.1, a.1 - box.minY), (d.1, box.maxY - a.1)] {
            if p == 0 { if q < 0 { return false }; continue }
            let r = q / p
            if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
            if t0 > t1 { return false }
        }
        return true
    }

    @Test func pointsFindEveryBoxHoldingThemEdgesIncluded() {
        var s = Stream(state: 7)
        let boxes = Self.boxes(1_500, &s)
        let grid = BoxGrid(boxes)
        #expect(grid.columns * grid.rows >= 250 && grid.columns * grid.rows <= 3_000)
        // Random points, boxes' corners, and points off the grid.
        var points = (0..<800).map { _ in (s.next() * 1100 - 50, s.next() * 700 - 50) }
        points += boxes.prefix(200).flatMap { [($0.minX, $0.minY), ($0.maxX, $0.maxY), ($0.minX, $0.maxY)] }
        for p in points {
            let holding = Set(boxes.indices.filter { p.0 >= boxes[$0].minX && p.0 <= boxes[$0].maxX && p.1 >= boxes[$0].minY && p.1 <= boxes[$0].maxY })
            #expect(holding.isSubset(of: Self.offered(grid, near: p)), "\(p)")
        }
    }

    @Test func segmentsFindEveryBoxTheyMeet() {
        var s = Stream(state: 11)
        let boxes = Self.boxes(1_000, &s)
        let grid = BoxGrid(boxes)
        var segments: [((Double, Double), (Double, Double))] = (0..<300).map { _ in
            ((s.next() * 1400 - 200, s.next() * 1000 - 200), (s.next() * 1400 - 200, s.next() * 1000 - 200))
        }
        // Level, upright, nearly level, a point, and from far outside the grid (an eye kilometres off).
        segments += [((-500, 300), (1500, 300)), ((400, -500), (400, 1200)), ((-500, 300), (1500, 300.000001)), ((500, 300), (500, 300)),
                     ((-20_000, -9_000), (640, 310)), ((boxes[0].minX, boxes[0].minY), (boxes[1].maxX, boxes[1].maxY))]
        var offeredTotal = 0
        for (a, b) in segments {
            let offered = Self.offered(grid, along: a, b)
            offeredTotal += offered.count
            let met = Set(boxes.indices.filter { Self.meets(a, b, boxes[$0]) })
            #expect(met.isSubset(of: offered), "\(a) → \(b): \(met.subtracting(offered).sorted())")
        }
        // The point of the grid: far fewer boxes offered than a scan would test.
        #expect(offeredTotal < segments.count * boxes.count / 4)
    }

    @Test func aQueryStopsAtTheFirstYes() {
        let grid = BoxGrid([(0, 0, 10, 10), (0, 0, 10, 10), (0, 0, 10, 10)])
        var asked = 0
        #expect(grid.first(near: 5, 5) { _ in asked += 1; return true })
        #expect(asked == 1)
        #expect(!grid.first(near: 50, 50) { _ in false })
    }

    /// Boxes over the whole plane (a hostile input's): one cell, not a cell per box and cell;
    /// boxes that are not boxes and queries that are not numbers: every box offered.
    @Test func hugeAndBrokenBoxesDegradeToAScan() {
        let huge = [BoxGrid.Box](repeating: (0, 0, 1000, 1000), count: 1_500) + (0..<1_500).map { i in (Double(i), 0, Double(i) + 1, 1) }
        let grid = BoxGrid(huge)
        #expect(grid.columns == 1 && grid.rows == 1 && grid.entries.count == huge.count)
        let broken = BoxGrid([(0, 0, 1, 1), (.nan, 0, 1, 1), (5, 5, 4, 4), (9, 9, 10, 10)])
        #expect(Self.offered(broken, near: (9.5, 9.5)).isSuperset(of: [1, 2, 3]))
        #expect(Self.offered(broken, near: (.nan, 0)) == [0, 1, 2, 3])
        #expect(Self.offered(broken, along: (0, 0), (.infinity, 1)) == [0, 1, 2, 3])
        #expect(Self.offered(BoxGrid([]), near: (0, 0)).isEmpty)
    }
}
