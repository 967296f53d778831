// Clipping to an axis-aligned square: lines by Liang–Barsky, rings by Sutherland–Hodgman.
// Tile clipping (GeoJSON sources, as geojson-vt clips) and line labels (cut to their tile)
// use these; nothing else here knows what a tile is.

/// A line cut to the square `lo…hi` on both axes: the pieces of it inside, each running from
/// where it enters to where it leaves (a piece that enters starts on the edge). Segments are
/// cut by Liang–Barsky; a piece of fewer than two points is dropped.
public func clipLine(_ line: [SIMD2<Double>], _ lo: Double, _ hi: Double) -> [[SIMD2<Double>]] {
    var pieces: [[SIMD2<Double>]] = [], current: [SIMD2<Double>] = []
    for i in 1..<max(1, line.count) {
        let a = line[i - 1], b = line[i], d = b - a
        // The part of the segment inside the square, as parameters t0…t1.
        var t0 = 0.0, t1 = 1.0
        var visible = true
        for axis in 0..<2 {
            for (p, q) in [(-d[axis], a[axis] - lo), (d[axis], hi - a[axis])] {
                if p == 0 {
                    if q < 0 { visible = false }
                } else {
                    let r = q / p
                    if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
                }
            }
        }
        guard visible, t0 <= t1 else {
            if current.count >= 2 { pieces.append(current) }
            current = []
            continue
        }
        let start = a + d * t0, end = a + d * t1
        if current.isEmpty || t0 > 0 {
            if current.count >= 2 { pieces.append(current) }
            current = [start]
        }
        current.append(end)
        if t1 < 1 {
            pieces.append(current)
            current = []
        }
    }
    if current.count >= 2 { pieces.append(current) }
    return pieces
}

/// A ring clipped to the square `lo…hi` on both axes (Sutherland–Hodgman), without its
/// closing point; empty where nothing of it is inside.
public func clipRing(_ ring: [SIMD2<Double>], _ lo: Double, _ hi: Double) -> [SIMD2<Double>] {
    var points = ring
    if let first = points.first, let last = points.last, first == last, points.count > 1 { points.removeLast() }
    for axis in 0..<2 {
        for (bound, keepAbove) in [(lo, true), (hi, false)] {
            guard !points.isEmpty else { return [] }
            var out: [SIMD2<Double>] = []
            out.reserveCapacity(points.count + 4)
            @inline(__always) func inside(_ p: SIMD2<Double>) -> Bool { keepAbove ? p[axis] >= bound : p[axis] <= bound }
            var previous = points[points.count - 1]
            for p in points {
                let pIn = inside(p), prevIn = inside(previous)
                if pIn != prevIn {
                    let t = (bound - previous[axis]) / (p[axis] - previous[axis])
                    var cut = previous + (p - previous) * t
                    cut[axis] = bound
                    out.append(cut)
                }
                if pIn { out.append(p) }
                previous = p
            }
            points = out
        }
    }
    return points
}
