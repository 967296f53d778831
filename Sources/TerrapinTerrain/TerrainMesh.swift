// The terrain mesh's level of detail by distance.
//
// The grid is cut into square blocks of `blockCells` cells (32, or more for grids over 2048
// samples a side, so there are at most 64 × 64 blocks). Each block takes every s-th sample, s a
// power of two up to the block size, the largest for which a mesh cell spans at most 2√2 device
// pixels at the block's nearest point (its nearest depth, over the box of its corners between
// its lowest and highest sample; a cell's length is its plan size lengthened by the block's
// steepest rise between samples, as a slope facing the eye shows it): near blocks take every
// sample, far ones few, so triangles are about 2 pixels wide wherever they are. Blocks whose box
// projects wholly outside the frame, or lies behind the near plane, are not drawn.
//
// Neighbouring blocks of different steps meet without cracks: along a shared edge the finer
// block's vertices that the coarser one lacks are moved onto the coarser edge (their position,
// colour and image position interpolated between its two vertices around them), so both sides
// draw the same line. A vertex's hillshade is taken over the largest step of the blocks that
// share it, so both sides give an edge vertex the same colour.
//
// Nested levels (`TerrainGround.detail`): each level is a mesh of its own. A level's blocks inside
// the window the next finer level covers are not drawn, and the seam between them is closed by
// skirts: walls hanging from the finer level's outer edges and from the coarser level's edges
// around the window, as deep as the two sides' chords can part (each side's steepest rise
// between samples times its step, over the blocks along the seam) plus how far the finer edge
// lies from the coarser surface (`TerrainGround.seamMismatch`). The finer level's outermost
// samples are the coarser level's surface (`TileTerrain`), so the two meet where the coarser
// level takes every sample, and the skirts only fill what its coarser steps leave open.
//
// Invariant: everything a vertex gets is a function of its grid position and the steps around
// it, never of the order blocks are visited, so any band of the frame draws the same mesh.
import Terrapin3D
import TerrapinGeo
import TerrapinImagery
import TerrapinTerrainData
import TerrapinGeometry

struct TerrainMesh {
    let grid: HeightGrid
    let exaggeration: Double
    let projection: Projection
    let toDevice: (scale: Double, dx: Double, dy: Double)
    /// Cells a block spans each way.
    let blockCells: Int
    let blocksX: Int, blocksY: Int
    /// Per block: its step (samples between mesh vertices) and whether it is drawn.
    let steps: [Int]
    let visible: [Bool]
    /// Per block: the device rows its box spans (all rows when part of it is behind the eye).
    private(set) var spans: [(top: Double, bottom: Double)]
    /// Per block: its lowest point (metres, exaggerated, the sea at 0).
    private let lows: [Double]
    /// Per block: its highest point and the surface's bulge between its corners (metres).
    private let highs: [Double]
    /// Whether the eye is above the grid's highest sample.
    let eyeAboveTerrain: Bool
    /// Per block corner ((blocksX + 1) × (blocksY + 1)): the largest step of the blocks around it.
    private let cornerSteps: [Int]
    let metresPerDegLat: Double, metresPerDegLon: Double
    /// This level's blocks the next finer level draws instead (nil for the finest).
    let window: GridWindow?
    /// Whether this level lies in a coarser one (its outer edges hang skirts).
    let nested: Bool
    /// Per block: its steepest rise between samples (metres, exaggerated).
    private let rises: [Double]
    /// How deep the skirts hang (metres, exaggerated): from the outer edges and around the window.
    private(set) var skirtDepth: (outer: Double, window: Double) = (0, 0)
    /// The frame's size in device pixels (blocks beyond it are culled).
    let frameWidth: Int, frameHeight: Int

    /// The largest side a mesh cell may span on screen, in device pixels: steps double while
    /// cells stay within it, so cells span 1.4–2.8 pixels (≈ 2) where the grid is fine enough.
    static let cellPixels = 2 * 2.0.squareRoot()

