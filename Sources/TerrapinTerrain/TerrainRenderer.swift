// Terrain drawing: the height grid as a triangle mesh, rasterised with a depth buffer.
//
// Each vertex carries its elevation, a Horn hillshade (sun azimuth 315°, altitude 45°, as
// gdaldem) and a haze factor growing with distance; triangles interpolate them (and depth, as
// 1/z: perspective correct; nearest wins) and every pixel is coloured from a hypsometric ramp of
// its elevation, shaded and hazed towards the horizon colour. Below sea level the surface is the
// sea at 0 m, tinted by depth. The level of detail follows screen pixels, not samples: each block
// of the mesh takes every k-th sample, k chosen so that a mesh cell spans at most two pixels at
// the block's distance (`TerrainMesh`), so a 4096² grid costs no more than a 1024² one seen the
// same way, and the far half of a tilted view is not drawn as sub-pixel triangles.
import Terrapin3D
import TerrapinGeo
import TerrapinImagery
import TerrapinTerrainData
import TerrapinGeometry
import TerrapinRaster
import Dispatch
import TerrapinIO

/// Per-band triangle counts, each band writing its own.
private struct SendableCounts: @unchecked Sendable {
    let counts: UnsafeMutableBufferPointer<Int>
}

public enum TerrainRenderer {
    /// Draws `ground`'s grid into `frame` (device pixels); `toDevice` maps projection points to
    /// device pixels (scale and offset of the map's rect). Returns the triangles drawn. The mesh's
    /// level of detail follows the distance (see `TerrainMesh`).
    @discardableResult
    public static func draw(_ ground: TerrainGround, projection: Projection, toDevice: (scale: Double, dx: Double, dy: Double),
                            horizon: SIMD3<Float>, hazeDistance: Double, style: TerrainStyle = TerrainStyle(), imagery: Imagery? = nil,
                            into frame: inout DepthFrame) -> Int {
        draw(ground, projection: projection, toDevice: toDevice, horizon: horizon, hazeDistance: hazeDistance, style: style, imagery: imagery,
             bands: frame.bands, into: &frame)
    }

