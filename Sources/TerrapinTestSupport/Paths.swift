// Small shapes the drawing tests build their pictures from.
import TerrapinGeometry

/// A closed polygon through `points`.
public func polygon(_ points: [Point]) -> Path {
    var b = PathBuilder()
    b.move(to: points[0])
    for p in points.dropFirst() { b.line(to: p) }
    b.close()
    return b.build()
}
