// Buildings drawn into the ground's depth frame: walls and roofs as triangles, lit, patterned.
import Terrapin3D
import TerrapinGeo
import TerrapinImagery
import TerrapinTerrainData
import TerrapinGeometry
import TerrapinRaster

public enum BuildingRenderer {
    /// Draws the buildings into `frame` (device pixels; `toDevice` as for the terrain): walls lit
    /// by the sun (Lambert, 45 % ambient) and the roof from above, or a style's buildings by its
    /// `ExtrusionLight`; hazed with distance like the terrain. Triangles with a corner behind the
    /// eye are skipped.
    /// Buildings with an `opacity` under 1 are drawn by opacity, in the order each first
    /// appears: each group whole into a layer of its own (against the frame's depth), then laid
    /// over the frame at its opacity, leaving the frame's depth as it was. At most
    /// `maxTranslucentLayers` groups (each costs a frame's pixels twice): a building of a further
    /// opacity joins the group nearest it. Returns the triangles drawn.
    /// The triangles are drawn in `bands` bands of rows at once (by default two a core); the
    /// bytes are the same for any number.
    @discardableResult
    public static func draw(_ ground: BuiltGround, projection: Projection, toDevice: (scale: Double, dx: Double, dy: Double),
                            horizon: SIMD3<Float>, hazeDistance: Double, style: TerrainStyle = TerrainStyle(), bands: Int? = nil,
                            into frame: inout DepthFrame) -> Int {
        draw(ground, projection: projection, toDevice: toDevice, horizon: horizon, hazeDistance: hazeDistance, style: style,
             bands: bands ?? frame.bands, batch: Faces.batch, into: &frame)
    }

    /// `draw`, making and drawing at most about `batch` triangles at a time.
    static func draw(_ ground: BuiltGround, projection: Projection, toDevice: (scale: Double, dx: Double, dy: Double),
                     horizon: SIMD3<Float>, hazeDistance: Double, style: TerrainStyle, bands: Int, batch: Int, into frame: inout DepthFrame) -> Int {
        // Each building's opacity, read in place (a `Building` copied is a copy of its rings).
        let opacities = ground.buildings.map { $0.opacity.isNaN ? 1 : min(1, max(0, $0.opacity)) }
        let opaque = ground.buildings.indices.filter { opacities[$0] >= 1 }
        var count = draw(ground, opaque.filter { ground.buildings[$0].pattern == nil }, projection: projection, toDevice: toDevice,
                         horizon: horizon, hazeDistance: hazeDistance, style: style, bands: bands, batch: batch, into: &frame)
        // Patterned buildings: their images' transparent texels show the ground behind, not
        // their own far walls, as MapLibre draws a patterned layer — depth first, then colour
        // where each pixel's nearest surface is — into a layer laid over the frame.
        let patterned = opaque.filter { ground.buildings[$0].pattern != nil }
        if !patterned.isEmpty {
            var layer = DepthFrame(width: frame.width, height: frame.height)
            layer.depth = frame.depth
            // Both passes draw the same triangles: the first batch made once for both, the
            // rest (if one batch does not hold them all) made again for each.
            var faces = Faces()
            let first = Self.faces(ground, patterned, from: 0, batch: batch, projection: projection, toDevice: toDevice, horizon: horizon,
                                   hazeDistance: hazeDistance, style: style, into: &faces)
            func pass() -> Int {
                faces.draw(into: &layer, horizon: horizon, bands: bands)
                return first.count + draw(ground, Array(patterned[first.next...]), projection: projection, toDevice: toDevice, horizon: horizon,
                                          hazeDistance: hazeDistance, style: style, bands: bands, batch: batch, into: &layer)
            }
            _ = pass()
            let nearest = layer.depth
            // The second pass draws where a surface is the nearest (within a millionth).
            for i in layer.depth.indices { layer.depth[i] = nearest[i] * (1 + 1e-6); layer.pixels[i] = 0 }
            count += pass()
            for i in layer.pixels.indices {
                frame.depth[i] = min(frame.depth[i], nearest[i])
                if layer.pixels[i] != 0 { frame.pixels[i] = PremultipliedRGBA8.over(layer.pixels[i], frame.pixels[i]) }
            }
        }
        var groups: [Double] = []
        for o in opacities where o < 1 && o > 0 && !groups.contains(o) && groups.count < maxTranslucentLayers {
            groups.append(o)
        }
        func group(_ i: Int) -> Double? {
            let o = opacities[i]
            guard o < 1, o > 0 else { return nil }
            return groups.contains(o) ? o : groups.min { abs($0 - o) < abs($1 - o) }
        }
        for g in groups {
            var layer = DepthFrame(width: frame.width, height: frame.height)
            layer.depth = frame.depth
            count += draw(ground, ground.buildings.indices.filter { group($0) == g }, projection: projection, toDevice: toDevice,
                          horizon: horizon, hazeDistance: hazeDistance, style: style, bands: bands, batch: batch, into: &layer)
            // Premultiplied, source over, the layer times the group's opacity.
            let k = UInt32((g * 256).rounded())
            for i in layer.pixels.indices where layer.pixels[i] != 0 {
                let top = layer.pixels[i], under = frame.pixels[i]
                let keep = 256 - ((top >> 24) * k + 128) / 256
                var out: UInt32 = 0
                for shift in stride(from: 0, to: 32, by: 8) {
                    let t = (top >> UInt32(shift)) & 0xFF, u = (under >> UInt32(shift)) & 0xFF
                    out |= min(255, (t * k + u * keep + 128) / 256) << UInt32(shift)
                }
                frame.pixels[i] = out
            }
        }
        return count
    }

