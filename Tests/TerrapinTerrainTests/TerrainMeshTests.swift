import Foundation
import Testing
import TerrapinGeo
import TerrapinGeometry
import TerrapinRaster
import TerrapinIO
@testable import Terrapin3D
@testable import TerrapinImagery
@testable import TerrapinTerrain
@testable import TerrapinTerrainData

/// The mesh's level of detail by distance and the rasteriser under it.
@Suite struct TerrainMeshTests {
    /// A bumpy 768² grid over 0.1° (cells of 10 × 14.5 m) and a camera looking across it at
    /// tilt 65, so near blocks take every sample and far ones every second, fourth or eighth.
    static let grid: HeightGrid = {
        let n = 768
        var samples = [Float](repeating: 0, count: n * n)
        for j in 0..<n {
            for i in 0..<n {
                let u = Double(i) / Double(n - 1), v = Double(j) / Double(n - 1)
                samples[j * n + i] = Float(300 + 250 * sin(2 * Double.pi * 5 * u) * cos(2 * Double.pi * 4 * v) + 20 * sin(2 * Double.pi * 17 * (u + v)))
            }
        }
        let cell = 0.1 / Double(n - 1)
        return HeightGrid(columns: n, rows: n, westCentre: 7, southCentre: 46, cellWidth: cell, cellHeight: cell, samples: samples)!
    }()
    static let camera = Camera(center: LatLngAltitude(latitude: 46.05, longitude: 7.05, altitude: 300), heading: 33, tilt: 65, range: 3_500)
    static let (width, height) = (240, 160)
    static var projection: Projection { Projection(camera: camera, width: Double(width), height: Double(height)) }

    /// A frame is drawn in two bands a usable processor, and in one where there is a single
    /// processor or under 64 rows (each band redoes its share of a mesh's vertices).
    @Test func framesAreDrawnInTwoBandsAProcessor() {
        #expect(DepthFrame(width: 640, height: 63).bands == 1)
        #expect(DepthFrame(width: 640, height: 480).bands == (Cores.available == 1 ? 1 : 2 * Cores.available))
    }

    @Test func nearBlocksAreFineAndFarOnesCoarse() {
        let ground = TerrainGround(grid: Self.grid)
        let mesh = TerrainMesh(ground: ground, projection: Self.projection, toDevice: (1, 0, 0), frameWidth: Self.width, frameHeight: Self.height)
        #expect(mesh.blockCells == 32 && mesh.blocksX == 24 && mesh.blocksY == 24)
        let visible = (0..<mesh.steps.count).filter { mesh.visible[$0] }
        let steps = Set(visible.map { mesh.steps[$0] })
        #expect(steps.count >= 2 && steps.contains(1) && steps.max()! >= 4, "steps drawn: \(steps.sorted())")
        #expect(visible.count < mesh.steps.count, "blocks outside the frame are culled")
        // Where a block is coarser than every sample, its mesh cells span at most 2√2 device
        // pixels (a quarter more allowed for the perspective stretch of slanted edges off the
        // axis), and the longest no less than a quarter of that: the step is at most one
        // doubling finer than it could be (the bound takes a block's steepest rise as facing the
        // eye everywhere). Blocks taking every sample have cells as large as the grid's.
        var block = TerrainMesh.Block()
        for b in visible where mesh.steps[b] > 1 {
            mesh.vertices(of: b, style: TerrainStyle(), hazeDistance: 10_000, imagery: nil, origin: (0, 0), into: &block)
            var longest = 0.0
            for r in 0..<(block.rows - 1) {
                for c in 0..<(block.columns - 1) {
                    guard let a = block.screen[r * block.columns + c], let e = block.screen[r * block.columns + c + 1],
                          let s = block.screen[(r + 1) * block.columns + c] else { continue }
                    longest = max(longest, hypot(e.0 - a.0, e.1 - a.1), hypot(s.0 - a.0, s.1 - a.1))
                }
            }
            #expect(longest <= TerrainMesh.cellPixels * 1.25, "block \(b) at step \(mesh.steps[b]): a cell spans \(longest) px")
            #expect(longest >= TerrainMesh.cellPixels / 4, "block \(b) at step \(mesh.steps[b]) is finer than it needs")
        }
    }

