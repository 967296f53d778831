// Where a polygon's point label goes, as MapLibre puts it: the pole of inaccessibility — the
// inside point farthest from the outline, holes included — found to within `precision` by
// splitting cells best-first from the bounding box (Mapbox's polylabel), starting from the
// outer ring's area centroid.

enum PoleOfInaccessibility {
    /// Most cells looked at for one polygon, and most cell-to-edge distances in all: past
    /// either the best so far is the answer (a polygon of many thin spikes, or of a million
    /// points, cannot make it run on).
    static let maxCells = 20_000
    static let maxWork = 4_000_000

    private struct Cell {
        let x: Double, y: Double
        /// Half the cell's side.
        let h: Double
        /// Signed distance from the centre to the outline (negative outside).
        let d: Double
        /// The most any point of the cell can be from the outline.
        var max: Double { d + h * 2.0.squareRoot() }

        init(_ x: Double, _ y: Double, _ h: Double, _ rings: [[(Double, Double)]]) {
            self.x = x
            self.y = y
            self.h = h
            d = PoleOfInaccessibility.distance(x, y, rings)
        }
    }

    /// The pole of `rings` (the outer ring first, then its holes) within `precision`; the
    /// outer ring's first point when it has no area.
    static func pole(_ rings: [[(Double, Double)]], precision: Double) -> (Double, Double) {
        search(rings, precision: precision).point
    }

    /// `pole`, and how many cells it measured (at most `maxCells`, and `maxWork` / the rings'
    /// points).
    static func search(_ rings: [[(Double, Double)]], precision: Double) -> (point: (Double, Double), cells: Int) {
        guard let outer = rings.first, let first = outer.first else { return ((0, 0), 0) }
        let vertices = rings.reduce(0) { $0 + $1.count }
        let budget = max(16, min(maxCells, maxWork / max(1, vertices)))
        var minX = first.0, minY = first.1, maxX = first.0, maxY = first.1
        for p in outer {
            minX = min(minX, p.0); minY = min(minY, p.1)
            maxX = max(maxX, p.0); maxY = max(maxY, p.1)
        }
        var cellSize = min(maxX - minX, maxY - minY)
        guard cellSize > 0, cellSize.isFinite else { return ((minX, minY), 0) }
        // A long, thin box starts with coarser cells than its short side (at most `maxCells`).
        cellSize = max(cellSize, ((maxX - minX) * (maxY - minY) / Double(budget)).squareRoot())
        var queue = Heap()
        var x = minX
        while x < maxX, queue.count < budget {
            var y = minY
            while y < maxY, queue.count < budget {
                queue.push(Cell(x + cellSize / 2, y + cellSize / 2, cellSize / 2, rings))
                y += cellSize
            }
            x += cellSize
        }
        var best = centroidCell(rings)
        var probes = queue.count
        while let cell = queue.pop() {
            if cell.d > best.d || best.d == 0 { best = cell }
            if cell.max - best.d <= precision || probes >= budget { continue }
            let h = cell.h / 2
            for (dx, dy) in [(-h, -h), (h, -h), (-h, h), (h, h)] { queue.push(Cell(cell.x + dx, cell.y + dy, h, rings)) }
            probes += 4
        }
        return ((best.x, best.y), probes)
    }

    /// The cell at the outer ring's area centroid (its first point when it has no area).
    private static func centroidCell(_ rings: [[(Double, Double)]]) -> Cell {
        let points = rings[0]
        var area = 0.0, x = 0.0, y = 0.0
        var j = points.count - 1
        for i in points.indices {
            let a = points[i], b = points[j]
            let f = a.0 * b.1 - b.0 * a.1
            x += (a.0 + b.0) * f
            y += (a.1 + b.1) * f
            area += f * 3
            j = i
        }
        return area == 0 ? Cell(points[0].0, points[0].1, 0, rings) : Cell(x / area, y / area, 0, rings)
    }

    /// Signed distance from (x, y) to the rings' outline: positive inside (by the even-odd rule).
    static func distance(_ x: Double, _ y: Double, _ rings: [[(Double, Double)]]) -> Double {
        var inside = false
        var nearest = Double.infinity
        for ring in rings where !ring.isEmpty {
            var j = ring.count - 1
            for i in ring.indices {
                let a = ring[i], b = ring[j]
                if (a.1 > y) != (b.1 > y), x < (b.0 - a.0) * (y - a.1) / (b.1 - a.1) + a.0 { inside.toggle() }
                nearest = min(nearest, segmentDistanceSquared(x, y, a, b))
                j = i
            }
        }
        return (inside ? 1 : -1) * nearest.squareRoot()
    }

    private static func segmentDistanceSquared(_ px: Double, _ py: Double, _ a: (Double, Double), _ b: (Double, Double)) -> Double {
        var x = a.0, y = a.1
        let dx = b.0 - x, dy = b.1 - y
        if dx != 0 || dy != 0 {
            let t = ((px - x) * dx + (py - y) * dy) / (dx * dx + dy * dy)
            if t > 1 { x = b.0; y = b.1 } else if t > 0 { x += dx * t; y += dy * t }
        }
        return (px - x) * (px - x) + (py - y) * (py - y)
    }

    /// A max-heap of cells by their potential (`max`); ties go to the cell pushed first, so
    /// the answer does not depend on anything but the rings.
    private struct Heap {
        private var items: [(cell: Cell, order: Int)] = []
        private var pushed = 0
        var count: Int { items.count }

        private func above(_ i: Int, _ j: Int) -> Bool {
            items[i].cell.max != items[j].cell.max ? items[i].cell.max > items[j].cell.max : items[i].order < items[j].order
        }

        mutating func push(_ cell: Cell) {
            items.append((cell, pushed))
            pushed += 1
            var i = items.count - 1
            while i > 0, above(i, (i - 1) / 2) {
                items.swapAt(i, (i - 1) / 2)
                i = (i - 1) / 2
            }
        }

        mutating func pop() -> Cell? {
            guard !items.isEmpty else { return nil }
            let top = items[0].cell
            let last = items.removeLast()
            if !items.isEmpty {
                items[0] = last
                var i = 0
                while true {
                    let l = 2 * i + 1, r = l + 1
                    var m = i
                    if l < items.count, above(l, m) { m = l }
                    if r < items.count, above(r, m) { m = r }
                    if m == i { break }
                    items.swapAt(i, m)
                    i = m
                }
            }
            return top
        }
    }
}