    /// Most translucent building layers drawn apart (`draw`).
    public static let maxTranslucentLayers = 16

    /// The buildings at `indices`, drawn into `frame` opaque: their triangles made in order
    /// (`faces`), then drawn in bands of rows on all cores (`Faces.draw`), at most about
    /// `batch` triangles at a time (batches drawn in order keep each pixel's order).
    static func draw(_ ground: BuiltGround, _ indices: [Int], projection: Projection, toDevice: (scale: Double, dx: Double, dy: Double),
                     horizon: SIMD3<Float>, hazeDistance: Double, style: TerrainStyle, bands: Int, batch: Int, into frame: inout DepthFrame) -> Int {
        var faces = Faces(), count = 0, next = 0
        while next < indices.count {
            faces.removeAll()
            let made = Self.faces(ground, indices, from: next, batch: batch, projection: projection, toDevice: toDevice, horizon: horizon,
                                  hazeDistance: hazeDistance, style: style, into: &faces)
            count += made.count
            next = made.next
            faces.draw(into: &frame, horizon: horizon, bands: bands)
        }
        return count
    }

    /// Appends the triangles of the buildings at `indices` from `start`, whole buildings until
    /// `batch` or more are held; their number, and the position of the next building.
    static func faces(_ ground: BuiltGround, _ indices: [Int], from start: Int, batch: Int, projection: Projection,
                      toDevice: (scale: Double, dx: Double, dy: Double), horizon: SIMD3<Float>, hazeDistance: Double, style: TerrainStyle,
                      into faces: inout Faces) -> (count: Int, next: Int) {
        var count = 0, next = start
        while next < indices.count && faces.count < batch {
            count += Self.faces(ground, indices[next], projection: projection, toDevice: toDevice, horizon: horizon, hazeDistance: hazeDistance,
                                style: style, into: &faces)
            next += 1
        }
        return (count, next)
    }

