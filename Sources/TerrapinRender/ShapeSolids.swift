// Extruded polygons as solids of the 3D layer: walls from each ring (and hole) down to the
// ground, and a top triangulated with its holes, drawn by the model renderer into the ground's
// depth buffer — so terrain, buildings and models hide them and they hide what is behind them,
// lit by the map's sun.
import TerrapinGeo
import TerrapinModels
import TerrapinScene

enum ShapeSolids {
    /// Rings with more vertices than this in all get walls only (ear clipping is cubic at worst):
    /// their top is filled flat over the map as before.
    static let maxTopVertices = 500

    /// A solid for `rings` (outer first, each vertex lifted with the ground height under it), in
    /// the projection frame's east-north-up metres, and whether it has its top; nil when nothing
    /// can be built.
    static func solid(_ rings: [[(LatLngAltitude, ground: Double)]], color: SIMD4<Float>, projection: Projection) -> (model: PlacedModel, top: Bool)? {
        guard let first = rings.first?.first else { return nil }
        let frame = projection.frame
        let origin = frame.enu(first.0)
        var positions: [SIMD3<Float>] = []
        var indices: [UInt32] = []
        func local(_ p: LatLngAltitude) -> SIMD3<Float> {
            let v = frame.enu(p) - origin
            return SIMD3(Float(v.x), Float(v.y), Float(v.z))
        }
        var tops: [[SIMD3<Float>]] = []
        for ring in rings where ring.count >= 3 {
            let top = ring.map { local($0.0) }
            let bottom = ring.map { local(LatLngAltitude(latitude: $0.0.latitude, longitude: $0.0.longitude, altitude: $0.ground)) }
            tops.append(top)
            // Walls: one quad a segment (double-sided, so the ring's winding does not matter).
            for i in 0..<ring.count {
                let j = (i + 1) % ring.count
                let base = UInt32(positions.count)
                positions += [top[i], top[j], bottom[j], bottom[i]]
                indices += [base, base + 1, base + 2, base, base + 2, base + 3]
            }
        }
        guard !tops.isEmpty else { return nil }
        let withTop = tops.reduce(0) { $0 + $1.count } <= maxTopVertices
        if withTop {
            let base = UInt32(positions.count)
            positions += tops.flatMap { $0 }
            indices += triangulate(tops.map { $0.map { SIMD2(Double($0.x), Double($0.y)) } }).map { base + $0 }
        }
        guard positions.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else { return nil }
        var material = ModelMaterial()
        material.baseColorFactor = color
        material.doubleSided = true
        material.alphaMode = color.w < 1 ? .blend : .opaque
        guard let primitive = ModelPrimitive(positions: positions, indices: indices),
              let asset = ModelAsset(name: "extruded polygon", primitives: [primitive], materials: [material]) else { return nil }
        return (PlacedModel(asset: asset, linear: [1, 0, 0, 0, 1, 0, 0, 0, 1], origin: origin), withTop)
    }

    /// Triangles (indices into the rings' vertices, in order, outer first) covering the outer
    /// ring minus the holes: each hole joined to the outline by a bridge from its rightmost
    /// vertex, then ear clipping. Rings that are not simple are triangulated as far as they
    /// can be (what remains is left open rather than drawn wrongly).
    static func triangulate(_ rings: [[SIMD2<Double>]]) -> [UInt32] {
        var points: [SIMD2<Double>] = []
        var ringIndices: [[Int]] = []
        for ring in rings {
            ringIndices.append(Array(points.count..<(points.count + ring.count)))
            points += ring
        }
        func signedArea(_ r: [Int]) -> Double {
            var a = 0.0
            for k in r.indices { let p = points[r[k]], q = points[r[(k + 1) % r.count]]; a += p.x * q.y - q.x * p.y }
            return a / 2
        }
        guard var outline = ringIndices.first, outline.count >= 3 else { return [] }
        if signedArea(outline) < 0 { outline.reverse() }
        var holes = ringIndices.dropFirst().filter { $0.count >= 3 }.map { signedArea($0) > 0 ? Array($0.reversed()) : $0 }
        // Rightmost holes first, each bridged to the nearest outline vertex to its right that the
        // bridge can reach without crossing an edge.
        holes.sort { h1, h2 in h1.map { points[$0].x }.max()! > h2.map { points[$0].x }.max()! }
        func crosses(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>, _ d: SIMD2<Double>) -> Bool {
            func side(_ o: SIMD2<Double>, _ u: SIMD2<Double>, _ v: SIMD2<Double>) -> Double { (u.x - o.x) * (v.y - o.y) - (u.y - o.y) * (v.x - o.x) }
            let d1 = side(c, d, a), d2 = side(c, d, b), d3 = side(a, b, c), d4 = side(a, b, d)
            return (d1 > 0) != (d2 > 0) && (d3 > 0) != (d4 > 0) && d1 != 0 && d2 != 0 && d3 != 0 && d4 != 0
        }
        for (h, hole) in holes.enumerated() {
            let m = hole.indices.max { points[hole[$0]].x < points[hole[$1]].x }!
            let mp = points[hole[m]]
            let others = holes[(h + 1)...]
            var best: Int?
            var bestDistance = Double.infinity
            for (k, v) in outline.enumerated() {
                let p = points[v]
                guard p.x >= mp.x else { continue }
                let d = ((p - mp) * (p - mp)).sum()
                guard d < bestDistance else { continue }
                var blocked = false
                for ring in [outline] + others.map({ $0 }) + [hole] where !blocked {
                    for e in ring.indices {
                        let a = points[ring[e]], b = points[ring[(e + 1) % ring.count]]
                        if crosses(mp, p, a, b) { blocked = true; break }
                    }
                }
                if !blocked { best = k; bestDistance = d }
            }
            guard let b = best else { continue }   // no visible vertex: the hole is left out
            let rotated = Array(hole[m...] + hole[..<m])
            outline = Array(outline[...b]) + rotated + [rotated[0], outline[b]] + Array(outline[(b + 1)...])
        }
        // Ear clipping.
        var remaining = outline
        var out: [UInt32] = []
        func cross(_ o: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }
        var guardCount = 0
        while remaining.count > 3 && guardCount < 4 * outline.count * outline.count {
            guardCount += 1
            var clipped = false
            for k in remaining.indices {
                let ia = remaining[(k + remaining.count - 1) % remaining.count], ib = remaining[k], ic = remaining[(k + 1) % remaining.count]
                let a = points[ia], b = points[ib], c = points[ic]
                guard cross(a, b, c) > 0 else { continue }
                // No other vertex (bridge duplicates at the same place excluded) strictly inside.
                let blocked = remaining.contains { j in
                    let p = points[j]
                    if p == a || p == b || p == c { return false }
                    return cross(a, b, p) > 0 && cross(b, c, p) > 0 && cross(c, a, p) > 0
                }
                if blocked { continue }
                out += [UInt32(ia), UInt32(ib), UInt32(ic)]
                remaining.remove(at: k)
                clipped = true
                break
            }
            if !clipped { break }
        }
        if remaining.count == 3, cross(points[remaining[0]], points[remaining[1]], points[remaining[2]]) > 0 {
            out += remaining.map { UInt32($0) }
        }
        return out
    }
}