    /// `draw` in `bands` bands of rows (the bytes are the same for any number).
    static func draw(_ ground: TerrainGround, projection: Projection, toDevice: (scale: Double, dx: Double, dy: Double),
                     horizon: SIMD3<Float>, hazeDistance: Double, style: TerrainStyle, imagery: Imagery?, bands: Int,
                     cullBackFaces: Bool = true, skirts: Bool = true, into frame: inout DepthFrame) -> Int {
        // One mesh per level, coarsest first; each seam's skirts hang as deep as its two sides'
        // chords can part, and the finer level's edge from the coarser surface.
        var meshes = (0...ground.detail.count).map {
            TerrainMesh(ground: ground, level: $0, projection: projection, toDevice: toDevice, frameWidth: frame.width, frameHeight: frame.height)
        }
        for level in 0..<(meshes.count - 1) where skirts {
            let seam = meshes[level].seamReach.window + meshes[level + 1].seamReach.outer + ground.seamMismatch[level + 1] * ground.exaggeration + 1
            meshes[level].hangSkirts(outer: meshes[level].skirtDepth.outer, window: seam)
            meshes[level + 1].hangSkirts(outer: seam, window: 0)
        }
        // Image positions are kept in full-resolution pixels from `origin` (each level's grid's
        // north-west corner): Float holds offsets exactly where it could not hold the absolute
        // texels of a deep tile zoom (2^24 pixels across at z15).
        let origins: [(x: Double, y: Double)] = meshes.map { mesh in
            imagery.map { $0.texel(latitude: mesh.grid.northCentre, longitude: mesh.grid.westCentre) } ?? (0, 0)
        }
        let draped = style.palette == .relief ? imagery : nil
        // Colour per pixel from the interpolated elevation, shade and haze, so coastlines
        // (the 0 m contour) run smoothly through triangles.
        let palette = style.palette
        let ramp = TerrainStyle.rampTable
        let pixel = { @Sendable (a: SIMD3<Float>) -> UInt32 in Self.pack(Self.relief(a, palette, ramp: ramp) * (1 - a.z) + horizon * a.z) }
        // Bands of rows on every core; each band makes the vertices of the blocks reaching into
        // it and draws their triangles' rows within it. The mesh is the same in every band and
        // the fixed-point rasteriser decides a pixel the same in any band, so the bytes do not
        // depend on the number of cores.
        let bands = max(1, min(bands, frame.height))
        // Seen from above the highest sample, the mesh's triangles facing away from the eye (the
        // far sides of ridges) are hidden behind the near sides: a ray reaching one from below
        // has crossed the surface before. They are not drawn: every cell's triangles run
        // north-west, north-east, south-east and north-west, south-east, south-west, which on
        // screen has a positive area (y down) seen from above and a negative one from below.
        // From lower down (in a valley, under the mesh's edge) every triangle is drawn. Skirts
        // are drawn from both sides.
        let cull = cullBackFaces && meshes.allSatisfy(\.eyeAboveTerrain)
        let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: bands)
        counts.initialize(repeating: 0)
        defer { counts.deallocate() }
        let out = SendableCounts(counts: counts)
        let levels = meshes
        frame.inBands(bands) { raster in
            var block = TerrainMesh.Block()
            var painter = draped.map { DrapedPainter(imagery: $0, origin: origins[0], horizon: horizon, flatLight: Float(style.light.2)) }
            var count = 0
            let top = Double(raster.rows.lowerBound), bottom = Double(raster.rows.upperBound)
            for (level, mesh) in levels.enumerated() {
                painter?.origin = origins[level]
                for b in 0..<mesh.steps.count where mesh.visible[b] && mesh.spans[b].bottom >= top && mesh.spans[b].top < bottom {
                    // Only the rows of the block that can reach into this band.
                    guard mesh.vertices(of: b, style: style, hazeDistance: hazeDistance, imagery: draped, origin: origins[level],
                                        band: (top, bottom), into: &block) else { continue }
                    if painter != nil {
                        count += painter!.draw(block, into: raster, cullNegative: cull)
                        continue
                    }
                    let cols = block.columns, screen = block.screen, colour = block.colour
                    block.points.withUnsafeBufferPointer { points in
                    colour.withUnsafeBufferPointer { colour in
                        for r in block.firstRow..<block.lastRow {
                            for c in 0..<(cols - 1) {
                                let i00 = r &* cols &+ c, i01 = i00 &+ 1, i10 = i00 &+ cols, i11 = i10 &+ 1
                                if raster.meshTriangle(i00, i01, i11, points: points, screen: screen, colour[i00], colour[i01], colour[i11],
                                                       cullNegative: cull, shade: pixel) { count += 1 }
                                if raster.meshTriangle(i00, i11, i10, points: points, screen: screen, colour[i00], colour[i11], colour[i10],
                                                       cullNegative: cull, shade: pixel) { count += 1 }
                            }
                        }
                        for (i, j, k) in block.skirts
                        where raster.meshTriangle(i, j, k, points: points, screen: screen, colour[i], colour[j], colour[k], cullNegative: false, shade: pixel) {
                            count += 1
                        }
                    }
                    }
                }
            }
            out.counts[raster.band] = count
        }
        return counts.reduce(0, +)
    }

    /// The mesh with imagery over the relief: each pixel's image position is interpolated
    /// perspective-correctly, sampled at the level of detail of its triangle's footprint (image
    /// pixels per screen pixel, from the two areas), shaded by `imagery.shading` and laid over
    /// the relief colour by its alpha, then hazed.
    struct DrapedPainter {
        let imagery: Imagery
        /// The texel origin of the level being drawn.
        var origin: (x: Double, y: Double)
        let horizon: SIMD3<Float>
        let flatLight: Float
        var reader = ImageryReader()

        init(imagery: Imagery, origin: (x: Double, y: Double), horizon: SIMD3<Float>, flatLight: Float) {
            (self.imagery, self.origin, self.horizon, self.flatLight) = (imagery, origin, horizon, flatLight)
        }

        /// Draws `block`'s made rows.
        mutating func draw(_ block: TerrainMesh.Block, into raster: DepthRaster, cullNegative: Bool) -> Int {
            let shading = Float(imagery.shading)
            let relative = imagery.shadesRelativeToFlat
            let imagery = self.imagery, origin = self.origin, horizon = self.horizon, flatLight = self.flatLight
            let oneZoom = imagery.readsOneZoom
            let ramp = TerrainStyle.rampTable
            var reader = self.reader
            defer { self.reader = reader }
            // The shader reaches the reader through a pointer: a closure capturing the variable
            // itself checks exclusive access at run time at every pixel.
            return withUnsafeMutablePointer(to: &reader) { reader in
            let pixel = { (a: SIMD8<Float>) -> UInt32 in
                var rgb: SIMD3<Float>
                if let c = imagery.sample(x: origin.x + Double(a[3]), y: origin.y + Double(a[4]), level: Double(a[5]), reader: &reader.pointee) {
                    // Relative shading leaves flat ground (and the sea) its own colour: a map's
                    // colours stay true, slopes lit and darkened around them.
                    let k = relative ? (a[0] < 0 ? 1 : min(1.08, max(0.55, 1 + shading * (a[1] - flatLight)))) : 1 - shading * 0.75 * (1 - a[1])
                    rgb = SIMD3(c.x, c.y, c.z) * k
                    // The relief shows only through imagery that is not opaque.
                    if c.w < 255 { rgb += TerrainRenderer.relief(SIMD3(a[0], a[1], a[2]), .relief, ramp: ramp) * (1 - c.w / 255) }
                } else {
                    rgb = TerrainRenderer.relief(SIMD3(a[0], a[1], a[2]), .relief, ramp: ramp)
                }
                return TerrainRenderer.pack(rgb * (1 - a[2]) + horizon * a[2])
            }
            let screen = block.screen, colour = block.colour, texel = block.texel, cols = block.columns
            return block.points.withUnsafeBufferPointer { points in
            colour.withUnsafeBufferPointer { colour in
            texel.withUnsafeBufferPointer { texel in
                @inline(__always) func vertex(_ i: Int, level: Float) -> SIMD8<Float> {
                    SIMD8(colour[i].x, colour[i].y, colour[i].z, texel[i].x, texel[i].y, level, 0, 0)
                }
                /// Whether triangle (i, j, k) counts as drawn (see `DepthRaster.triangle`). (Not
                /// inlined here: inlined, it leaves `meshTriangle` out of line instead, copying
                /// the imagery into each call.)
                @inline(never) func draw(_ i: Int, _ j: Int, _ k: Int, cullNegative: Bool) -> Bool {
                    guard let a = screen[i], let b = screen[j], let c = screen[k] else { return false }
                    let screenArea = abs((b.0 - a.0) * (c.1 - a.1) - (c.0 - a.0) * (b.1 - a.1))
                    let ta = texel[i], tb = texel[j], tc = texel[k]
                    let texelArea = abs(Double((tb.x - ta.x) * (tc.y - ta.y) - (tc.x - ta.x) * (tb.y - ta.y)))
                    // Image pixels per screen pixel is the square root of the area ratio: level log2 of it.
                    // A drawn map's tiles are read at the finer axis of the footprint (its stretch
                    // along a slanted view left out, as the flat ground's `texelAt` does).
                    var level: Float = 0
                    if screenArea > 0 {
                        let ratio = texelArea / screenArea
                        level = Float(max(0, 0.5 * log2(oneZoom ? TerrainRenderer.finerAxisSquared(ta, tb, tc, screen: a, b, c, ratio: ratio) : ratio)))
                    }
                    return raster.meshTriangle(i, j, k, points: points, screen: screen, vertex(i, level: level), vertex(j, level: level),
                                               vertex(k, level: level), perspective: true, cullNegative: cullNegative, shade: pixel)
                }
                var count = 0
                for r in block.firstRow..<block.lastRow {
                    for c in 0..<(cols - 1) {
                        let i00 = r &* cols &+ c, i01 = i00 &+ 1, i10 = i00 &+ cols, i11 = i10 &+ 1
                        if draw(i00, i01, i11, cullNegative: cullNegative) { count &+= 1 }
                        if draw(i00, i11, i10, cullNegative: cullNegative) { count &+= 1 }
                    }
                }
                for (i, j, k) in block.skirts where draw(i, j, k, cullNegative: false) { count &+= 1 }
                return count
            }
            }
            }
            }
        }
    }

    /// Image pixels per screen pixel along the finer axis of a triangle's footprint, squared:
    /// the smaller singular value of the map from screen to image positions (texels `ta`, `tb`,
    /// `tc` at screen corners `a`, `b`, `c`; `ratio` the texel area over the screen area, the
    /// map's determinant). A slanted view stretches the footprint along one axis only.
    static func finerAxisSquared(_ ta: SIMD2<Float>, _ tb: SIMD2<Float>, _ tc: SIMD2<Float>,
                                 screen a: (Double, Double, Double), _ b: (Double, Double, Double), _ c: (Double, Double, Double),
                                 ratio: Double) -> Double {
        let e1 = (b.0 - a.0, b.1 - a.1), e2 = (c.0 - a.0, c.1 - a.1)
        let det = e1.0 * e2.1 - e2.0 * e1.1
        guard det != 0 else { return ratio }
        let f1 = SIMD2<Double>(tb - ta), f2 = SIMD2<Double>(tc - ta)
        let column1 = (f1 * e2.1 - f2 * e1.1) / det, column2 = (f2 * e1.0 - f1 * e2.0) / det
        let frobenius = (column1 * column1).sum() + (column2 * column2).sum()
        let root = max(0, frobenius * frobenius - 4 * ratio * ratio).squareRoot()
        let smaller = (frobenius - root) / 2
        return smaller.isFinite && smaller > 0 ? min(smaller, ratio) : ratio
    }

    /// The ground's colour before haze from interpolated (elevation, hillshade, ·). `ramp` is
    /// `TerrainStyle.rampTable`, fetched once by the caller rather than per pixel.
    @inline(__always)
    static func relief(_ a: SIMD3<Float>, _ palette: TerrainStyle.Palette, ramp t: [SIMD3<Float>]) -> SIMD3<Float> {
        let e = Double(a.x)
        var rgb: SIMD3<Float>
        if palette == .roadmap {
            let c = e < 0 ? TerrainStyle.roadmapWater : TerrainStyle.roadmapLand
            rgb = SIMD3<Float>(Float(c.0), Float(c.1), Float(c.2)) * (e < 0 ? 1 : 0.88 + 0.12 * a.y)
        } else if e < 0 {
            let t = Float(min(1, -e / 400))
            let shallow = SIMD3<Float>(Float(TerrainStyle.shallowWater.0), Float(TerrainStyle.shallowWater.1), Float(TerrainStyle.shallowWater.2))
            let deep = SIMD3<Float>(Float(TerrainStyle.deepWater.0), Float(TerrainStyle.deepWater.1), Float(TerrainStyle.deepWater.2))
            rgb = shallow + (deep - shallow) * t
        } else {
            // The ramp per metre (its stops are whole metres, so linear between entries is the
            // ramp itself), flat above its last stop.
            let x = min(a.x, Float(t.count - 2))
            let i = Int(x)
            rgb = (t[i] + (t[i + 1] - t[i]) * (x - Float(i))) * (0.25 + 0.75 * a.y)
        }
        return rgb
    }

    @inline(__always)
    static func pack(_ rgb: SIMD3<Float>) -> UInt32 {
        UInt32(min(255, max(0, rgb.x))) | UInt32(min(255, max(0, rgb.y))) << 8 | UInt32(min(255, max(0, rgb.z))) << 16 | 0xFF00_0000
    }
}

#if canImport(Glibc)
import Glibc
#endif