    /// Appends the triangles of building `i`, in the order they are drawn; returns their
    /// number.
    static func faces(_ ground: BuiltGround, _ i: Int, projection: Projection, toDevice: (scale: Double, dx: Double, dy: Double),
                      horizon: SIMD3<Float>, hazeDistance: Double, style: TerrainStyle, into faces: inout Faces) -> Int {
        var count = 0
        let light = style.light
        let b = ground.buildings[i]
        let prism = ground.prism(i, frame: projection.frame)
        // The footprint counter-clockwise in plan and the courtyards clockwise, so each
        // wall's outward normal (away from the building) is (dy, −dx); `order` keeps each
        // corner's index in its ring, `offsets` where each ring starts among all corners.
        var rings = prism.rings
        var orders: [[Int]] = []
        var offsets: [Int] = []
        var total = 0
        for r in rings.indices {
            let n = rings[r].count
            offsets.append(total)
            total += n
            var order = Array(0..<n)
            var area = 0.0
            for k in 0..<n { let p = rings[r][k], q = rings[r][(k + 1) % n]; area += p.0 * q.1 - q.0 * p.1 }
            if (area < 0) == (r == 0) { rings[r].reverse(); order.reverse() }
            orders.append(order)
        }
        let polygon = rings[0]
        // The pattern, if its coordinates are the rings' (a pattern made for other rings —
        // courtyards set after it, or left out — is not drawn rather than misread).
        let pattern = b.pattern.flatMap { p in
            p.roof.count == total && p.along.count == rings.count && zip(p.along, rings).allSatisfy({ $0.count == $1.count + 1 }) ? p : nil
        }
        func screen(_ p: (Double, Double), _ z: Double) -> (Double, Double, Double)? {
            guard let s = projection.project(enu: Vector3(p.0, p.1, z)) else { return nil }
            return (s.x * toDevice.scale + toDevice.dx, s.y * toDevice.scale + toDevice.dy, s.depth)
        }
        let own = SIMD3<Float>(Float(b.color.x), Float(b.color.y), Float(b.color.z))
        // A style's light, towards which (east, north, up) for this view.
        let styled = b.extrusionLight.map { ($0, $0.direction(heading: projection.camera.heading)) }
        /// The haze at `depth`, and a colour hazed by it.
        func haze(_ depth: Double) -> Float { Float(1 - exp(-depth / hazeDistance)) * 0.85 }
        func hazed(_ c: SIMD3<Float>, depth: Double) -> SIMD3<Float> {
            let h = haze(depth)
            return c * (1 - h) + horizon * h
        }
        /// The sun's factor on a face whose cosine to it is `lit` (Lambert, 45 % ambient).
        func sunlight(_ lit: Double) -> Float { Float(0.45 + 0.55 * max(0, min(1, lit))) }
        func colour(_ lit: Double, depth: Double) -> SIMD3<Float> { hazed(own * sunlight(lit), depth: depth) }
        /// The pattern's shade (`PatternShade`), times the light's `factor`, hazed at `depth`.
        func patterned(_ pattern: BuildingPattern, _ factor: SIMD3<Float>, depth: Double, lod: Float) -> Int32 {
            faces.shade(PatternShade(image: pattern.image, factor: factor, haze: haze(depth), lod: lod))
        }
        // Walls, of the footprint and round the courtyards.
        for (r, ring) in rings.enumerated() {
            let n = ring.count, order = orders[r]
            for k in 0..<n {
                let p = ring[k], q = ring[(k + 1) % n]
                let ex = q.0 - p.0, ey = q.1 - p.1
                let len = (ex * ex + ey * ey).squareRoot()
                guard len > 1e-9 else { continue }
                let lit = (ey * light.0 - ex * light.1) / len
                guard let p0 = screen(p, prism.bottom), let q0 = screen(q, prism.bottom),
                      let p1 = screen(p, prism.top), let q1 = screen(q, prism.top) else { continue }
                if let pattern {
                    // Along the ring: the corner that closes it is at the ring's length.
                    let i = order[k], j = order[(k + 1) % n], along = pattern.along[r]
                    let up = i == (j + 1) % n
                    let ui = Float(up && i == 0 ? along[n] : along[i]), uj = Float(!up && j == 0 ? along[n] : along[j])
                    // Upright: the image's top towards the roof.
                    let vb = Float(-b.base * pattern.upward), vt = Float(-b.roof * pattern.upward)
                    // The mipmap level from the quad's image pixels per screen pixel (one for
                    // both triangles: no seam along the diagonal).
                    let screenArea = (abs(Self.area(p0, q0, q1)) + abs(Self.area(p0, q1, p1))) / 2
                    let imageArea = abs(Double(uj - ui) * Double(vt - vb))
                    // A style's light: its factor halfway up (MapLibre's differs at each end
                    // only on walls over 106 m at the default intensity).
                    let factor = styled.map { light, towards in
                        let normal = SIMD3(ey / len, -ex / len, 0)
                        return (light.patternFactor(normal: normal, towards: towards, wall: (false, b.base, b.roof))
                                + light.patternFactor(normal: normal, towards: towards, wall: (true, b.base, b.roof))) / 2
                    } ?? SIMD3(repeating: sunlight(lit))
                    let shade = patterned(pattern, factor, depth: (p0.2 + q1.2) / 2, lod: Self.lod(imageArea, screenArea))
                    faces.append(.pattern(p0, q0, q1, SIMD2(ui, vb), SIMD2(uj, vb), SIMD2(uj, vt), shade: shade))
                    faces.append(.pattern(p0, q1, p1, SIMD2(ui, vb), SIMD2(uj, vt), SIMD2(ui, vt), shade: shade))
                } else if let (light, towards) = styled {
                    let normal = SIMD3(ey / len, -ex / len, 0), depth = (p0.2 + q1.2) / 2
                    let bottom = hazed(light.shade(b.color, normal: normal, towards: towards, wall: (false, b.base, b.roof)), depth: depth)
                    let top = hazed(light.shade(b.color, normal: normal, towards: towards, wall: (true, b.base, b.roof)), depth: depth)
                    faces.append(.colour(p0, q0, q1, bottom, bottom, top))
                    faces.append(.colour(p0, q1, p1, bottom, top, top))
                } else {
                    let c = colour(lit, depth: (p0.2 + q1.2) / 2)
                    faces.append(.colour(p0, q0, q1, c, c, c))
                    faces.append(.colour(p0, q1, p1, c, c, c))
                }
                count += 2
            }
        }
        // Roof, by ear clipping.
        // A style's roofs as its light shades them; other roofs lit by the sun from above.
        let roofLit = light.2, roofDepth = screen(polygon[0], prism.top)?.2 ?? 0
        let roofColour = styled.map { hazed($0.0.shade(b.color, normal: SIMD3(0, 0, 1), towards: $0.1, wall: nil), depth: roofDepth) }
            ?? colour(roofLit, depth: roofDepth)
        let triangles = Triangulation.triangulate(rings.map { $0.map { Point($0.0, $0.1) } })
        // Each corner of the triangulation (the rings' corners in order): its position and
        // its index among the rings' original corners.
        let corners = rings.flatMap { $0 }
        let original = orders.indices.flatMap { r in orders[r].map { offsets[r] + $0 } }
        // One mipmap level for the roof, from all its triangles (no seams inside it).
        let roofShade = pattern.map { pattern -> Int32 in
            var screenArea = 0.0, imageArea = 0.0
            for t in stride(from: 0, to: triangles.count - 2, by: 3) {
                let ia = triangles[t], ib = triangles[t + 1], ic = triangles[t + 2]
                guard let sa = screen(corners[ia], prism.top), let sb = screen(corners[ib], prism.top), let sc = screen(corners[ic], prism.top) else { continue }
                screenArea += abs(Self.area(sa, sb, sc)) / 2
                let ua = pattern.roof[original[ia]], ub = pattern.roof[original[ib]], uc = pattern.roof[original[ic]]
                imageArea += abs((ub.x - ua.x) * (uc.y - ua.y) - (uc.x - ua.x) * (ub.y - ua.y)) / 2
            }
            let factor = styled.map { $0.0.patternFactor(normal: SIMD3(0, 0, 1), towards: $0.1, wall: nil) } ?? SIMD3(repeating: sunlight(roofLit))
            return patterned(pattern, factor, depth: roofDepth, lod: Self.lod(imageArea, screenArea))
        }
        for t in stride(from: 0, to: triangles.count - 2, by: 3) {
            let ia = triangles[t], ib = triangles[t + 1], ic = triangles[t + 2]
            guard let sa = screen(corners[ia], prism.top), let sb = screen(corners[ib], prism.top), let sc = screen(corners[ic], prism.top) else { continue }
            if let pattern, let roofShade {
                func uv(_ k: Int) -> SIMD2<Float> { SIMD2<Float>(pattern.roof[original[k]]) }
                faces.append(.pattern(sa, sb, sc, uv(ia), uv(ib), uv(ic), shade: roofShade))
            } else {
                faces.append(.colour(sa, sb, sc, roofColour, roofColour, roofColour))
            }
            count += 1
        }
        return count
    }

