// Triangulation of polygons with holes: each hole joined to the outline by a bridge from its
// rightmost vertex to the nearest outline vertex it can see, then ear clipping. Building roofs
// and extruded polygons' tops use it.

public enum Triangulation {
    /// Triangles, as indices into the rings' points taken in order (outer ring first, then the
    /// holes), each counter-clockwise (y up), covering the outer ring minus the holes, whatever
    /// the rings' windings. Rings that are not simple are triangulated as far as they can be
    /// (what remains is left open rather than drawn wrongly). Cubic at worst: callers bound the
    /// number of points.
    public static func triangulate(_ rings: [[Point]]) -> [Int] {
        var points: [Point] = []
        var ringIndices: [[Int]] = []
        for ring in rings {
            ringIndices.append(Array(points.count..<(points.count + ring.count)))
            points += ring
        }
        func signedArea(_ r: [Int]) -> Double {
            var a = 0.0
            for k in r.indices { let p = points[r[k]], q = points[r[(k + 1) % r.count]]; a += p.x * q.y - q.x * p.y }
            return a / 2
        }
        guard var outline = ringIndices.first, outline.count >= 3 else { return [] }
        if signedArea(outline) < 0 { outline.reverse() }
        var holes = ringIndices.dropFirst().filter { $0.count >= 3 }.map { signedArea($0) > 0 ? Array($0.reversed()) : $0 }
        // Rightmost holes first, each bridged to the nearest outline vertex to its right that the
        // bridge can reach without crossing an edge.
        holes.sort { h1, h2 in h1.map { points[$0].x }.max()! > h2.map { points[$0].x }.max()! }
        func side(_ o: Point, _ u: Point, _ v: Point) -> Double { (u.x - o.x) * (v.y - o.y) - (u.y - o.y) * (v.x - o.x) }
        func crosses(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Bool {
            let d1 = side(c, d, a), d2 = side(c, d, b), d3 = side(a, b, c), d4 = side(a, b, d)
            return (d1 > 0) != (d2 > 0) && (d3 > 0) != (d4 > 0) && d1 != 0 && d2 != 0 && d3 != 0 && d4 != 0
        }
        for (h, hole) in holes.enumerated() {
            let m = hole.indices.max { points[hole[$0]].x < points[hole[$1]].x }!
            let mp = points[hole[m]]
            let others = Array(holes[(h + 1)...])
            var best: Int?
            var bestDistance = Double.infinity
            for (k, v) in outline.enumerated() {
                let p = points[v]
                guard p.x >= mp.x else { continue }
                let d = (p.x - mp.x) * (p.x - mp.x) + (p.y - mp.y) * (p.y - mp.y)
                guard d < bestDistance else { continue }
                var blocked = false
                for ring in [outline] + others + [hole] where !blocked {
                    for e in ring.indices where crosses(mp, p, points[ring[e]], points[ring[(e + 1) % ring.count]]) { blocked = true; break }
                }
                if !blocked { best = k; bestDistance = d }
            }
            guard let b = best else { continue }   // no visible vertex: the hole is left out
            let rotated = Array(hole[m...] + hole[..<m])
            outline = Array(outline[...b]) + rotated + [rotated[0], outline[b]] + Array(outline[(b + 1)...])
        }
        // Ear clipping.
        var remaining = outline
        var out: [Int] = []
        var guardCount = 0
        while remaining.count > 3 && guardCount < 4 * outline.count * outline.count {
            guardCount += 1
            var clipped = false
            for k in remaining.indices {
                let ia = remaining[(k + remaining.count - 1) % remaining.count], ib = remaining[k], ic = remaining[(k + 1) % remaining.count]
                let a = points[ia], b = points[ib], c = points[ic]
                guard side(a, b, c) > 0 else { continue }
                // No other vertex (bridge duplicates at the same place excluded) strictly inside.
                let blocked = remaining.contains { j in
                    let p = points[j]
                    if p == a || p == b || p == c { return false }
                    return side(a, b, p) > 0 && side(b, c, p) > 0 && side(c, a, p) > 0
                }
                if blocked { continue }
                out += [ia, ib, ic]
                remaining.remove(at: k)
                clipped = true
                break
            }
            if !clipped { break }
        }
        if remaining.count == 3, side(points[remaining[0]], points[remaining[1]], points[remaining[2]]) > 0 { out += remaining }
        return out
    }
}