    /// Blocks of at most 32 cells, more for big grids so there are at most 64 a side.
    static func blockCells(columns: Int, rows: Int) -> Int {
        var s = 32
        while (max(columns, rows) - 1 + s - 1) / s > 64 { s *= 2 }
        return s
    }

    /// The mesh of `ground`'s level `level` (0: its coarsest grid).
    init(ground: TerrainGround, level: Int = 0, projection: Projection, toDevice: (scale: Double, dx: Double, dy: Double), frameWidth: Int, frameHeight: Int) {
        let grid = level == 0 ? ground.grid : ground.detail[level - 1]
        self.grid = grid
        let window = level < ground.windows.count ? ground.windows[level] : nil
        self.window = window
        nested = level > 0
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        exaggeration = ground.exaggeration
        self.projection = projection
        self.toDevice = toDevice
        let lat0 = projection.frame.origin.latitude * Double.pi / 180
        metresPerDegLat = 111_132.954 - 559.822 * cos(2 * lat0)
        metresPerDegLon = 111_412.84 * cos(lat0)
        let s = Self.blockCells(columns: grid.columns, rows: grid.rows)
        blockCells = s
        let blocksX = (grid.columns - 1 + s - 1) / s, blocksY = (grid.rows - 1 + s - 1) / s
        self.blocksX = blocksX
        self.blocksY = blocksY
        let ranges = ground.ranges(level: level)
        let highest = Double(ranges.high.max() ?? 0) * exaggeration
        eyeAboveTerrain = projection.frame.origin.altitude + projection.eye.z > highest + 1
        var steps = [Int](repeating: 1, count: blocksX * blocksY)
        var visible = [Bool](repeating: false, count: blocksX * blocksY)
        var spans = [(top: Double, bottom: Double)](repeating: (-.infinity, .infinity), count: blocksX * blocksY)
        var lows = [Double](repeating: 0, count: blocksX * blocksY), highs = lows
        let focal = projection.focalLength * toDevice.scale
        for by in 0..<blocksY {
            for bx in 0..<blocksX {
                let b = by * blocksX + bx
                let (c0, c1) = (bx * s, min((bx + 1) * s, grid.columns - 1)), (r0, r1) = (by * s, min((by + 1) * s, grid.rows - 1))
                let north = grid.northCentre - Double(r0) * grid.cellHeight, south = grid.northCentre - Double(r1) * grid.cellHeight
                let west = grid.westCentre + Double(c0) * grid.cellWidth, east = grid.westCentre + Double(c1) * grid.cellWidth
                // The surface between the corners bulges above their chord by up to d²/8R.
                let spanMetres = Swift.max(north - south, 0) * metresPerDegLat + Swift.max(east - west, 0) * 111_412.84
                let bulge = spanMetres * spanMetres / (8 * 6_356_752) + 1
                let lo = Swift.max(0, Double(ranges.low[b]) * exaggeration), hi = Swift.max(0, Double(ranges.high[b]) * exaggeration) + bulge
                lows[b] = lo
                highs[b] = hi
                let box = Self.box(north: north, south: south, west: west, east: east, low: lo, high: hi, projection: projection, toDevice: toDevice,
                                   frameWidth: frameWidth, frameHeight: frameHeight)
                let nearest = box.nearest
                // Culled when every corner is behind the near plane, or all of them lie beyond
                // one side of the frame (a box in front of the eye projects inside their hull),
                // or the next finer level draws it.
                visible[b] = box.visible && !(window?.contains(block: bx, by) ?? false)
                if let span = box.span { spans[b] = span }
                // One grid cell's longest side, in device pixels at the nearest depth: its plan
                // size, lengthened by the block's steepest rise (a slope facing the eye).
                let midLat = (north + south) / 2 * Double.pi / 180
                let plan = Swift.max(grid.cellHeight * metresPerDegLat, grid.cellWidth * 111_412.84 * Swift.max(0, cos(midLat)))
                let rise = Double(ranges.rise[b]) * exaggeration
                let cellMetres = (plan * plan + rise * rise).squareRoot()
                let cellPixels = nearest > projection.near ? cellMetres * focal / nearest : .infinity
                var step = 1
                while step < s, Double(step * 2) * cellPixels <= Self.cellPixels { step *= 2 }
                steps[b] = step
            }
        }
        // A block the next level draws instead coarsens none of its neighbours' edges: those
        // meet the finer level through skirts.
        if let window {
            for by in window.y0..<window.y1 { for bx in window.x0..<window.x1 { steps[by * blocksX + bx] = 1 } }
        }
        self.steps = steps
        self.visible = visible
        self.spans = spans
        self.lows = lows
        self.highs = highs
        let ex = exaggeration
        rises = ranges.rise.map { Double($0) * ex }
        var cornerSteps = [Int](repeating: 1, count: (blocksX + 1) * (blocksY + 1))
        for by in 0..<blocksY {
            for bx in 0..<blocksX {
                for (cx, cy) in [(bx, by), (bx + 1, by), (bx, by + 1), (bx + 1, by + 1)] {
                    cornerSteps[cy * (blocksX + 1) + cx] = Swift.max(cornerSteps[cy * (blocksX + 1) + cx], steps[by * blocksX + bx])
                }
            }
        }
        self.cornerSteps = cornerSteps
    }

