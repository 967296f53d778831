// Buildings: footprints extruded from a base to a roof height, standing on the ground under
// them. With the terrain they make the surface "mesh" that `relativeToMesh` altitudes and
// occlusion use, and they are drawn into the terrain's depth buffer, so terrain and buildings
// hide each other correctly.
import TerrapinGeo
import TerrapinGeometry

/// An extruded footprint: a simple polygon of positions (altitudes ignored, either winding),
/// less its courtyards, from `base` to `roof` metres above the ground at the footprint's first
/// vertex.
public struct Building: Sendable, Equatable {
    public var footprint: [LatLngAltitude]
    /// Courtyards: rings inside the footprint with no building over them (either winding; each
    /// of at least 3 valid positions, or it is ignored; all rings together at most
    /// `maxVertices`). Default none.
    public var holes: [[LatLngAltitude]] = [] {
        didSet {
            var budget = Self.maxVertices - footprint.count
            holes = holes.filter { ring in
                guard ring.count >= 3, ring.count <= budget, ring.allSatisfy(\.isValid) else { return false }
                budget -= ring.count
                return true
            }
        }
    }
    /// The footprint, then the courtyards.
    public var rings: [[LatLngAltitude]] { [footprint] + holes }
    /// Metres above the ground where the walls start. Default 0.
    public var base: Double
    /// Metres above the ground of the flat roof.
    public var roof: Double
    /// sRGB 0…255. Default a light warm grey.
    public var color: SIMD3<Double>

    public static let maxVertices = 1_000
    /// Lit as a MapLibre style lights its `fill-extrusion`s (a basemap's buildings) instead of by
    /// the map's sun. Default nil: the sun.
    public var extrusionLight: ExtrusionLight?
    /// An image on the walls and roof instead of `color` (a basemap's `fill-extrusion-pattern`).
    public var pattern: BuildingPattern?

    /// Nil unless there are 3…1,000 valid vertices and 0 ≤ base < roof ≤ 10,000 m.
    public init?(footprint: [LatLngAltitude], base: Double = 0, roof: Double, color: SIMD3<Double> = SIMD3(214, 208, 198)) {
        guard (3...Self.maxVertices).contains(footprint.count), footprint.allSatisfy(\.isValid),
              base.isFinite, roof.isFinite, base >= 0, roof > base, roof <= 10_000 else { return nil }
        self.footprint = footprint
        self.base = base
        self.roof = roof
        self.color = color
    }

    /// Whether `p` lies inside the footprint and outside its courtyards (even-odd rule over
    /// every ring, in degrees: fine at building scale).
    public func contains(_ p: LatLngAltitude) -> Bool {
        var inside = false
        for ring in rings {
            var j = ring.count - 1
            for i in ring.indices {
                let a = ring[i], b = ring[j]
                if (a.latitude > p.latitude) != (b.latitude > p.latitude) {
                    let x = a.longitude + (p.latitude - a.latitude) / (b.latitude - a.latitude) * (b.longitude - a.longitude)
                    if p.longitude < x { inside.toggle() }
                }
                j = i
            }
        }
        return inside
    }
}

/// An image for building patterns, premultiplied RGBA 0…255 row-major, with its box-filtered
/// mipmaps (halving down to a texel), made once and shared by every building that shows it.
public final class PatternImage: Sendable {
    public let width: Int, height: Int
    /// Level 0 is the image.
    let levels: [(width: Int, height: Int, texels: [SIMD4<Float>])]

    /// Nil unless the texels fill `width` × `height` (at most 1,024 each way).
    public init?(width: Int, height: Int, texels: [SIMD4<Float>]) {
        guard (1...1024).contains(width), (1...1024).contains(height), texels.count == width * height else { return nil }
        self.width = width
        self.height = height
        var levels = [(width, height, texels)]
        while let (w, h, t) = levels.last, w > 1 || h > 1 {
            let nw = max(1, w / 2), nh = max(1, h / 2)
            var next = [SIMD4<Float>](repeating: .zero, count: nw * nh)
            for y in 0..<nh {
                for x in 0..<nw {
                    let x0 = min(w - 1, 2 * x), x1 = min(w - 1, 2 * x + 1), y0 = min(h - 1, 2 * y), y1 = min(h - 1, 2 * y + 1)
                    next[y * nw + x] = (t[y0 * w + x0] + t[y0 * w + x1] + t[y1 * w + x0] + t[y1 * w + x1]) / 4
                }
            }
            levels.append((nw, nh, next))
        }
        self.levels = levels
    }