    /// Buildings' triangles in the order they are made, drawn in bands of rows on all cores:
    /// each band draws every triangle's rows within it, in that order, so each pixel meets the
    /// same triangles in the same order as in one pass over the frame, and the rasteriser
    /// decides a pixel the same in any band (`DepthRaster`): the bytes do not depend on the
    /// number of bands.
    struct Faces {
        typealias Corner = (Double, Double, Double)
        enum Face {
            /// Colours (0…255, hazed) interpolated across the screen, packed opaque.
            case colour(Corner, Corner, Corner, SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)
            /// Pattern coordinates, interpolated perspective-correctly, shaded by `shades[shade]`.
            case pattern(Corner, Corner, Corner, SIMD2<Float>, SIMD2<Float>, SIMD2<Float>, shade: Int32)
        }
        private(set) var faces: [Face] = []
        private(set) var shades: [PatternShade] = []

        /// Triangles drawn at a time (about 8 MiB of them; a building of more is drawn whole):
        /// a scene's buildings may make a million.
        static let batch = 65_536

        var count: Int { faces.count }

        mutating func append(_ face: Face) { faces.append(face) }

        /// Empties the lists, keeping their storage.
        mutating func removeAll() {
            faces.removeAll(keepingCapacity: true)
            shades.removeAll(keepingCapacity: true)
        }