    /// The box of a block (its corners between heights `low` and `high`) seen from the eye: its
    /// nearest depth, whether any of it can be in the frame, and the device rows it spans (nil
    /// when part of it is behind the eye).
    static func box(north: Double, south: Double, west: Double, east: Double, low: Double, high: Double, projection: Projection,
                    toDevice: (scale: Double, dx: Double, dy: Double), frameWidth: Int, frameHeight: Int)
        -> (nearest: Double, visible: Bool, span: (top: Double, bottom: Double)?) {
        let eye = projection.eye, forward = projection.forward
        var nearest = Double.infinity, behind = 0, outside = (left: 0, right: 0, top: 0, bottom: 0)
        var top = Double.infinity, bottom = -Double.infinity
        for lat in [north, south] {
            for lon in [west, east] {
                let surface = Ellipsoid.Surface(LatLngAltitude(latitude: lat, longitude: lon))
                for h in [low, high] {
                    let p = projection.frame.enu(surface, height: h)
                    nearest = Swift.min(nearest, (p - eye).dot(forward))
                    guard let q = projection.project(enu: p) else { behind += 1; continue }
                    let x = q.x * toDevice.scale + toDevice.dx, y = q.y * toDevice.scale + toDevice.dy
                    top = Swift.min(top, y); bottom = Swift.max(bottom, y)
                    if x < 0 { outside.left += 1 }
                    if x > Double(frameWidth) { outside.right += 1 }
                    if y < 0 { outside.top += 1 }
                    if y > Double(frameHeight) { outside.bottom += 1 }
                }
            }
        }
        let visible = behind < 8 && !(behind == 0 && [outside.left, outside.right, outside.top, outside.bottom].contains(8)) && nearest.isFinite
        return (nearest, visible, behind == 0 ? (top, bottom) : nil)
    }

    /// Which edges of block (bx, by) hang skirts: the level's outer edges when it is nested, and
    /// the edges facing the window.
    func skirtEdges(_ bx: Int, _ by: Int) -> (north: Bool, south: Bool, west: Bool, east: Bool) {
        var edges = (north: nested && by == 0, south: nested && by == blocksY - 1, west: nested && bx == 0, east: nested && bx == blocksX - 1)
        if let w = window, !w.contains(block: bx, by) {
            let across = w.x0..<w.x1 ~= bx, along = w.y0..<w.y1 ~= by
            edges.north = edges.north || (across && by == w.y1)
            edges.south = edges.south || (across && by == w.y0 - 1)
            edges.west = edges.west || (along && bx == w.x1)
            edges.east = edges.east || (along && bx == w.x0 - 1)
        }
        return edges
    }