    /// Bilinear between texel centres of level `level`, repeating both ways; `u`, `v` in the
    /// image's pixels (level 0).
    @inline(__always)
    func sample(_ u: Float, _ v: Float, level: Int) -> SIMD4<Float> {
        let (w, h, texels) = levels[level]
        let fu = u * Float(w) / Float(width) - 0.5, fv = v * Float(h) / Float(height) - 0.5
        let iu = fu.rounded(.down), iv = fv.rounded(.down)
        let su = fu - iu, sv = fv - iv
        guard iu.magnitude < 1e9, iv.magnitude < 1e9 else { return texels[0] }
        let x0 = (Int(iu) % w + w) % w, x1 = (x0 + 1) % w
        let y0 = (Int(iv) % h + h) % h, y1 = (y0 + 1) % h
        let top = texels[y0 * w + x0] * (1 - su) + texels[y0 * w + x1] * su
        let bottom = texels[y1 * w + x0] * (1 - su) + texels[y1 * w + x1] * su
        return top * (1 - sv) + bottom * sv
    }

    /// Trilinear: `lod` is log2 of image pixels per screen pixel (0 or less: the image itself).
    @inline(__always)
    func sample(_ u: Float, _ v: Float, lod: Float) -> SIMD4<Float> {
        guard lod > 0 else { return sample(u, v, level: 0) }
        let l = min(lod, Float(levels.count - 1))
        let i = Int(l), f = l - Float(i)
        let a = sample(u, v, level: i)
        guard f > 1 / 64, i + 1 < levels.count else { return a }
        return a + (sample(u, v, level: i + 1) - a) * f
    }
}

/// An image repeated over a building's walls and roof: on the roof at the rings' pattern
/// coordinates, on the walls along each ring (its distance from the ring's first vertex) and up
/// from the ground, upright. Transparent texels show the building's colour.
public struct BuildingPattern: Sendable, Equatable {
    public let image: PatternImage
    /// Per vertex of the rings (footprint, then courtyards, in order), in pattern pixels: the
    /// roof's coordinates; and per ring, the distance along it from its first vertex (one more
    /// value each: the ring's length, closing it).
    public let roof: [SIMD2<Double>]
    public let along: [[Double]]
    /// Pattern pixels per metre up a wall.
    public let upward: Double

    /// Nil unless the coordinates are finite, one per vertex of rings of `ringSizes` vertices
    /// (and each ring's length).
    public init?(image: PatternImage, roof: [SIMD2<Double>], along: [[Double]], upward: Double, ringSizes: [Int]) {
        guard roof.count == ringSizes.reduce(0, +), along.count == ringSizes.count, zip(along, ringSizes).allSatisfy({ $0.count == $1 + 1 }),
              roof.allSatisfy({ $0.x.isFinite && $0.y.isFinite }), along.allSatisfy({ $0.allSatisfy(\.isFinite) }), upward.isFinite, upward >= 0 else { return nil }
        self.image = image
        self.roof = roof
        self.along = along
        self.upward = upward
    }

    public static func == (a: BuildingPattern, b: BuildingPattern) -> Bool {
        a.image === b.image && a.roof == b.roof && a.along == b.along && a.upward == b.upward
    }
}

/// Terrain (or flat ground) with buildings on it.
public struct BuiltGround: Ground {
    public let terrain: Ground
    public let buildings: [Building]
    /// Each building's ground height (under its first vertex), computed once.
    let groundHeights: [Double]
    /// Each building's rings (footprint, then courtyards) on the ellipsoid (the trigonometry
    /// done once; occlusion tests run per marker and building).
    let surfaces: [[[Ellipsoid.Surface]]]

