// A polygon draped on the ground, filled pixel by pixel: each pixel of the ground pass's depth
// buffer is taken back to the ground point it shows, and that point is looked up in the
// polygon's coverage drawn top-down. A hill in front of part of the polygon shows its own
// ground there — outside the polygon — so the hill cuts the fill exactly where it stands; the
// polygon follows the relief between its vertices; and a tap hits it where its fill is drawn.
//
// The top-down plane: every point (east-north-up metres in the projection's frame) is taken
// along the Earth's radius to the sphere of the ellipsoid's equatorial radius under the frame's
// origin (the ground pass's sea-level sphere), so a point on a hilltop and the polygon's vertex
// at its foot land where the map puts them, whatever their heights.
//
// Coverage: the rings are rasterised (exact area coverage, even-odd) into a mask whose cell is
// the ground one device pixel covers at the polygon's nearest visible point (at most 2048 cells
// a side), sampled bilinearly per pixel: edges are anti-aliased near the eye; far away, where a
// pixel covers several cells, they are sharper.
import TerrapinGeo
import TerrapinGeometry
import TerrapinRaster
import TerrapinTerrain

struct DrapedArea {
    /// The rings in the top-down plane (metres), outer first.
    let rings: [[Point]]
    let minX: Double, minY: Double, maxX: Double, maxY: Double
    /// The Earth's centre in the frame, and the sphere's radius.
    let centre: Vector3
    static let radius = Ellipsoid.wgs84.a  // the sphere's too: both Earths share it
    /// Most mask cells a side.
    static let maxCells = 2048

    init?(_ geo: [[LatLngAltitude]], frame: LocalFrame) {
        centre = Vector3(0, 0, -Self.radius - frame.origin.altitude)
        let centre = centre
        let rings = geo.filter { $0.count >= 3 }.map { ring in ring.map { Self.plane(frame.enu($0), centre: centre) } }
        guard let box = ShapeResolver.bounds(rings), box.width.isFinite, box.height.isFinite else { return nil }
        self.rings = rings
        minX = box.minX; minY = box.minY; maxX = box.maxX; maxY = box.maxY
    }

    @inline(__always)
    static func plane(_ q: Vector3, centre: Vector3) -> Point {
        let r = q - centre
        let k = radius / (r.x * r.x + r.y * r.y + r.z * r.z).squareRoot()
        return Point(q.x * k, q.y * k)
    }

    /// Whether the ground point `q` (ENU) lies in the polygon (even-odd: holes excluded).
    func contains(_ q: Vector3) -> Bool {
        let p = Self.plane(q, centre: centre)
        guard p.x >= minX, p.x <= maxX, p.y >= minY, p.y <= maxY else { return false }
        return ResolvedScene.evenOdd(p, in: rings)
    }

    /// The lowest and highest ground the polygon can cover: its rings' heights, and the
    /// terrain's samples (of every level) inside its latitude/longitude box.
    static func heights(_ geo: [[LatLngAltitude]], terrain: TerrainGround?) -> ClosedRange<Double> {
        var lo = Double.infinity, hi = -Double.infinity
        var south = Double.infinity, north = -Double.infinity, west = Double.infinity, east = -Double.infinity
        for p in geo.joined() {
            lo = min(lo, p.altitude); hi = max(hi, p.altitude)
            south = min(south, p.latitude); north = max(north, p.latitude)
            west = min(west, p.longitude); east = max(east, p.longitude)
        }
        guard lo <= hi else { return 0...0 }
        let exaggeration = terrain?.exaggeration ?? 1
        for g in terrain?.levels ?? [] where east - west < 180 {
            let c0 = max(0, Int(((west - g.westCentre) / g.cellWidth).rounded(.down))), c1 = min(g.columns - 1, Int(((east - g.westCentre) / g.cellWidth).rounded(.up)))
            // Row 0 is the north edge.
            let r0 = max(0, Int(((g.northCentre - north) / g.cellHeight).rounded(.down))), r1 = min(g.rows - 1, Int(((g.northCentre - south) / g.cellHeight).rounded(.up)))
            if c0 <= c1, r0 <= r1 {
                var top = -Float.infinity, bottom = Float.infinity
                for r in r0...r1 { for c in c0...c1 { top = max(top, g[r, c]); bottom = min(bottom, g[r, c]) } }
                // Heights as the ground gives them: the sea at 0.
                hi = max(hi, max(0, Double(top) * exaggeration))
                lo = min(lo, max(0, Double(bottom) * exaggeration))
            }
        }
        return lo...hi
    }