    /// How far this level's chords can part from its samples along its seams (metres,
    /// exaggerated): the steepest rise times the step, over the visible blocks along the outer
    /// edges (nested levels) and around the window.
    var seamReach: (outer: Double, window: Double) {
        var outer = 0.0, around = 0.0
        for by in 0..<blocksY {
            for bx in 0..<blocksX where visible[by * blocksX + bx] {
                let b = by * blocksX + bx, reach = rises[b] * Double(steps[b])
                if nested && (bx == 0 || by == 0 || bx == blocksX - 1 || by == blocksY - 1) { outer = max(outer, reach) }
                if let w = window, !w.contains(block: bx, by), bx >= w.x0 - 1, bx <= w.x1, by >= w.y0 - 1, by <= w.y1 { around = max(around, reach) }
            }
        }
        return (outer, around)
    }

    /// Sets the skirts' depths, and widens the device rows of the blocks that hang them.
    mutating func hangSkirts(outer: Double, window: Double) {
        skirtDepth = (outer, window)
        guard outer > 0 || window > 0 else { return }
        let s = blockCells
        for by in 0..<blocksY {
            for bx in 0..<blocksX where visible[by * blocksX + bx] {
                let e = skirtEdges(bx, by)
                guard e.north || e.south || e.west || e.east else { continue }
                let b = by * blocksX + bx
                let depth = max(outer, window)
                let (c0, c1) = (bx * s, min((bx + 1) * s, grid.columns - 1)), (r0, r1) = (by * s, min((by + 1) * s, grid.rows - 1))
                let north = grid.northCentre - Double(r0) * grid.cellHeight, south = grid.northCentre - Double(r1) * grid.cellHeight
                let west = grid.westCentre + Double(c0) * grid.cellWidth, east = grid.westCentre + Double(c1) * grid.cellWidth
                let box = Self.box(north: north, south: south, west: west, east: east, low: lows[b] - depth, high: lows[b],
                                   projection: projection, toDevice: toDevice, frameWidth: frameWidth, frameHeight: frameHeight)
                if let span = box.span, spans[b].top.isFinite {
                    spans[b] = (min(spans[b].top, span.top), max(spans[b].bottom, span.bottom))
                } else {
                    spans[b] = (-.infinity, .infinity)
                }
            }
        }
    }

    /// Each block's lowest and highest sample and the largest rise between neighbouring samples
    /// (its edges included).
    static func blockRanges(_ grid: HeightGrid, blockCells s: Int, blocksX: Int, blocksY: Int) -> BlockRanges {
        var out = BlockRanges(low: [Float](repeating: .infinity, count: blocksX * blocksY), high: [Float](repeating: -.infinity, count: blocksX * blocksY),
                              rise: [Float](repeating: 0, count: blocksX * blocksY))
        var rowLow = [Float](repeating: 0, count: blocksX), rowHigh = [Float](repeating: 0, count: blocksX), rowRise = [Float](repeating: 0, count: blocksX)
        let columns = grid.columns
        grid.samples.withUnsafeBufferPointer { samples in
            for r in 0..<grid.rows {
                let row = samples.baseAddress! + r * columns
                let below = samples.baseAddress! + min(r + 1, grid.rows - 1) * columns
                for bx in 0..<blocksX {
                    var lo = row[bx * s], hi = lo, rise: Float = 0
                    let last = min((bx + 1) * s, columns - 1)
                    for c in (bx * s)...last {
                        let h = row[c]
                        lo = Swift.min(lo, h); hi = Swift.max(hi, h)
                        rise = Swift.max(rise, abs(below[c] - h), abs(row[Swift.min(c + 1, last)] - h))
                    }
                    rowLow[bx] = lo; rowHigh[bx] = hi; rowRise[bx] = rise
                }
                // A row on a block boundary belongs to the blocks on both sides (the rise down
                // from it only to the block below).
                for by in Swift.max(0, (r - 1) / s)...Swift.min(blocksY - 1, r / s) where r >= by * s && r <= (by + 1) * s {
                    for bx in 0..<blocksX {
                        let b = by * blocksX + bx
                        out.low[b] = Swift.min(out.low[b], rowLow[bx])
                        out.high[b] = Swift.max(out.high[b], rowHigh[bx])
                        if r < (by + 1) * s { out.rise[b] = Swift.max(out.rise[b], rowRise[bx]) }
                    }
                }
            }
        }
        return out
    }