        /// Adds a shade; its index for `Face.pattern`.
        mutating func shade(_ shade: PatternShade) -> Int32 {
            shades.append(shade)
            return Int32(shades.count - 1)
        }

        func draw(into frame: inout DepthFrame, horizon: SIMD3<Float>, bands: Int) {
            guard !faces.isEmpty else { return }
            let faces = self.faces, shades = self.shades
            frame.inBands(bands) { raster in
                for face in faces {
                    switch face {
                    case let .colour(p0, p1, p2, c0, c1, c2):
                        raster.triangle(p0, p1, p2, c0, c1, c2, shade: BuildingRenderer.pack)
                    case let .pattern(p0, p1, p2, t0, t1, t2, index):
                        let shade = shades[Int(index)]
                        raster.triangle(p0, p1, p2, t0, t1, t2, perspective: true) { shade.pixel($0, horizon: horizon) }
                    }
                }
            }
        }
    }

    /// A colour (0…255 floats) as an opaque pixel, each channel clamped and truncated.
    @inline(__always)
    static func pack(_ c: SIMD3<Float>) -> UInt32 {
        UInt32(min(255, max(0, c.x))) | UInt32(min(255, max(0, c.y))) << 8 | UInt32(min(255, max(0, c.z))) << 16 | 0xFF00_0000
    }

    /// A pattern's shade at pattern coordinates, times the light's `factor`, hazed by `haze`,
    /// premultiplied: where the image is transparent what lies behind shows through (as
    /// MapLibre's pattern shader leaves the extrusion's colour out), over what the frame holds
    /// there.
    struct PatternShade: Sendable {
        let image: PatternImage
        let factor: SIMD3<Float>
        let haze: Float
        let lod: Float