    /// Where blocks of different steps meet, the finer one's extra vertices lie on the coarser
    /// one's edge, and the vertices both have are the same on both sides.
    @Test func blocksOfDifferentStepsShareTheirEdges() throws {
        let ground = TerrainGround(grid: Self.grid)
        let mesh = TerrainMesh(ground: ground, projection: Self.projection, toDevice: (1, 0, 0), frameWidth: Self.width, frameHeight: Self.height)
        var checked = 0
        for b in 0..<mesh.steps.count where mesh.visible[b] && b / mesh.blocksX > 0 {
            let above = b - mesh.blocksX
            guard mesh.visible[above], mesh.steps[above] != mesh.steps[b] else { continue }
            var lower = TerrainMesh.Block(), upper = TerrainMesh.Block()
            mesh.vertices(of: b, style: TerrainStyle(), hazeDistance: 10_000, imagery: nil, origin: (0, 0), into: &lower)
            mesh.vertices(of: above, style: TerrainStyle(), hazeDistance: 10_000, imagery: nil, origin: (0, 0), into: &upper)
            // The shared edge: the lower block's first row, the upper block's last.
            let fine = lower.columns > upper.columns ? lower : upper, coarse = lower.columns > upper.columns ? upper : lower
            let fineRow = fine.columns == lower.columns ? 0 : (fine.rows - 1) * fine.columns
            let coarseRow = coarse.columns == lower.columns ? 0 : (coarse.rows - 1) * coarse.columns
            let ratio = (fine.columns - 1) / (coarse.columns - 1)
            #expect(ratio >= 2)
            for i in 0..<coarse.columns {
                let f = try #require(fine.screen[fineRow + i * ratio]), c = try #require(coarse.screen[coarseRow + i])
                #expect(f == c, "a vertex both blocks have is the same point")
                #expect(fine.colour[fineRow + i * ratio] == coarse.colour[coarseRow + i], "and the same colour")
            }
            for i in 0..<(fine.columns - 1) where i % ratio != 0 {
                let a = try #require(coarse.screen[coarseRow + i / ratio]), z = try #require(coarse.screen[coarseRow + i / ratio + 1])
                let p = try #require(fine.screen[fineRow + i])
                // Distance from the coarse edge's line, in pixels.
                let off = abs((z.0 - a.0) * (p.1 - a.1) - (z.1 - a.1) * (p.0 - a.0)) / hypot(z.0 - a.0, z.1 - a.1)
                #expect(off < 1e-6, "a finer vertex is \(off) px off the coarser edge")
            }
            checked += 1
        }
        #expect(checked >= 2, "the view has blocks of different steps one above the other")
    }

    /// The mesh has no cracks: in every column, every pixel below the topmost one the terrain
    /// covers is covered too (the eye is above a height field that fills the view's width).
    @Test func theMeshIsWatertightAcrossSteps() {
        var frame = DepthFrame(width: Self.width, height: Self.height)
        let triangles = TerrainRenderer.draw(TerrainGround(grid: Self.grid), projection: Self.projection, toDevice: (1, 0, 0),
                                             horizon: .zero, hazeDistance: 10_000, style: TerrainStyle(), imagery: nil, bands: 3, into: &frame)
        #expect(triangles > 10_000)
        var holes = 0, covered = 0
        for x in 0..<Self.width {
            guard let top = (0..<Self.height).first(where: { frame.depth[$0 * Self.width + x].isFinite }) else { continue }
            for y in top..<Self.height {
                if frame.depth[y * Self.width + x].isFinite { covered += 1 } else { holes += 1 }
            }
        }
        #expect(covered > Self.width * Self.height / 2)
        #expect(holes == 0, "\(holes) pixels left open in the terrain")
    }