    public static let maxBuildings = 10_000

    public init(terrain: Ground, buildings: [Building]) {
        self.terrain = terrain
        self.buildings = buildings
        groundHeights = buildings.map { terrain.terrainHeight(at: $0.footprint[0]) }
        surfaces = buildings.map { $0.rings.map { $0.map { Ellipsoid.Surface(LatLngAltitude(latitude: $0.latitude, longitude: $0.longitude)) } } }
    }

    public func terrainHeight(at p: LatLngAltitude) -> Double { terrain.terrainHeight(at: p) }
    public var ellipsoid: Ellipsoid { terrain.ellipsoid }

    /// The highest roof over `p`, or the terrain's mesh.
    public func meshHeight(at p: LatLngAltitude) -> Double {
        var h = terrain.meshHeight(at: p)
        for (i, b) in buildings.enumerated() where b.contains(p) { h = max(h, groundHeights[i] + b.roof) }
        return h
    }

    /// Blocked by the terrain, or by any building's prism (the last metre before `point` is
    /// not tested, so a marker on a roof is not hidden by its own building).
    public func isOccluded(from eye: Vector3, to point: Vector3, in frame: LocalFrame) -> Bool {
        if terrain.isOccluded(from: eye, to: point, in: frame) { return true }
        let d = point - eye
        let length = d.length
        guard length > 1 else { return false }
        let end = eye + d * ((length - 1) / length)
        for i in buildings.indices where Self.segment(from: eye, to: end, hits: prism(i, frame: frame)) { return true }
        return false
    }

    /// Building `i`'s rings (footprint, then courtyards) in frame ENU (x, y) and its base and
    /// roof heights in frame z.
    func prism(_ i: Int, frame: LocalFrame) -> (rings: [[(Double, Double)]], bottom: Double, top: Double) {
        let b = buildings[i], ground = groundHeights[i]
        let rings = surfaces[i].map { ring in
            ring.map { s -> (Double, Double) in
                let low = frame.enu(s, height: ground + b.base)
                return (low.x, low.y)
            }
        }
        let corner = surfaces[i][0][0]
        return (rings, frame.enu(corner, height: ground + b.base).z, frame.enu(corner, height: ground + b.roof).z)
    }

    /// Whether the segment passes through the prism: clipped to its height range, then tested
    /// against the footprint in plan.
    static func segment(from a: Vector3, to b: Vector3, hits prism: (rings: [[(Double, Double)]], bottom: Double, top: Double)) -> Bool {
        var t0 = 0.0, t1 = 1.0
        let dz = b.z - a.z
        if abs(dz) < 1e-12 {
            guard a.z >= prism.bottom, a.z <= prism.top else { return false }
        } else {
            var ta = (prism.bottom - a.z) / dz, tb = (prism.top - a.z) / dz
            if ta > tb { swap(&ta, &tb) }
            t0 = max(t0, ta); t1 = min(t1, tb)
            guard t0 <= t1 else { return false }
        }
        let p = (a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0), q = (a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1)
        if inside(p, prism.rings) || inside(q, prism.rings) { return true }
        for ring in prism.rings {
            let n = ring.count
            for i in 0..<n where segmentsCross(p, q, ring[i], ring[(i + 1) % n]) { return true }
        }
        return false
    }

    /// Inside the footprint and outside its courtyards: the even-odd rule over every ring.
    static func inside(_ p: (Double, Double), _ rings: [[(Double, Double)]]) -> Bool {
        var inside = false
        for polygon in rings {
            var j = polygon.count - 1
            for i in polygon.indices {
                let a = polygon[i], b = polygon[j]
                if (a.1 > p.1) != (b.1 > p.1), p.0 < a.0 + (p.1 - a.1) / (b.1 - a.1) * (b.0 - a.0) { inside.toggle() }
                j = i
            }
        }
        return inside
    }