        @inline(__always)
        func pixel(_ uv: SIMD2<Float>, horizon: SIMD3<Float>) -> UInt32 {
            let t = image.sample(uv.x, uv.y, lod: lod)
            let a = min(255, max(0, t.w))
            let rgb = SIMD3(t.x, t.y, t.z) * factor * (1 - haze) + horizon * haze * (a / 255)
            return UInt32(min(a, max(0, rgb.x))) | UInt32(min(a, max(0, rgb.y))) << 8 | UInt32(min(a, max(0, rgb.z))) << 16 | UInt32(a) << 24
        }
    }

    /// Twice the signed area of a screen triangle.
    static func area(_ a: (Double, Double, Double), _ b: (Double, Double, Double), _ c: (Double, Double, Double)) -> Double {
        (b.0 - a.0) * (c.1 - a.1) - (c.0 - a.0) * (b.1 - a.1)
    }

    /// log2 of image pixels per screen pixel, from their areas (0 for a face seen edge on).
    static func lod(_ imageArea: Double, _ screenArea: Double) -> Float {
        guard screenArea > 1e-9, imageArea > 0 else { return 0 }
        let lod = 0.5 * log2(imageArea / screenArea)
        return lod.isFinite ? Float(min(30, lod)) : 0
    }

    /// What `draw` will rasterise at `scale` device pixels per point onto a `width` × `height`
    /// canvas, in pixels tested: each wall's box and the roof's box cut to the canvas, plus three
    /// pixels a row for each roof triangle (the rasteriser tests a row's span with a pixel of
    /// margin each side). An upper bound, found by projecting the corners only: what a render's
    /// work budget checks before drawing.
    public static func estimatedPixels(_ ground: BuiltGround, projection: Projection, scale: Double, width: Int, height: Int) -> Double {
        let w = Double(width), h = Double(height)
        func clipped(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Double {
            max(0, min(w, x1) - max(0, x0)) * max(0, min(h, y1) - max(0, y0))
        }
        var total = 0.0
        for i in ground.buildings.indices {
            let prism = ground.prism(i, frame: projection.frame)
            var roof = (x0: Double.infinity, y0: Double.infinity, x1: -Double.infinity, y1: -Double.infinity)
            var cornerCount = 0
            // Walls of every ring (the courtyards' too); the roof's box is the footprint's.
            for ring in prism.rings {
                var corners: [(bottom: (Double, Double)?, top: (Double, Double)?)] = []
                corners.reserveCapacity(ring.count)
                for p in ring {
                    func screen(_ z: Double) -> (Double, Double)? {
                        projection.project(enu: Vector3(p.0, p.1, z)).map { ($0.x * scale, $0.y * scale) }
                    }
                    corners.append((screen(prism.bottom), screen(prism.top)))
                }
                let n = corners.count
                cornerCount += n
                for k in 0..<n {
                    let a = corners[k], b = corners[(k + 1) % n]
                    guard let a0 = a.bottom, let a1 = a.top, let b0 = b.bottom, let b1 = b.top else { continue }
                    total += clipped(min(a0.0, a1.0, b0.0, b1.0), min(a0.1, a1.1, b0.1, b1.1), max(a0.0, a1.0, b0.0, b1.0), max(a0.1, a1.1, b0.1, b1.1))
                    roof = (min(roof.x0, a1.0), min(roof.y0, a1.1), max(roof.x1, a1.0), max(roof.y1, a1.1))
                }
            }
            guard roof.x0 <= roof.x1 else { continue }
            let rows = max(0, min(h, roof.y1) - max(0, roof.y0))
            total += clipped(roof.x0, roof.y0, roof.x1, roof.y1) + Double(max(0, cornerCount - 2)) * rows * 3
        }
        return total
    }

}

#if canImport(Glibc)
import Glibc
#endif