    /// From above the highest sample, leaving out the triangles facing away changes no pixel
    /// but the odd one on a ridge's outline (where a facing-away triangle won a tie on the shared
    /// edge), and saves their drawing.
    @Test func trianglesFacingAwayAreHiddenAnyway() {
        func draw(cull: Bool) -> (DepthFrame, Int) {
            var frame = DepthFrame(width: Self.width, height: Self.height)
            let n = TerrainRenderer.draw(TerrainGround(grid: Self.grid, exaggeration: 3), projection: Self.projection, toDevice: (1, 0, 0),
                                         horizon: .zero, hazeDistance: 10_000, style: TerrainStyle(), imagery: nil, bands: 1, cullBackFaces: cull, into: &frame)
            return (frame, n)
        }
        let (all, drawn) = draw(cull: false), (culled, fewer) = draw(cull: true)
        #expect(fewer < drawn * 9 / 10, "\(drawn - fewer) of \(drawn) triangles face away")
        let differ = zip(all.pixels, culled.pixels).filter { $0 != $1 }.count
        #expect(differ <= all.pixels.count / 500, "\(differ) pixels differ")
    }

    /// Bands change nothing: the frame drawn in 1, 2, 5 or 16 bands has the same pixels, depths
    /// and triangle count, with and without imagery draped.
    @Test(arguments: [false, true]) func bandsGiveTheSameBytes(draped: Bool) throws {
        var pixels = [UInt8](repeating: 0, count: 64 * 64 * 4)
        for i in 0..<(64 * 64) {
            pixels[4 * i] = UInt8(i % 64 * 4); pixels[4 * i + 1] = UInt8(i / 64 * 4); pixels[4 * i + 2] = 90; pixels[4 * i + 3] = 255
        }
        let image = try #require(Pixmap(width: 64, height: 64, premultipliedData: pixels))
        let made = Imagery(image: image, west: 7, south: 46, east: 7.1, north: 46.1)
        #expect(made != nil)
        let imagery = draped ? made : nil
        func draw(_ bands: Int) -> (DepthFrame, Int) {
            var frame = DepthFrame(width: Self.width, height: Self.height)
            let count = TerrainRenderer.draw(TerrainGround(grid: Self.grid), projection: Self.projection, toDevice: (1, 0, 0),
                                             horizon: SIMD3(200, 210, 220), hazeDistance: 6_000, style: TerrainStyle(), imagery: imagery,
                                             bands: bands, into: &frame)
            return (frame, count)
        }
        let (one, count) = draw(1)
        for bands in [2, 5, 16] {
            let (other, n) = draw(bands)
            #expect(other.pixels == one.pixels && other.depth == one.depth && n == count, "\(bands) bands: \(n) triangles, \(count) in one")
        }
    }

    /// A block reaching beyond a band makes only the lattice rows whose strips can reach into it,
    /// and the strips it leaves out lie wholly above or below the band.
    @Test func aBandMakesOnlyItsStrips() {
        let mesh = TerrainMesh(ground: TerrainGround(grid: Self.grid), projection: Self.projection, toDevice: (1, 0, 0),
                               frameWidth: Self.width, frameHeight: Self.height)
        let band = (top: 70.0, bottom: 90.0)
        var made = 0, whole = 0, checked = 0
        for b in 0..<mesh.steps.count where mesh.visible[b] && mesh.spans[b].bottom >= band.top && mesh.spans[b].top < band.bottom {
            var part = TerrainMesh.Block(), all = TerrainMesh.Block()
            let reaches = mesh.vertices(of: b, style: TerrainStyle(), hazeDistance: 10_000, imagery: nil, origin: (0, 0), band: band, into: &part)
            mesh.vertices(of: b, style: TerrainStyle(), hazeDistance: 10_000, imagery: nil, origin: (0, 0), into: &all)
            #expect(all.firstRow == 0 && all.lastRow == all.rows - 1)
            whole += all.rows
            if reaches { made += part.lastRow - part.firstRow + 1 }
            // The made rows are the whole block's, and every strip left out misses the band.
            for j in 0..<(all.rows - 1) {
                let strip = (j * all.columns..<(j + 2) * all.columns).compactMap { all.screen[$0]?.1 }
                if reaches && j >= part.firstRow && j < part.lastRow {
                    #expect((j * all.columns..<(j + 2) * all.columns).allSatisfy { part.screen[$0]?.1 == all.screen[$0]?.1 })
                } else {
                    #expect(strip.count == 2 * all.columns && (strip.max()! < band.top || strip.min()! >= band.bottom), "block \(b) strip \(j)")
                    checked += 1
                }
            }
        }
        #expect(checked > 100 && made < whole, "\(made) of \(whole) rows made, \(checked) strips left out")
    }