    struct BlockRanges: Sendable {
        var low: [Float], high: [Float]
        /// Metres.
        var rise: [Float]
    }

    /// A block's mesh: vertices on a `columns` × `rows` lattice, row-major from the north-west.
    /// Only lattice rows `firstRow...lastRow` are made when the block is made for a band of the
    /// frame it reaches beyond: its strips (the triangles between two lattice rows) from
    /// `firstRow` up to `lastRow` are the ones that can reach into the band.
    struct Block {
        var columns = 0, rows = 0
        var firstRow = 0, lastRow = 0
        /// Device position and depth; nil behind the near plane.
        var screen: [(Double, Double, Double)?] = []
        /// `screen` on the rasteriser's lattice.
        var points: [DepthRaster.MeshPoint] = []
        /// Elevation, hillshade and haze.
        var colour: [SIMD3<Float>] = []
        /// Image position in full-resolution pixels from the imagery's origin (empty without imagery).
        var texel: [SIMD2<Float>] = []
        fileprivate var enu: [Vector3] = []
        /// Skirt triangles (vertex indices; the skirts' lower vertices follow the lattice's).
        var skirts: [(Int, Int, Int)] = []
    }

    /// The lattice of a block's step along one axis: every `step`-th index from `start`, and `end`.
    static func lattice(_ start: Int, _ end: Int, _ step: Int) -> [Int] {
        var out = Array(stride(from: start, to: end, by: step))
        out.append(end)
        return out
    }

