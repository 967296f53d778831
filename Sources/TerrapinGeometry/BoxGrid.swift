// A uniform grid over axis-aligned boxes in a plane: which boxes a point or a segment may meet,
// without testing every box.
//
// Design contract
// - A box is listed in every cell its bounds overlap, edges included; cells are found by one
//   monotonic function of a coordinate, so a point inside a box (edges included) lies in a cell
//   that lists it, and a segment that meets a box passes through such a cell.
// - A query answers a superset of the boxes that can matter, some more than once: the caller's
//   exact test decides, so an answer made through the grid is the one every box tested would
//   give (the order boxes are offered in is the grid's; callers ask "any" or "the most", which
//   do not depend on it).
// - Coordinates outside the grid fall into its edge cells; a query with a non-finite coordinate
//   offers every box once.
// - Rejected: a tree (a uniform grid is built in one pass and its cells are found by arithmetic;
//   building footprints and the like are spread evenly enough).

/// Axis-aligned boxes in a plane, bucketed by a uniform grid of about one box a cell.
public struct BoxGrid: Sendable {
    public typealias Box = (minX: Double, minY: Double, maxX: Double, maxY: Double)

    /// Most cells along either axis.
    public static let maxCellsPerAxis = 1_024

    let count: Int
    let originX: Double, originY: Double
    /// A cell's side, in the boxes' units (> 0).
    let cell: Double
    let columns: Int, rows: Int
    /// Cell k lists `entries[starts[k]..<starts[k + 1]]` (cells row by row).
    let starts: [Int]
    let entries: [Int32]

    /// Most entries (a box in a cell) a grid holds beyond one a box: boxes spread over many
    /// cells each (a hostile input's, or a few huge ones) are bucketed in one cell instead,
    /// and every query offers every box, as a scan would.
    public static let maxExtraEntries = 1 << 20

    public init(_ boxes: [Box]) {
        count = boxes.count
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for b in boxes where Self.isBox(b) {
            minX = min(minX, b.minX); minY = min(minY, b.minY); maxX = max(maxX, b.maxX); maxY = max(maxY, b.maxY)
        }
        let width = maxX - minX, height = maxY - minY
        // About one box a cell, square cells, at most `maxCellsPerAxis` along either side.
        var cell = (width * height / Double(max(1, boxes.count))).squareRoot()
        cell = max(cell, max(width, height) / Double(Self.maxCellsPerAxis), 1e-12)
        var columns = 1, rows = 1
        if minX <= maxX, minY <= maxY, cell.isFinite {
            columns = min(Self.maxCellsPerAxis, Int((width / cell).rounded(.down)) + 1)
            rows = min(Self.maxCellsPerAxis, Int((height / cell).rounded(.down)) + 1)
        } else {
            minX = 0; minY = 0; cell = 1
        }
        // Each box's cells (nil: not a box, listed everywhere, for the caller's test to decide).
        var ranges = boxes.map { b -> (x0: Int, y0: Int, x1: Int, y1: Int)? in
            guard Self.isBox(b) else { return nil }
            return (Self.index(b.minX, minX, cell, columns), Self.index(b.minY, minY, cell, rows),
                    Self.index(b.maxX, minX, cell, columns), Self.index(b.maxY, minY, cell, rows))
        }
        let total = ranges.reduce(0) { $0 + ($1.map { ($0.x1 - $0.x0 + 1) * ($0.y1 - $0.y0 + 1) } ?? columns * rows) }
        if total > boxes.count + Self.maxExtraEntries {
            columns = 1; rows = 1
            ranges = ranges.map { _ in (0, 0, 0, 0) }
        }
        originX = minX
        originY = minY
        self.cell = cell
        self.columns = columns
        self.rows = rows
        // Counted, then filled (compressed rows).
        var counts = [Int](repeating: 0, count: columns * rows + 1)
        for r in ranges {
            let (x0, y0, x1, y1) = r ?? (0, 0, columns - 1, rows - 1)
            for y in y0...y1 { for x in x0...x1 { counts[y * columns + x + 1] += 1 } }
        }
        for k in 1..<counts.count { counts[k] += counts[k - 1] }
        var next = counts
        var entries = [Int32](repeating: 0, count: counts[columns * rows])
        for (i, r) in ranges.enumerated() {
            let (x0, y0, x1, y1) = r ?? (0, 0, columns - 1, rows - 1)
            for y in y0...y1 {
                for x in x0...x1 {
                    let k = y * columns + x
                    entries[next[k]] = Int32(i)
                    next[k] += 1
                }
            }
        }
        starts = counts
        self.entries = entries
    }

