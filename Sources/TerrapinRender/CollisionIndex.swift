// The one collision index of a resolved map: every box that takes part in collision — marker
// content with its Marker3D label, basemap labels — goes into one uniform grid, tagged with
// its class, and every rule asks it the same question: which shown box of this class overlaps
// mine first?
//
// The SDK's rules, in the order resolve applies them:
// 1. `requiredAndHidesOptional` markers go in first (always shown).
// 2. `optionalAndHidesLowerPriority` markers, by priority, zIndex, lower on screen, declaration
//    order: each is shown only if it overlaps no marker already in; shown ones go in.
// 3. Basemap labels (the lowest class): hidden under any marker in the index (plain `required`
//    markers are never in it, so they hide nothing), then among themselves by importance, lower
//    on screen, declaration order.
// Overlap is of positive area; ties between several overlapping boxes name the lowest index,
// so the printed reasons do not depend on the grid.
import TerrapinGeometry

struct CollisionIndex {
    enum Occupant: UInt8 { case marker, label }

    private struct Entry {
        let box: Rect
        let id: Int
        let occupant: Occupant
    }

    let cellSize: Double
    let originX: Double, originY: Double
    let columns: Int, rows: Int
    private var cells: [[Entry]]

    /// A grid over `bounds` (boxes beyond it fall in its border cells, so they still collide).
    init(cellSize: Double = 64, bounds: Rect) {
        self.cellSize = cellSize
        originX = bounds.minX.isFinite ? bounds.minX : 0
        originY = bounds.minY.isFinite ? bounds.minY : 0
        columns = max(1, min(4096, Int(saturating: (bounds.width / cellSize).rounded(.up)) + 1))
        rows = max(1, min(4096, Int(saturating: (bounds.height / cellSize).rounded(.up)) + 1))
        cells = [[Entry]](repeating: [], count: columns * rows)
    }

    @inline(__always)
    private func range(_ lo: Double, _ hi: Double, _ origin: Double, _ count: Int) -> ClosedRange<Int> {
        let a = Int(max(0, min(Double(count - 1), ((lo - origin) / cellSize).rounded(.down))))
        let b = Int(max(0, min(Double(count - 1), ((hi - origin) / cellSize).rounded(.down))))
        return a...b
    }

    mutating func insert(_ r: Rect, id: Int, as occupant: Occupant) {
        for y in range(r.minY, r.maxY, originY, rows) {
            for x in range(r.minX, r.maxX, originX, columns) { cells[y * columns + x].append(Entry(box: r, id: id, occupant: occupant)) }
        }
    }

    /// The lowest id of `occupant`'s boxes that overlap `r` (positive area), or nil.
    func firstOverlap(_ r: Rect, among occupant: Occupant) -> Int? {
        var best: Int? = nil
        for y in range(r.minY, r.maxY, originY, rows) {
            for x in range(r.minX, r.maxX, originX, columns) {
                for e in cells[y * columns + x] where e.occupant == occupant
                    && e.box.minX < r.maxX && r.minX < e.box.maxX && e.box.minY < r.maxY && r.minY < e.box.maxY {
                    best = min(best ?? e.id, e.id)
                }
            }
        }
        return best
    }
}