    /// The sky and the flat ground with imagery draped, drawn in bands, are the same bytes
    /// for any number of bands (tilted to the horizon, so the lattice and the per-pixel casts
    /// both occur).
    @Test func skyAndFlatGroundBandsGiveTheSameBytes() throws {
        var pixels = [UInt8](repeating: 0, count: 64 * 64 * 4)
        for i in 0..<(64 * 64) {
            pixels[4 * i] = UInt8(i % 64 * 4); pixels[4 * i + 1] = UInt8(i / 64 * 4); pixels[4 * i + 2] = 90; pixels[4 * i + 3] = 255
        }
        let image = try #require(Pixmap(width: 64, height: 64, premultipliedData: pixels))
        let imagery = try #require(Imagery(image: image, west: 6.9, south: 45.95, east: 7.2, north: 46.15))
        func draw(_ bands: Int) throws -> DepthFrame {
            let camera = Camera(center: LatLngAltitude(latitude: 46.05, longitude: 7.05), heading: 33, tilt: 84, range: 3_500)
            let projection = Projection(camera: camera, width: Double(Self.width), height: Double(Self.height))
            var pass = try #require(GroundPass(projection: projection, rect: Rect(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height)),
                                               transform: .identity, canvasWidth: Self.width, canvasHeight: Self.height,
                                               sky: SkyColors(zenith: RGBAColor(red: 0.5, green: 0.7, blue: 0.9, alpha: 1),
                                                              horizon: RGBAColor(red: 0.86, green: 0.9, blue: 0.95, alpha: 1))))
            pass.drawSkyAndFlatGround(ground: RGBAColor(red: 0.6, green: 0.7, blue: 0.55, alpha: 1), grid: nil, imagery: imagery, style: TerrainStyle(), bands: bands)
            return pass.frame
        }
        let one = try draw(1)
        #expect(one.depth.contains { !$0.isFinite } && one.depth.contains(where: \.isFinite), "sky and ground both in view")
        for bands in [2, 7] {
            let other = try draw(bands)
            #expect(other.pixels == one.pixels && other.depth == one.depth, "\(bands) bands")
        }
    }

    /// A flat web map straight down whose depth nothing reads is only filled with the ground's
    /// colour: the same pixels as when each pixel's depth is cast, its depth left unset; tilted,
    /// depth is cast either way.
    @Test func aFlatMapsGroundCastsDepthOnlyWhenAsked() throws {
        func draw(tilt: Double, depth: Bool) throws -> DepthFrame {
            let camera = Camera(center: LatLngAltitude(latitude: 43.737, longitude: 7.42), heading: 0, tilt: tilt, range: 3_000)
            let projection = Projection(camera: camera, width: Double(Self.width), height: Double(Self.height), ellipsoid: .mercator)
            var pass = try #require(GroundPass(projection: projection, rect: Rect(x: 0, y: 0, width: Double(Self.width), height: Double(Self.height)),
                                               transform: .identity, canvasWidth: Self.width, canvasHeight: Self.height,
                                               sky: SkyColors(zenith: RGBAColor(red: 0.5, green: 0.7, blue: 0.9, alpha: 1),
                                                              horizon: RGBAColor(red: 0.86, green: 0.9, blue: 0.95, alpha: 1), haze: false)))
            #expect(GroundPass.seesFlatMap(projection) == (tilt == 0))
            pass.drawSkyAndFlatGround(ground: RGBAColor(red: 0.95, green: 0.94, blue: 0.91, alpha: 1), grid: nil, imagery: nil, style: TerrainStyle(), depth: depth)
            return pass.frame
        }
        let cast = try draw(tilt: 0, depth: true), filled = try draw(tilt: 0, depth: false)
        #expect(filled.pixels == cast.pixels)
        #expect(Set(filled.pixels).count == 1)
        #expect(cast.depth.allSatisfy { $0.isFinite && $0 > 0 })
        #expect(filled.depth.allSatisfy { $0 == .infinity })
        let tilted = try draw(tilt: 40, depth: false)
        #expect(tilted.depth.contains { $0.isFinite })
    }

    /// Triangles past the fixed-point lattice's reach (a vertex just in front of the near plane
    /// lands millions of pixels away) are drawn in floating point; non-finite ones are dropped.
    @Test func hugeAndNonFiniteTrianglesDoNotTrap() {
        var frame = DepthFrame(width: 32, height: 24)
        var drawn = 0
        frame.withRaster { raster in
            let c = SIMD2<Float>(1, 0)
            // Covers the whole frame from far outside it.
            _ = raster.triangle((-5e6, -5e6, 10), (5e6, -5e6, 10), (0, 5e7, 10), c, c, c) { _ in drawn += 1; return 0xFFFF_FFFF }
            for bad in [Double.nan, .infinity, -.infinity, 1e300, -1e300] {
                _ = raster.triangle((bad, 3, 5), (20, 3, 5), (10, 20, 5), c, c, c) { _ in 0 }
                _ = raster.triangle((1, 1, bad), (20, 3, 5), (10, bad, 5), c, c, c) { _ in 0 }
            }
        }
        #expect(drawn == 32 * 24)
    }

    /// A mesh's triangles drawn from vertices put on the lattice once (`meshTriangle`) are the
    /// same pixels, depths and answers as drawn one by one (`triangle`), in bands: random
    /// triangles around and across the frame, with corners behind the eye (nil), off the
    /// lattice's reach, not finite, on pixel centres and on the bands' edges, both facings.
    @Test func meshTrianglesMatchTriangles() {
        var state: UInt64 = 99
        func random() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        var screen: [(Double, Double, Double)?] = []
        for v in 0..<600 {
            switch v % 25 {
            case 0: screen.append(nil)
            case 1: screen.append((3e6 * (random() - 0.5), 40 * random(), 10))
            case 2: screen.append((.nan, 5, 5))
            case 3: screen.append((Double(Int(random() * 40)) + 0.5, Double(Int(random() * 30)) + 0.5, 1 + random()))
            case 4: screen.append((random() * 40, Double([0, 8, 15, 16, 24, 30][Int(random() * 6)]), 1 + random()))
            default: screen.append((random() * 56 - 8, random() * 46 - 8, 1 + 9 * random()))
            }
        }
        let colours = (0..<screen.count).map { SIMD3<Float>(Float($0), Float($0 % 7), 0) }
        let shade = { (a: SIMD3<Float>) -> UInt32 in UInt32(a.x * 1000) | 0xFF00_0000 }
        let triangles = (0..<3000).map { _ in (Int(random() * 600), Int(random() * 600), Int(random() * 600)) }
        let points = screen.map(DepthRaster.MeshPoint.init)
        /// The frame drawn in `bands` bands, and how many bands answered true for each triangle.
        func draw(mesh: Bool, bands: Int, cull: Bool) -> (DepthFrame, [Int]) {
            var frame = DepthFrame(width: 40, height: 30)
            var answers = [Int](repeating: 0, count: triangles.count)
            for band in 0..<bands {
                frame.withRaster(rows: band * 30 / bands..<(band + 1) * 30 / bands) { raster in
                    points.withUnsafeBufferPointer { points in
                        for (t, (i, j, l)) in triangles.enumerated() {
                            let drawn: Bool
                            if mesh {
                                drawn = raster.meshTriangle(i, j, l, points: points, screen: screen, colours[i], colours[j], colours[l], cullNegative: cull, shade: shade)
                            } else if let a = screen[i], let b = screen[j], let c = screen[l] {
                                drawn = raster.triangle(a, b, c, colours[i], colours[j], colours[l], cullNegative: cull, shade: shade)
                            } else {
                                drawn = false
                            }
                            if drawn { answers[t] += 1 }
                        }
                    }
                }
            }
            return (frame, answers)
        }
        for cull in [false, true] {
            let (one, answers) = draw(mesh: false, bands: 1, cull: cull)
            #expect(answers.filter { $0 == 1 }.count > 500, "many triangles drawn: \(answers.filter { $0 == 1 }.count)")
            #expect(one.depth.filter(\.isFinite).count > 600, "most of the frame covered")
            for bands in [1, 4] {
                let (mesh, meshAnswers) = draw(mesh: true, bands: bands, cull: cull)
                let differing = zip(meshAnswers, answers).filter { $0 != $1 }.count
                #expect(differing == 0, "the same answers, each triangle counted in one band (cull \(cull), \(bands) bands)")
                let pixels = zip(mesh.pixels, one.pixels).filter { $0 != $1 }.count, depths = zip(mesh.depth, one.depth).filter { $0 != $1 }.count
                #expect(pixels == 0 && depths == 0, "the same pixels and depths (cull \(cull), \(bands) bands)")
            }
        }
    }

    /// The rasteriser's tie rule: a jittered mesh of triangles draws every pixel of its square
    /// exactly once — no pixel centre on a shared edge is dropped or drawn twice.
    @Test func sharedEdgesDrawEachPixelOnce() {
        var frame = DepthFrame(width: 64, height: 64)
        var state: UInt64 = 12345
        func jitter() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 40) / Double(1 << 24) - 0.5
        }
        // A 9 × 9 lattice over 4…60, inner points moved by up to ±2.4 px; some put exactly on
        // pixel centres and on the same row or column, where ties happen.
        let n = 9
        var points: [(Double, Double)] = []
        for j in 0..<n {
            for i in 0..<n {
                var x = 4 + Double(i) * 7, y = 4 + Double(j) * 7
                if i > 0 && i < n - 1 && j > 0 && j < n - 1 {
                    if (i + j) % 3 == 0 { x += 0.5; y += 0.5 } else { x += jitter() * 4.8; y += jitter() * 4.8 }
                }
                points.append((x, y))
            }
        }
        var shaded = 0
        var depth = 100.0
        frame.withRaster { raster in
            for j in 0..<(n - 1) {
                for i in 0..<(n - 1) {
                    let a = points[j * n + i], b = points[j * n + i + 1], c = points[(j + 1) * n + i], d = points[(j + 1) * n + i + 1]
                    // Each triangle nearer than the last, so a pixel drawn twice would be shaded twice.
                    for (p, q, r) in [(a, b, d), (a, d, c)] {
                        depth -= 0.1
                        raster.triangle((p.0, p.1, depth), (q.0, q.1, depth), (r.0, r.1, depth), SIMD2<Float>(1, 0), SIMD2<Float>(1, 0), SIMD2<Float>(1, 0)) { _ in
                            shaded += 1
                            return 0xFFFF_FFFF
                        }
                    }
                }
            }
        }
        // The square's pixels whose centres lie within 4…60 (its border rows and columns are straight).
        let inside = frame.depth.enumerated().filter { i, _ in (4..<60).contains(i % 64) && (4..<60).contains(i / 64) }
        #expect(inside.allSatisfy { $0.element.isFinite }, "every pixel of the square is drawn")
        #expect(shaded == frame.depth.filter(\.isFinite).count, "and none twice: \(shaded) shaded for \(frame.depth.filter(\.isFinite).count) pixels")
    }
}