    static func isBox(_ b: Box) -> Bool {
        b.minX.isFinite && b.minY.isFinite && b.maxX.isFinite && b.maxY.isFinite && b.minX <= b.maxX && b.minY <= b.maxY
    }

    /// The cell along one axis holding `v` (monotonic in `v`; beyond the grid, its edge cell).
    @inline(__always)
    static func index(_ v: Double, _ origin: Double, _ cell: Double, _ n: Int) -> Int {
        let t = ((v - origin) / cell).rounded(.down)
        guard t > 0 else { return 0 }
        return t >= Double(n - 1) ? n - 1 : Int(t)
    }

    /// Offers `body` each box listed in the cell holding (`x`, `y`) until it returns true;
    /// true if it did.
    @discardableResult
    public func first(near x: Double, _ y: Double, where body: (Int) -> Bool) -> Bool {
        guard x.isFinite, y.isFinite else { return everyBox(body) }
        return cellBoxes(Self.index(x, originX, cell, columns), Self.index(y, originY, cell, rows), body)
    }

    /// Offers `body` each box listed in a cell the segment from `a` to `b` passes through (the
    /// cells met by its span in each row it crosses, widened by a hair against rounding), until
    /// it returns true; true if it did.
    @discardableResult
    public func first(along a: (x: Double, y: Double), _ b: (x: Double, y: Double), where body: (Int) -> Bool) -> Bool {
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return everyBox(body) }
        let lowY = min(a.y, b.y), highY = max(a.y, b.y)
        let r0 = Self.index(lowY, originY, cell, rows), r1 = Self.index(highY, originY, cell, rows)
        // A hair: a thousandth of a cell, against the rounding of the span's ends.
        let hair = cell * 1e-3
        for r in r0...r1 {
            // The row's band (edge rows reach on past the grid), met by the segment.
            let bandLow = r == 0 ? -Double.infinity : originY + Double(r) * cell
            let bandHigh = r == rows - 1 ? Double.infinity : originY + Double(r + 1) * cell
            // (Widened by the hair too: a point the grid puts in this row lies in its band but
            // for rounding, and along a nearly level segment a hair in y is far in x.)
            let y0 = max(lowY, bandLow - hair), y1 = min(highY, bandHigh + hair)
            var x0: Double, x1: Double
            if a.y == b.y {
                x0 = min(a.x, b.x); x1 = max(a.x, b.x)
            } else {
                let slope = (b.x - a.x) / (b.y - a.y)
                let xa = a.x + (y0 - a.y) * slope, xb = a.x + (y1 - a.y) * slope
                x0 = min(xa, xb); x1 = max(xa, xb)
                // Never past the segment's own ends.
                x0 = max(x0, min(a.x, b.x)); x1 = min(x1, max(a.x, b.x))
            }
            let c0 = Self.index(x0 - hair, originX, cell, columns), c1 = Self.index(x1 + hair, originX, cell, columns)
            for c in min(c0, c1)...max(c0, c1) where cellBoxes(c, r, body) { return true }
        }
        return false
    }

    @inline(__always)
    func cellBoxes(_ x: Int, _ y: Int, _ body: (Int) -> Bool) -> Bool {
        let k = y * columns + x
        for e in starts[k]..<starts[k + 1] where body(Int(entries[e])) { return true }
        return false
    }

    func everyBox(_ body: (Int) -> Bool) -> Bool {
        for i in 0..<count where body(i) { return true }
        return false
    }
}
