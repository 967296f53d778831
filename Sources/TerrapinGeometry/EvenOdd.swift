// Point in polygon by the even-odd rule: the one test behind taps on filled shapes, buildings'
// footprints and courtyards, and a building hiding a label. A ray to +x toggles at each edge it
// crosses; rings of fewer than three points have no inside.

public enum EvenOdd {
    /// Whether (`x`, `y`) is inside `rings` (an outer ring and its holes, each closed
    /// implicitly), with `xy` giving a vertex's coordinates.
    @inlinable
    public static func contains<Vertex>(_ x: Double, _ y: Double, rings: [[Vertex]], xy: (Vertex) -> (x: Double, y: Double)) -> Bool {
        var inside = false
        for ring in rings where ring.count >= 3 {
            var j = ring.count - 1
            for i in ring.indices {
                let a = xy(ring[i]), b = xy(ring[j])
                if (a.y > y) != (b.y > y), x < a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
                j = i
            }
        }
        return inside
    }

    /// Whether `p` is inside `rings`.
    @inlinable
    public static func contains(_ p: Point, rings: [[Point]]) -> Bool {
        contains(p.x, p.y, rings: rings) { ($0.x, $0.y) }
    }
}