/// A ground of two levels: the bumpy grid above, and a grid twice as fine over a window of its
/// blocks, with detail of its own and the coarser surface on its outermost samples (as
/// `TileTerrain` makes them).
@Suite struct NestedTerrainTests {
    static let window = GridWindow(x0: 4, y0: 2, x1: 20, y1: 14)
    static let ground = nested { _, _ in 0 }
    /// The finer level's edge off the coarser surface: 25 m up along its north and west edges,
    /// down along the others (levels from data that disagree).
    static let offEdge = nested { i, j in i == 0 || j == 0 ? 25 : -25 }

    static func nested(offset: (Int, Int) -> Float) -> TerrainGround {
        let parent = TerrainMeshTests.grid
        let s = 32, w = window
        let c0 = w.x0 * s, c1 = w.x1 * s, r0 = w.y0 * s, r1 = w.y1 * s
        let columns = (c1 - c0) * 2 + 1, rows = (r1 - r0) * 2 + 1
        var samples = [Float](repeating: 0, count: columns * rows)
        for j in 0..<rows {
            for i in 0..<columns {
                let pr = r0 + j / 2, pc = c0 + i / 2, qr = j % 2 == 1 ? pr + 1 : pr, qc = i % 2 == 1 ? pc + 1 : pc
                let coarse = (parent[pr, pc] + parent[pr, qc] + parent[qr, pc] + parent[qr, qc]) / 4
                let edge = j == 0 || i == 0 || j == rows - 1 || i == columns - 1
                // Ridges a few cells wide that the coarser grid does not have.
                samples[j * columns + i] = edge ? coarse + offset(i, j) : coarse + Float(40 * sin(Double(i) * 0.9) * cos(Double(j) * 0.7))
            }
        }
        let fine = HeightGrid(columns: columns, rows: rows, westCentre: parent.westCentre + Double(c0) * parent.cellWidth,
                              southCentre: parent.northCentre - Double(r1) * parent.cellHeight,
                              cellWidth: parent.cellWidth / 2, cellHeight: parent.cellHeight / 2, samples: samples)!
        return TerrainGround(levels: [parent, fine], windows: [window], exaggeration: 1)
    }

