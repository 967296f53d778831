// Shapes as solids of the 3D layer, drawn by the model renderer into the ground's depth buffer —
// so terrain, buildings and models hide them and they hide what is behind them: extruded
// polygons (walls from each ring and hole down to the ground, and a top triangulated with its
// holes, lit by the map's sun), lifted polygons (the top alone, unlit) and lifted lines'
// curtains (unlit, translucent).
import TerrapinGeo
import TerrapinGeometry
import TerrapinModels
import TerrapinRaster
import TerrapinScene
import TerrapinViews

enum ShapeSolids {
    /// Rings with more vertices than this in all get walls only (ear clipping is cubic at worst):
    /// their top is filled flat over the map as before.
    static let maxTopVertices = 500

    /// A solid for `rings` (outer first, each vertex lifted with the ground height under it), in
    /// the projection frame's east-north-up metres, and whether it has its top; nil when nothing
    /// can be built.
    /// Without `walls`, the top alone, unlit (a lifted polygon that is not extruded: its fill
    /// as a plate at its altitude); nil when the top cannot be built.
    static func solid(_ rings: [[(LatLngAltitude, ground: Double)]], color: SIMD4<Float>, projection: Projection, walls: Bool = true) -> (model: PlacedModel, top: Bool)? {
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
            guard walls else { continue }
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
        guard withTop || walls else { return nil }
        if withTop {
            let base = UInt32(positions.count)
            positions += tops.flatMap { $0 }
            indices += triangulate(tops.map { $0.map { SIMD2(Double($0.x), Double($0.y)) } }).map { base + $0 }
        }
        guard positions.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else { return nil }
        var material = ModelMaterial()
        material.baseColorFactor = color
        material.doubleSided = true
        material.unlit = !walls
        material.alphaMode = color.w < 1 ? .blend : .opaque
        guard let primitive = ModelPrimitive(positions: positions, indices: indices),
              let asset = ModelAsset(name: walls ? "extruded polygon" : "lifted polygon", primitives: [primitive], materials: [material]) else { return nil }
        return (PlacedModel(asset: asset, linear: [1, 0, 0, 0, 1, 0, 0, 0, 1], origin: origin), withTop)
    }

    /// A shape's colour for the renderer: straight (not premultiplied), each component on the
    /// 8-bit steps every colour of a scene file is written in, so a map and its scene file draw
    /// the same bytes.
    static func color(_ c: UIColor) -> SIMD4<Float> {
        let q = c.rgba.rgba8
        return SIMD4(Float(q.red), Float(q.green), Float(q.blue), Float(q.alpha)) / 255
    }

    /// A lifted polyline's curtain — a wall from each segment down to the ground under it — in
    /// `color` (straight alpha), unlit and double-sided: a translucent solid of the 3D layer, so
    /// terrain, buildings and models in front of it hide it pixel by pixel. Nil when nothing
    /// can be built.
    static func curtain(_ path: [(LatLngAltitude, ground: Double)], color: SIMD4<Float>, projection: Projection) -> PlacedModel? {
        guard path.count >= 2, let first = path.first else { return nil }
        let frame = projection.frame
        let origin = frame.enu(first.0)
        func local(_ p: LatLngAltitude) -> SIMD3<Float> {
            let v = frame.enu(p) - origin
            return SIMD3(Float(v.x), Float(v.y), Float(v.z))
        }
        let top = path.map { local($0.0) }
        let bottom = path.map { local(LatLngAltitude(latitude: $0.0.latitude, longitude: $0.0.longitude, altitude: $0.ground)) }
        var positions: [SIMD3<Float>] = []
        var indices: [UInt32] = []
        // Shared columns: a quad per segment between columns i and i + 1.
        for i in path.indices {
            positions += [top[i], bottom[i]]
            guard i > 0 else { continue }
            let a = UInt32(2 * (i - 1)), b = UInt32(2 * i)
            indices += [a, b, b + 1, a, b + 1, a + 1]
        }
        guard positions.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else { return nil }
        var material = ModelMaterial()
        material.baseColorFactor = color
        material.doubleSided = true
        material.unlit = true
        material.alphaMode = color.w < 1 ? .blend : .opaque
        guard let primitive = ModelPrimitive(positions: positions, indices: indices),
              let asset = ModelAsset(name: "polyline curtain", primitives: [primitive], materials: [material]) else { return nil }
        return PlacedModel(asset: asset, linear: [1, 0, 0, 0, 1, 0, 0, 0, 1], origin: origin)
    }

    /// The top's triangles: `Triangulation.triangulate`, as indices for the renderer.
    static func triangulate(_ rings: [[SIMD2<Double>]]) -> [UInt32] {
        Triangulation.triangulate(rings.map { $0.map { Point($0.x, $0.y) } }).map { UInt32($0) }
    }
}