    /// Fills `block` with block `b`'s vertices. `imagery` (with its texel origin) gives image
    /// positions; `style` the hillshade; `hazeDistance` the haze. With `band` (device rows, top
    /// and bottom) only the lattice rows whose strips can reach into it are made; false when
    /// none can.
    @discardableResult
    func vertices(of b: Int, style: TerrainStyle, hazeDistance: Double, imagery: Imagery?, origin: (x: Double, y: Double),
                  band: (top: Double, bottom: Double)? = nil, into block: inout Block) -> Bool {
        let s = blockCells, bx = b % blocksX, by = b / blocksX, step = steps[b]
        let cs = Self.lattice(bx * s, min((bx + 1) * s, grid.columns - 1), step)
        let rs = Self.lattice(by * s, min((by + 1) * s, grid.rows - 1), step)
        let nc = cs.count, nr = rs.count
        block.columns = nc
        block.rows = nr
        // The steps of the four neighbours (this block's own where there is none).
        func neighbour(_ dx: Int, _ dy: Int) -> Int {
            let x = bx + dx, y = by + dy
            return x >= 0 && x < blocksX && y >= 0 && y < blocksY ? max(step, steps[y * blocksX + x]) : step
        }
        let north = neighbour(0, -1), south = neighbour(0, 1), west = neighbour(-1, 0), east = neighbour(1, 0)
        let edges = skirtEdges(bx, by)
        let hangs = (edges.north || edges.south || edges.west || edges.east) && (skirtDepth.outer > 0 || skirtDepth.window > 0)
        // Per column and row: the trigonometry and image position (separable in both).
        let lons = cs.map { grid.westCentre + Double($0) * grid.cellWidth }
        let lats = rs.map { grid.northCentre - Double($0) * grid.cellHeight }
        let cosLon = lons.map { cos($0 * Double.pi / 180) }, sinLon = lons.map { sin($0 * Double.pi / 180) }
        let sinLat = lats.map { sin($0 * Double.pi / 180) }, cosLat = lats.map { cos($0 * Double.pi / 180) }
        let earth = projection.frame.ellipsoid
        let radius = sinLat.map { earth.a / (1 - earth.e2 * $0 * $0).squareRoot() }
        let frame = projection.frame
        /// The point of lattice row `j` and column `i` at `height` metres (east, north, up).
        @inline(__always) func point(_ j: Int, _ i: Int, _ height: Double) -> Vector3 {
            let r = radius[j] * cosLat[j] + height * cosLat[j]
            return frame.enu(ecef: Vector3(r * cosLon[i], r * sinLon[i], radius[j] * (1 - earth.e2) * sinLat[j] + height * sinLat[j]))
        }
        // Blocks that hang skirts are made whole (their skirts run along every row).
        guard let rows = hangs ? (0, nr - 1) : strips(of: b, rows: nr, band: band, columns: nc, point: point) else { return false }
        // A side snapped onto a coarser neighbour takes its vertices from the coarse rows around
        // each made row: the made rows widen to them.
        let k = max(west, east) / step
        let first = rows.0 / k * k, last = min(nr - 1, (rows.1 + k - 1) / k * k)
        block.firstRow = first
        block.lastRow = last
        let n = nc * nr
        // The arrays take the block's size, their storage and the last block's values kept:
        // every made row's entries are written below, and nothing reads the others.
        @inline(__always) func resize<T>(_ array: inout [T], _ count: Int, _ value: T) {
            if array.count > count { array.removeLast(array.count - count) }
            if array.count < count { array.append(contentsOf: repeatElement(value, count: count - array.count)) }
        }
        resize(&block.screen, n, nil)
        resize(&block.colour, n, .zero)
        resize(&block.texel, imagery == nil ? 0 : n, .zero)
        resize(&block.enu, n, .zero)
        func corner(_ cx: Int, _ cy: Int) -> Int { cornerSteps[(by + cy) * (blocksX + 1) + bx + cx] }
        let texX = imagery.map { im in lons.map { Float(im.texelX(longitude: $0) - origin.x) } } ?? []
        let texY = imagery.map { im in lats.map { Float(im.texelY(latitude: $0) - origin.y) } } ?? []
        let ex = exaggeration
        let lastRow = grid.rows - 1, lastColumn = grid.columns - 1
        let dx = grid.cellWidth * metresPerDegLon, dy = grid.cellHeight * metresPerDegLat
        let columns = grid.columns
        grid.samples.withUnsafeBufferPointer { samples in
        block.enu.withUnsafeMutableBufferPointer { enu in
        block.colour.withUnsafeMutableBufferPointer { colour in
            @inline(__always) func height(_ r: Int, _ c: Int) -> Double {
                Double(samples[min(max(r, 0), lastRow) * columns + min(max(c, 0), lastColumn)]) * ex
            }
            for j in first...last {
                let gr = rs[j]
                let radiusCos = radius[j] * cosLat[j], polar = radius[j] * (1 - earth.e2) * sinLat[j]
                for i in 0..<nc {
                    let gc = cs[i]
                    let e = Double(samples[gr * columns + gc]) * ex
                    let k = max(0, e)
                    let ecef = Vector3((radiusCos + k * cosLat[j]) * cosLon[i], (radiusCos + k * cosLat[j]) * sinLon[i], polar + k * sinLat[j])
                    let v = j * nc + i
                    enu[v] = frame.enu(ecef: ecef)
                    // The hillshade's step: the largest of the blocks sharing this vertex.
                    let d: Int
                    if j > 0 && j < nr - 1 && i > 0 && i < nc - 1 {
                        d = step
                    } else {
                        switch (j == 0, j == nr - 1, i == 0, i == nc - 1) {
                        case (true, _, true, _): d = corner(0, 0)
                        case (true, _, _, true): d = corner(1, 0)
                        case (_, true, true, _): d = corner(0, 1)
                        case (_, true, _, true): d = corner(1, 1)
                        case (true, _, _, _): d = north
                        case (_, true, _, _): d = south
                        case (_, _, true, _): d = west
                        default: d = east
                        }
                    }
                    // Land is shaded; the sea surface is flat.
                    var shade = 1.0
                    if e >= 0 {
                        if gr >= d && gr + d <= lastRow && gc >= d && gc + d <= lastColumn {
                            // Inside the grid: the eight neighbours without clamping.
                            let up = (gr - d) * columns + gc, here = gr * columns + gc, down = (gr + d) * columns + gc
                            @inline(__always) func at(_ o: Int) -> Double { Double(samples[o]) * ex }
                            shade = style.hillshade(at(up - d), at(up), at(up + d), at(here - d), at(here + d), at(down - d), at(down), at(down + d),
                                                    dxMetres: dx * Double(d), dyMetres: dy * Double(d))
                        } else {
                            shade = style.hillshade(height(gr - d, gc - d), height(gr - d, gc), height(gr - d, gc + d), height(gr, gc - d), height(gr, gc + d),
                                                    height(gr + d, gc - d), height(gr + d, gc), height(gr + d, gc + d),
                                                    dxMetres: dx * Double(d), dyMetres: dy * Double(d))
                        }
                    }
                    colour[v] = SIMD3<Float>(Float(e), Float(shade), 0)
                }
            }
        }
        }
        }
        if imagery != nil {
            for j in first...last { for i in 0..<nc { block.texel[j * nc + i] = SIMD2(texX[i], texY[j]) } }
        }
        // Edges shared with a coarser block: the vertices it lacks move onto its edge.
        func snap(lattice: [Int], coarse: Int, within: ClosedRange<Int>, vertex: (Int) -> Int) {
            guard coarse > step else { return }
            let start = lattice[0], end = lattice[lattice.count - 1]
            let from = max(1, within.lowerBound), to = min(lattice.count - 1, within.upperBound + 1)
            guard from < to else { return }
            for t in from..<to where (lattice[t] - start) % coarse != 0 {
                let a = start + (lattice[t] - start) / coarse * coarse, b = min(a + coarse, end)
                let ia = (a - start) / step, ib = b == end ? lattice.count - 1 : (b - start) / step
                let f = Double(lattice[t] - a) / Double(b - a)
                let v = vertex(t), va = vertex(ia), vb = vertex(ib)
                block.enu[v] = block.enu[va] + (block.enu[vb] - block.enu[va]) * f
                block.colour[v] = block.colour[va] + (block.colour[vb] - block.colour[va]) * Float(f)
                if !block.texel.isEmpty { block.texel[v] = block.texel[va] + (block.texel[vb] - block.texel[va]) * Float(f) }
            }
        }
        if first == 0 { snap(lattice: cs, coarse: north, within: 0...nc - 1) { $0 } }
        if last == nr - 1 { snap(lattice: cs, coarse: south, within: 0...nc - 1) { (nr - 1) * nc + $0 } }
        snap(lattice: rs, coarse: west, within: first...last) { $0 * nc }
        snap(lattice: rs, coarse: east, within: first...last) { $0 * nc + nc - 1 }
        // Skirts: each edge that hangs one gets a copy of its vertices `depth` lower, the same
        // colour and image position, and two triangles per edge cell between them.
        block.skirts.removeAll(keepingCapacity: true)
        func hang(_ top: [Int], depth: Double) {
            guard depth > 0 else { return }
            let first = block.enu.count
            for v in top {
                block.enu.append(block.enu[v] - Vector3(0, 0, depth))
                block.colour.append(block.colour[v])
                block.screen.append(nil)
                if !block.texel.isEmpty { block.texel.append(block.texel[v]) }
            }
            for k in 0..<(top.count - 1) {
                block.skirts.append((top[k], top[k + 1], first + k + 1))
                block.skirts.append((top[k], first + k + 1, first + k))
            }
        }
        let outerNorth = nested && by == 0, outerSouth = nested && by == blocksY - 1
        let outerWest = nested && bx == 0, outerEast = nested && bx == blocksX - 1
        if edges.north { hang(Array(0..<nc), depth: outerNorth ? skirtDepth.outer : skirtDepth.window) }
        if edges.south { hang((0..<nc).map { (nr - 1) * nc + $0 }, depth: outerSouth ? skirtDepth.outer : skirtDepth.window) }
        if edges.west { hang((0..<nr).map { $0 * nc }, depth: outerWest ? skirtDepth.outer : skirtDepth.window) }
        if edges.east { hang((0..<nr).map { $0 * nc + nc - 1 }, depth: outerEast ? skirtDepth.outer : skirtDepth.window) }
        let total = block.enu.count
        resize(&block.points, total, DepthRaster.MeshPoint(nil))
        let projection = self.projection, toDevice = self.toDevice
        block.enu.withUnsafeBufferPointer { enu in
        block.screen.withUnsafeMutableBufferPointer { screen in
        block.points.withUnsafeMutableBufferPointer { points in
        block.colour.withUnsafeMutableBufferPointer { colour in
            @inline(__always) func project(_ vertices: Range<Int>) {
                for v in vertices {
                    guard let q = projection.project(enu: enu[v]) else { screen[v] = nil; points[v] = DepthRaster.MeshPoint(nil); continue }
                    let p = (q.x * toDevice.scale + toDevice.dx, q.y * toDevice.scale + toDevice.dy, q.depth)
                    screen[v] = p
                    // Each vertex on the lattice once, not at each of the six triangles sharing it.
                    points[v] = DepthRaster.MeshPoint(p)
                    colour[v].z = Float(1 - exp(-q.depth / hazeDistance)) * 0.85
                }
            }
            // The made rows, then the skirts' lower vertices.
            project(first * nc..<(last + 1) * nc)
            project(n..<total)
        }
        }
        }
        }
        return true
    }