    static func segmentsCross(_ p: (Double, Double), _ q: (Double, Double), _ a: (Double, Double), _ b: (Double, Double)) -> Bool {
        func side(_ o: (Double, Double), _ u: (Double, Double), _ v: (Double, Double)) -> Double { (u.0 - o.0) * (v.1 - o.1) - (u.1 - o.1) * (v.0 - o.0) }
        let d1 = side(a, b, p), d2 = side(a, b, q), d3 = side(p, q, a), d4 = side(p, q, b)
        return (d1 > 0) != (d2 > 0) && (d3 > 0) != (d4 > 0)
    }
}

/// The light of a MapLibre style (its root `light`) on `fill-extrusion`s, shaded as MapLibre GL
/// shades them: the colour plus 3 % ambient, times a directional term whose range is narrower for
/// a lower `intensity` and for a lighter colour, and on walls a vertical gradient (darker towards
/// the ground; for walls under 106 m at the default intensity, 0.84 of the roof's light throughout).
public struct ExtrusionLight: Equatable, Sendable {
    /// Radial coordinate, azimuth (degrees clockwise from the top of the view, or from north when
    /// `anchoredToMap`) and polar angle (degrees from straight up) of the light.
    public var position: SIMD3<Double>
    /// 0…1.
    public var intensity: Double
    /// 0…1 a channel.
    public var color: SIMD3<Double>
    public var anchoredToMap: Bool
    /// `fill-extrusion-vertical-gradient` (the property is per layer; true by default).
    public var verticalGradient: Bool

    public init(position: SIMD3<Double> = SIMD3(1.15, 210, 30), intensity: Double = 0.5, color: SIMD3<Double> = SIMD3(1, 1, 1),
                anchoredToMap: Bool = false, verticalGradient: Bool = true) {
        self.position = position
        self.intensity = intensity
        self.color = color
        self.anchoredToMap = anchoredToMap
        self.verticalGradient = verticalGradient
    }

    /// MapLibre's default light.
    public static let standard = ExtrusionLight()

    /// Towards the light in east-north-up for a camera `heading` (a viewport light turns with
    /// the view), at the position's radial length (MapLibre does not normalise it).
    public func direction(heading: Double) -> SIMD3<Double> {
        let azimuth = (position.y + (anchoredToMap ? 0 : heading)) * Double.pi / 180, polar = position.z * Double.pi / 180
        return SIMD3(position.x * sin(azimuth) * sin(polar), position.x * cos(azimuth) * sin(polar), position.x * cos(polar))
    }

    /// The shade (sRGB 0…255) of `color` (0…255) on a face whose outward normal (east, north,
    /// up; unit) is `normal`, lit from `towards`. Walls pass where the vertex is (`top`) and the
    /// building's `base` and `height` in metres for the vertical gradient; roofs pass nil.
    public func shade(_ color: SIMD3<Double>, normal: SIMD3<Double>, towards: SIMD3<Double>, wall: (top: Bool, base: Double, height: Double)?) -> SIMD3<Float> {
        let c = color / 255
        let luminance = c.x * 0.2126 + c.y * 0.7152 + c.z * 0.0722
        let d = directional(brightest: max(1 - luminance + intensity, 1), normal: normal, towards: towards, wall: wall)
        return lit((c + 0.03) * d) * 255
    }

    /// The factor a `fill-extrusion-pattern`'s texels are multiplied by (MapLibre's pattern
    /// shader: no ambient term, a wider directional range), a channel each.
    public func patternFactor(normal: SIMD3<Double>, towards: SIMD3<Double>, wall: (top: Bool, base: Double, height: Double)?) -> SIMD3<Float> {
        lit(SIMD3(repeating: directional(brightest: max(0.5 + intensity, 1), normal: normal, towards: towards, wall: wall)))
    }