    /// The device-pixel box of the buffer the polygon can show in: its plane box between the
    /// lowest and highest ground under it, projected (the whole buffer when a corner is behind
    /// the eye).
    func screenBox(_ probe: DepthProbe, heights: ClosedRange<Double>) -> IntRect {
        let full = IntRect(x0: 0, y0: 0, x1: probe.width, y1: probe.height)
        let projection = probe.projection
        var lo = Double.infinity, hi = -Double.infinity, top = Double.infinity, bottom = -Double.infinity
        for x in [minX, maxX] {
            for y in [minY, maxY] {
                for h in [heights.lowerBound, heights.upperBound] {
                    // The plane point back at height h above the sphere, along the radius.
                    let r = (x * x + y * y).squareRoot()
                    let d = asin(min(1, r / Self.radius))
                    let dir = r < 1e-9 ? Vector3(0, 0, 1) : Vector3(x / r, y / r, 0) * sin(d) + Vector3(0, 0, 1) * cos(d)
                    let q = centre + dir * (Self.radius + h)
                    guard let s = projection.project(enu: q) else { return full }
                    let px = s.x * probe.scale + probe.dx, py = s.y * probe.scale + probe.dy
                    lo = min(lo, px); hi = max(hi, px); top = min(top, py); bottom = max(bottom, py)
                }
            }
        }
        // The box's sides bulge with the Earth's curve between corners: a margin of 2 %.
        let mx = (hi - lo) * 0.02 + 2, my = (bottom - top) * 0.02 + 2
        let box = IntRect(x0: Int(max(-1, min(Double(probe.width) + 1, lo - mx)).rounded(.down)),
                          y0: Int(max(-1, min(Double(probe.height) + 1, top - my)).rounded(.down)),
                          x1: Int(max(-1, min(Double(probe.width) + 1, hi + mx)).rounded(.up)),
                          y1: Int(max(-1, min(Double(probe.height) + 1, bottom + my)).rounded(.up)))
        return box.intersection(full)
    }

    /// The fill's coverage over the buffer's pixels in `region` (a byte per pixel, row by row),
    /// or nil when no pixel of it shows the polygon.
    func coverage(_ probe: DepthProbe, region: IntRect, rasterizer: Rasterizer) -> [UInt8]? {
        guard !region.isEmpty else { return nil }
        // Pass 1: the plane point of every pixel in the box (from the box's corner, in single
        // precision: centimetres across a hundred kilometres), and the nearest depth among them.
        var points = [SIMD2<Float>](repeating: SIMD2(.nan, .nan), count: region.width * region.height)
        var nearest = Double.infinity
        for y in region.y0..<region.y1 {
            for x in region.x0..<region.x1 {
                guard let q = probe.point(x: x, y: y) else { continue }
                let p = Self.plane(q, centre: centre)
                // Every ground pixel is looked up (those just outside the box take the edge's
                // anti-aliasing; far ones read the mask's empty border); the nearest depth is
                // the polygon's own.
                points[(y - region.y0) * region.width + (x - region.x0)] = SIMD2(Float(p.x - minX), Float(p.y - minY))
                guard p.x >= minX, p.x <= maxX, p.y >= minY, p.y <= maxY else { continue }
                nearest = min(nearest, Double(probe.depth[y * probe.width + x]))
            }
        }
        guard nearest.isFinite else { return nil }
        // The mask: one cell per device pixel's footprint at the nearest point.
        let footprint = nearest / (probe.projection.focalLength * probe.scale)
        let extent = max(maxX - minX, maxY - minY)
        let cell = max(footprint, extent / Double(Self.maxCells - 2), 1e-3)
        let cols = Int((maxX - minX) / cell) + 3, rows = Int((maxY - minY) / cell) + 3
        var mask = [UInt8](repeating: 0, count: cols * rows)
        // Cell (i, j) covers plane [minX + (i - 1) · cell, …): one empty cell of border.
        var outline = Polylines()
        var b = PathBuilder()
        for ring in rings {
            b.move(to: Point((ring[0].x - minX) / cell + 1, (ring[0].y - minY) / cell + 1))
            for p in ring.dropFirst() { b.line(to: Point((p.x - minX) / cell + 1, (p.y - minY) / cell + 1)) }
            b.close()
        }
        b.build().flatten(into: &outline)
        mask.withUnsafeMutableBufferPointer { m in
            var sink = MaskSink(pixels: m.baseAddress!, width: cols)
            rasterizer.fill(outline, rule: .evenOdd, clip: IntRect(x0: 0, y0: 0, x1: cols, y1: rows), into: &sink)
        }
        // Pass 2: each pixel's coverage, the mask sampled bilinearly at its plane point.
        var out = [UInt8](repeating: 0, count: points.count)
        var any = false
        mask.withUnsafeBufferPointer { m in
            for i in points.indices {
                let p = points[i]
                guard p.x == p.x else { continue }
                let u = min(Double(cols), max(-1, Double(p.x) / cell + 0.5)), v = min(Double(rows), max(-1, Double(p.y) / cell + 0.5))
                let i0 = min(cols - 2, max(0, Int(u))), j0 = min(rows - 2, max(0, Int(v)))
                let fu = min(1, max(0, u - Double(i0))), fv = min(1, max(0, v - Double(j0)))
                let a = Double(m[j0 * cols + i0]), b = Double(m[j0 * cols + i0 + 1])
                let c = Double(m[(j0 + 1) * cols + i0]), d = Double(m[(j0 + 1) * cols + i0 + 1])
                let value = (a + (b - a) * fu) * (1 - fv) + (c + (d - c) * fu) * fv
                let byte = UInt8(min(255, max(0, value.rounded())))
                if byte > 0 { any = true }
                out[i] = byte
            }
        }
        return any ? out : nil
    }
}

#if canImport(Glibc)
import Glibc
#endif