    /// Pixels never drawn with drawn pixels above and below them in their column: holes in
    /// the ground (the sky above the far edge is not counted).
    static func holes(_ frame: DepthFrame) -> Int {
        var count = 0
        for x in 0..<frame.width {
            let column = (0..<frame.height).map { frame.pixels[$0 * frame.width + x] != 0 }
            guard let first = column.firstIndex(of: true), let last = column.lastIndex(of: true) else { continue }
            count += column[first...last].filter { !$0 }.count
        }
        return count
    }

    static func draw(_ ground: TerrainGround = ground, skirts: Bool, camera: Camera = Camera(center: LatLngAltitude(latitude: 46.03, longitude: 7.05, altitude: 300), heading: 10, tilt: 72, range: 2_500))
        -> (DepthFrame, Int) {
        var frame = DepthFrame(width: 320, height: 200)
        let n = TerrainRenderer.draw(ground, projection: Projection(camera: camera, width: 320, height: 200), toDevice: (1, 0, 0), horizon: .zero,
                                     hazeDistance: 1e9, style: TerrainStyle(), imagery: nil, bands: 1, skirts: skirts, into: &frame)
        return (frame, n)
    }

    @Test func theFinerLevelReplacesTheCoarserInItsWindow() {
        let g = Self.ground
        let mesh = TerrainMesh(ground: g, level: 0, projection: TerrainMeshTests.projection, toDevice: (1, 0, 0), frameWidth: 240, frameHeight: 160)
        for by in 0..<mesh.blocksY { for bx in 0..<mesh.blocksX where Self.window.contains(block: bx, by) { #expect(!mesh.visible[by * mesh.blocksX + bx]) } }
        // Heights from the finest level holding the point; outside it from the coarser grid.
        let fine = g.detail[0]
        let inside = (latitude: fine.southCentre + 37.5 * fine.cellHeight, longitude: fine.westCentre + 101.5 * fine.cellWidth)
        #expect(g.sample(latitude: inside.latitude, longitude: inside.longitude) == fine.height(latitude: inside.latitude, longitude: inside.longitude))
        #expect(g.sample(latitude: inside.latitude, longitude: inside.longitude) != g.grid.height(latitude: inside.latitude, longitude: inside.longitude))
        let outside = (latitude: fine.southCentre - 3 * fine.cellHeight, longitude: fine.westCentre + 10 * fine.cellWidth)
        #expect(g.sample(latitude: outside.latitude, longitude: outside.longitude) == g.grid.height(latitude: outside.latitude, longitude: outside.longitude))
        #expect(g.finestCell.width == g.grid.cellWidth / 2)
    }

    /// Where the finer level's edge leaves the coarser surface (data that disagree), the seam
    /// opens; the skirts, as deep as that mismatch and the chords' reach, close every gap. With
    /// edges on the coarser surface (as `TileTerrain` makes them) the mismatch is 0.
    @Test func skirtsCloseTheSeam() {
        #expect(Self.ground.seamMismatch[0] == 0 && Self.ground.seamMismatch[1] < 1e-3)
        #expect(Self.offEdge.seamMismatch[1] >= 25 && Self.offEdge.seamMismatch[1] < 25.01)
        for (heading, tilt, range) in [(120.0, 70.0, 8_000.0), (60, 80, 5_000), (150, 75, 3_000)] {
            let camera = Camera(center: LatLngAltitude(latitude: 46.05, longitude: 7.05, altitude: 300), heading: heading, tilt: tilt, range: range)
            let (open, _) = Self.draw(Self.offEdge, skirts: false, camera: camera)
            let (closed, triangles) = Self.draw(Self.offEdge, skirts: true, camera: camera)
            #expect(Self.holes(open) >= 10, "heading \(heading): the seam has gaps to close")
            #expect(Self.holes(closed) == 0, "heading \(heading)")
            #expect(triangles > 10_000)
        }
    }

    /// The same bytes in any number of bands.
    @Test func nestedLevelsDrawTheSameInBands() {
        let camera = Camera(center: LatLngAltitude(latitude: 46.03, longitude: 7.05, altitude: 300), heading: 10, tilt: 72, range: 2_500)
        var one = DepthFrame(width: 320, height: 200), many = DepthFrame(width: 320, height: 200)
        _ = TerrainRenderer.draw(Self.ground, projection: Projection(camera: camera, width: 320, height: 200), toDevice: (1, 0, 0), horizon: .zero,
                             hazeDistance: 5_000, style: TerrainStyle(), imagery: nil, bands: 1, into: &one)
        _ = TerrainRenderer.draw(Self.ground, projection: Projection(camera: camera, width: 320, height: 200), toDevice: (1, 0, 0), horizon: .zero,
                             hazeDistance: 5_000, style: TerrainStyle(), imagery: nil, bands: 7, into: &many)
        #expect(one.pixels == many.pixels)
        #expect(one.depth == many.depth)
    }
}

/// The sky caster's ground pixel, three channels at once, against the per-pixel cast's
/// arithmetic (`mix` then `RGBAColor.rgba8`) it stands for.
@Suite struct GroundPixelTests {
    @Test func groundPixelIsTheCastsArithmetic() {
        let projection = Projection(camera: Camera(center: LatLngAltitude(latitude: 46, longitude: 7), tilt: 60, range: 5_000), width: 64, height: 48)
        let colours: [RGBAColor] = [RGBAColor(red: 0.6, green: 0.7, blue: 0.55), RGBAColor(red: 0, green: 1, blue: 0.5), RGBAColor(red: 1, green: 0, blue: 0.002),
                                    RGBAColor(red: 0.5 / 255, green: 254.5 / 255, blue: 127.5 / 255), RGBAColor(red: -0.2, green: 1.3, blue: .nan)]
        var checked = 0
        for ground in colours {
            for horizon in colours {
                let caster = SkyCaster(projection: projection, rect: Rect(x: 0, y: 0, width: 64, height: 48), inverse: .identity, grid: nil,
                                       hazeDistance: 10_000, focal: projection.focalLength, sky: SkyColors(zenith: horizon, horizon: horizon),
                                       ground: ground, flatShade: 1)
                for k in -64...(4096 + 64) {
                    let haze = Float(k) / 4096
                    let c8 = mix(ground, horizon, haze).rgba8
                    let expected = UInt32(c8.red) | UInt32(c8.green) << 8 | UInt32(c8.blue) << 16 | 0xFF00_0000
                    if caster.groundPixel(haze: haze) != expected { Issue.record("ground \(ground), horizon \(horizon), haze \(haze)") }
                    checked += 1
                }
            }
        }
        #expect(checked == 25 * 4225)
    }
}
