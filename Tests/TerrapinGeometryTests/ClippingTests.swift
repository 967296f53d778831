import Testing
import TerrapinGeometry

@Suite struct ClippingTests {
    /// A line is cut to the square, so a piece from beyond it starts on its edge; a line wholly
    /// outside leaves nothing, one wholly inside is kept whole.
    @Test func linesAreCutWhereTheyLeaveTheSquare() {
        let line: [SIMD2<Double>] = [[-100, 100], [200, 100], [200, 5000], [300, 5000], [300, 200]]
        let pieces = clipLine(line, 0, 4096)
        #expect(pieces == [[[0, 100], [200, 100], [200, 4096]], [[300, 4096], [300, 200]]])
        #expect(clipLine([[5000, 5000], [6000, 6000]], 0, 4096).isEmpty)
        #expect(clipLine([[10, 10], [20, 20]], 0, 4096) == [[[10, 10], [20, 20]]])
        // Out and back in: two pieces, the second starting on the edge it re-enters by.
        #expect(clipLine([[10, 10], [-10, 10], [-10, 20], [10, 20]], 0, 100) == [[[10, 10], [0, 10]], [[0, 20], [10, 20]]])
        // A single point is no piece.
        #expect(clipLine([[5, 5]], 0, 100).isEmpty)
    }

    /// A ring is clipped to the square on both axes, its closing point dropped, and a ring outside
    /// it leaves nothing.
    @Test func ringsAreClippedToTheSquare() {
        let square: [SIMD2<Double>] = [[-10, -10], [50, -10], [50, 50], [-10, 50], [-10, -10]]
        #expect(clipRing(square, 0, 100) == [[0, 0], [50, 0], [50, 50], [0, 50]])
        let diamond: [SIMD2<Double>] = [[50, -20], [120, 50], [50, 120], [-20, 50]]
        let clipped = clipRing(diamond, 0, 100)
        #expect(clipped.count == 8 && clipped.allSatisfy { $0.x >= 0 && $0.x <= 100 && $0.y >= 0 && $0.y <= 100 })
        // Its area: the square less four corner triangles of legs 30.
        let area = zip(clipped, clipped.dropFirst() + [clipped[0]]).reduce(0.0) { $0 + ($1.0.x * $1.1.y - $1.1.x * $1.0.y) } / 2
        let expected: Double = 10_000 - 4 * 450
        #expect(abs(area) == expected)
        #expect(clipRing([[200, 200], [300, 200], [300, 300]], 0, 100).isEmpty)
    }
}