    /// The directional term: from 1 − intensity facing away from the light to `brightest` facing
    /// it, times the vertical gradient on walls.
    func directional(brightest: Double, normal: SIMD3<Double>, towards: SIMD3<Double>, wall: (top: Bool, base: Double, height: Double)?) -> Double {
        let facing = max(0, min(1, (normal * towards).sum()))
        var d = (1 - intensity) + (brightest - (1 - intensity)) * facing
        if let wall, verticalGradient {
            let least = 0.7 + (0.98 - 0.7) * (1 - intensity)
            d *= max(least, min(1, ((wall.top ? 1 : 0) + max(0, wall.base)) * (max(0, wall.height) / 150).squareRoot()))
        }
        return d
    }

    /// `v` in the light's colour, each channel kept within [0.3 × (1 − the light's), 1].
    func lit(_ v: SIMD3<Double>) -> SIMD3<Float> {
        var out = SIMD3<Float>()
        for i in 0..<3 { out[i] = Float(min(1, max(0.3 * (1 - color[i]), v[i] * color[i]))) }
        return out
    }
}

public enum BuildingRenderer {
    /// Draws the buildings into `frame` (device pixels; `toDevice` as for the terrain): walls lit
    /// by the sun (Lambert, 45 % ambient) and the roof from above, or a style's buildings by its
    /// `ExtrusionLight`; hazed with distance like the terrain. Triangles with a corner behind the
    /// eye are skipped.
    @discardableResult
    public static func draw(_ ground: BuiltGround, projection: Projection, toDevice: (scale: Double, dx: Double, dy: Double),
                            horizon: SIMD3<Float>, hazeDistance: Double, style: TerrainStyle = TerrainStyle(), into frame: inout DepthFrame) -> Int {
        var count = 0
        let light = style.light
        for (i, b) in ground.buildings.enumerated() {
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
            let pack = { (c: SIMD3<Float>) -> UInt32 in
                UInt32(min(255, max(0, c.x))) | UInt32(min(255, max(0, c.y))) << 8 | UInt32(min(255, max(0, c.z))) << 16 | 0xFF00_0000
            }
            /// The pattern's shade at pattern coordinates (over the building's colour where it is
            /// transparent), times the light's `factor`, hazed.
            func patterned(_ pattern: BuildingPattern, _ factor: SIMD3<Float>, depth: Double, lod: Float) -> (SIMD2<Float>) -> UInt32 {
                let haze = haze(depth)
                return { uv in
                    let t = pattern.image.sample(uv.x, uv.y, lod: lod)
                    let rgb = (SIMD3(t.x, t.y, t.z) + own * (1 - t.w / 255)) * factor
                    return pack(rgb * (1 - haze) + horizon * haze)
                }
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
                        frame.triangle(p0, q0, q1, SIMD2(ui, vb), SIMD2(uj, vb), SIMD2(uj, vt), perspective: true, shade: shade)
                        frame.triangle(p0, q1, p1, SIMD2(ui, vb), SIMD2(uj, vt), SIMD2(ui, vt), perspective: true, shade: shade)
                    } else if let (light, towards) = styled {
                        let normal = SIMD3(ey / len, -ex / len, 0), depth = (p0.2 + q1.2) / 2
                        let bottom = hazed(light.shade(b.color, normal: normal, towards: towards, wall: (false, b.base, b.roof)), depth: depth)
                        let top = hazed(light.shade(b.color, normal: normal, towards: towards, wall: (true, b.base, b.roof)), depth: depth)
                        frame.triangle(p0, q0, q1, bottom, bottom, top, shade: pack)
                        frame.triangle(p0, q1, p1, bottom, top, top, shade: pack)
                    } else {
                        let c = colour(lit, depth: (p0.2 + q1.2) / 2)
                        frame.triangle(p0, q0, q1, c, c, c, shade: pack)
                        frame.triangle(p0, q1, p1, c, c, c, shade: pack)
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
            let roofShade = pattern.map { pattern -> (SIMD2<Float>) -> UInt32 in
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
                    frame.triangle(sa, sb, sc, uv(ia), uv(ib), uv(ic), perspective: true, shade: roofShade)
                } else {
                    frame.triangle(sa, sb, sc, roofColour, roofColour, roofColour, shade: pack)
                }
                count += 1
            }
        }
        return count
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
