// Rows of levels (an image's alpha, a mask's coverage) split into runs: zero runs are skipped
// (not stored), full (255) runs and partial runs are kept apart, so drawing copies or fills
// the full ones and blends only the rest. Shared by `Sprite` and `CoverageSprite`.

struct LevelRun: Sendable {
    let x: Int32, length: Int32
    /// Every level in the run is 255 (otherwise every level is 1…254).
    let full: Bool
}

enum LevelRuns {
    /// The runs of every row, row by row; row r's are `runs[rowStart[r]..<rowStart[r + 1]]`.
    /// `level(i)` is the level at index `i` (row-major, `width` a row).
    @inline(__always)
    static func split(width: Int, height: Int, level: (Int) -> UInt32) -> (runs: [LevelRun], rowStart: [Int]) {
        var runs: [LevelRun] = [], rowStart: [Int] = [0]
        for y in 0..<height {
            let row = y * width
            var x = 0
            while x < width {
                let c = level(row + x)
                var end = x + 1
                if c == 0 {
                    while end < width, level(row + end) == 0 { end += 1 }
                } else {
                    let full = c == 255
                    while end < width, level(row + end) != 0, (level(row + end) == 255) == full { end += 1 }
                    runs.append(LevelRun(x: Int32(x), length: Int32(end - x), full: full))
                }
                x = end
            }
            rowStart.append(runs.count)
        }
        return (runs, rowStart)
    }
}
