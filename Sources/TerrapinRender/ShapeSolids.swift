// Extruded polygons as solids of the 3D layer: walls from each ring (and hole) down to the
// ground, and a top triangulated with its holes, drawn by the model renderer into the ground's
// depth buffer — so terrain, buildings and models hide them and they hide what is behind them,
// lit by the map's sun.
import TerrapinGeo
import TerrapinGeometry
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

    /// The top's triangles: `Triangulation.triangulate`, as indices for the renderer.
    static func triangulate(_ rings: [[SIMD2<Double>]]) -> [UInt32] {
        Triangulation.triangulate(rings.map { $0.map { Point($0.x, $0.y) } }).map { UInt32($0) }
    }
}