    /// The first and last of block `b`'s `rows` lattice rows whose strips can reach into `band`:
    /// all of them without a band, or when the block lies within it, or when part of it is
    /// behind the eye; nil when none can. `point(j, i, h)` is lattice row `j`'s vertex `i` at
    /// height `h`. A strip lies within the box of its two rows' end points at the block's lowest
    /// and highest heights, but for the arcs between them bulging off their chords (millimetres):
    /// the device rows of the box's corners, widened by a pixel and by that bulge seen from the box's
    /// nearest corner, bound the strip's. Blocks of four strips or fewer are made whole: bounding
    /// their rows would cost about what it saves.
    func strips(of b: Int, rows nr: Int, band: (top: Double, bottom: Double)?, columns nc: Int,
                point: (Int, Int, Double) -> Vector3) -> (Int, Int)? {
        let span = spans[b]
        guard let band, nr > 4, span.top.isFinite, span.top < band.top || span.bottom >= band.bottom else { return (0, nr - 1) }
        let s = blockCells, bx = b % blocksX, by = b / blocksX
        // An arc of a latitude or meridian across the block off its chord: r·(1 − cos(Δ/2)) ≤ r·Δ²/8
        // (snapped vertices lie on meridian chords).
        let dl = Double(min((bx + 1) * s, grid.columns - 1) - bx * s) * grid.cellWidth * Double.pi / 180
        let dp = Double(min((by + 1) * s, grid.rows - 1) - by * s) * grid.cellHeight * Double.pi / 180
        let bulge = (projection.frame.ellipsoid.a + highs[b]) * (dl * dl + dp * dp) / 8 + 0.01
        let focal = projection.focalLength * toDevice.scale
        let low = lows[b], high = highs[b]
        // Per lattice row: the device rows its four corners span, and their nearest depth.
        var tops = [Double](repeating: 0, count: nr), bottoms = tops, depths = tops
        for j in 0..<nr {
            var top = Double.infinity, bottom = -Double.infinity, depth = Double.infinity
            for i in 0..<2 {
                for h in 0..<2 {
                    guard let q = projection.project(enu: point(j, i * (nc - 1), h == 0 ? low : high)) else { return (0, nr - 1) }
                    let y = q.y * toDevice.scale + toDevice.dy
                    top = Swift.min(top, y); bottom = Swift.max(bottom, y); depth = Swift.min(depth, q.depth)
                }
            }
            tops[j] = top; bottoms[j] = bottom; depths[j] = depth
        }
        var first = -1, last = -1
        for j in 0..<(nr - 1) {
            let margin = 1 + 2 * focal * bulge / Swift.min(depths[j], depths[j + 1])
            guard Swift.max(bottoms[j], bottoms[j + 1]) + margin >= band.top, Swift.min(tops[j], tops[j + 1]) - margin < band.bottom else { continue }
            if first < 0 { first = j }
            last = j + 1
        }
        return first < 0 ? nil : (first, last)
    }
}

#if canImport(Glibc)
import Glibc
#endif
