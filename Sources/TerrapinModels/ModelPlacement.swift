// Where a model stands: glTF's axes (+Y up, front towards +Z, −X to its right, metres) mapped
// into the east-north-up frame at its position, scaled in its own axes, then rolled, tilted
// and turned to its heading.
//
//   model (glTF) ─ scale ─▶ local ENU: east = −x, north = z, up = y (its front faces north)
//                ─ roll (about north: positive lowers its right side), tilt (about east:
//                  positive lifts its front), heading (about up: clockwise from north) ─▶
//                ─ the position's ENU axes in the camera's frame ─▶ projection frame
import TerrapinGeo

/// The SDK's model orientation, in degrees: heading clockwise from north, tilt lifting the
/// model's front, roll lowering its right side; applied roll first, then tilt, then heading.
public struct Orientation3D: Equatable, Hashable, Sendable {
    public var heading: Double
    public var tilt: Double
    public var roll: Double
    public init(heading: Double = 0, tilt: Double = 0, roll: Double = 0) {
        (self.heading, self.tilt, self.roll) = (heading, tilt, roll)
    }
}

/// A scale along the model's own x, y and z axes (the SDK's `scale: .init(x:y:z:)`).
public struct Vector3D: Equatable, Hashable, Sendable {
    public var x: Double, y: Double, z: Double
    public init(x: Double, y: Double, z: Double) {
        (self.x, self.y, self.z) = (x, y, z)
    }
    /// The same scale on every axis.
    public init(_ uniform: Double) { self.init(x: uniform, y: uniform, z: uniform) }
    public static let one = Vector3D(1)
}

/// A model placed for one camera: `linear` (row-major 3×3) and `origin` take the model's own
/// coordinates (after its node transforms) to the projection's ENU frame.
public struct PlacedModel: Sendable {
    public let asset: ModelAsset
    public let linear: [Double]
    public let origin: Vector3

    public init(asset: ModelAsset, linear: [Double], origin: Vector3) {
        (self.asset, self.linear, self.origin) = (asset, linear, origin)
    }

    /// `position` with its altitude already resolved to metres above the ellipsoid.
    public init(asset: ModelAsset, at position: LatLngAltitude, scale: Vector3D, orientation: Orientation3D, in frame: LocalFrame) {
        self.asset = asset
        let local = LocalFrame(origin: position, ellipsoid: frame.ellipsoid)
        origin = frame.enu(ecef: local.originECEF)
        linear = Self.linear(scale: scale, orientation: orientation, local: local, frame: frame)
    }

    /// Model axes → ENU of `frame`, as a row-major 3×3.
    public static func linear(scale: Vector3D, orientation: Orientation3D, local: LocalFrame, frame: LocalFrame) -> [Double] {
        let d = Double.pi / 180
        let h = orientation.heading * d, t = orientation.tilt * d, r = orientation.roll * d
        // glTF → local ENU, with the scale: columns are where model x, y, z go.
        let a: [Double] = [-scale.x, 0, 0,
                           0, 0, scale.z,
                           0, scale.y, 0]
        let rz: [Double] = [cos(h), sin(h), 0, -sin(h), cos(h), 0, 0, 0, 1]   // clockwise seen from above
        let rx: [Double] = [1, 0, 0, 0, cos(t), -sin(t), 0, sin(t), cos(t)]   // front (north) up
        let ry: [Double] = [cos(r), 0, sin(r), 0, 1, 0, -sin(r), 0, cos(r)]   // right (east) down
        // Local ENU axes in the frame's ENU.
        let b: [Double] = [
            local.east.dot(frame.east), local.north.dot(frame.east), local.up.dot(frame.east),
            local.east.dot(frame.north), local.north.dot(frame.north), local.up.dot(frame.north),
            local.east.dot(frame.up), local.north.dot(frame.up), local.up.dot(frame.up),
        ]
        return multiply(b, multiply(rz, multiply(rx, multiply(ry, a))))
    }

    static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        var r = [Double](repeating: 0, count: 9)
        for i in 0..<3 { for j in 0..<3 { r[i * 3 + j] = a[i * 3] * b[j] + a[i * 3 + 1] * b[3 + j] + a[i * 3 + 2] * b[6 + j] } }
        return r
    }

    /// A point of the model (its own coordinates, after node transforms) in the frame's ENU.
    public func enu(_ p: SIMD3<Double>) -> Vector3 {
        let l = linear
        return Vector3(origin.x + l[0] * p.x + l[1] * p.y + l[2] * p.z,
                       origin.y + l[3] * p.x + l[4] * p.y + l[5] * p.z,
                       origin.z + l[6] * p.x + l[7] * p.y + l[8] * p.z)
    }

    /// The nearest distance along the ray (unit `direction`) at which it meets a triangle the
    /// model draws (back faces of single-sided materials excluded), or nil.
    public func intersect(origin o: Vector3, direction d: Vector3) -> Double? {
        var best = Double.infinity
        for instance in asset.instances {
            let prim = asset.primitives[instance.primitive]
            let doubleSided = asset.materials[prim.material].doubleSided
            let mirrored = (instance.transform.determinant3 * Self.determinant(linear)) < 0
            let p = prim.positions.map { enu(instance.transform.apply(SIMD3(Double($0.x), Double($0.y), Double($0.z)))) }
            var k = 0
            while k + 2 < prim.indices.count {
                let a = p[Int(prim.indices[k])], b = p[Int(prim.indices[k + 1])], c = p[Int(prim.indices[k + 2])]
                k += 3
                // Möller–Trumbore.
                let e1 = b - a, e2 = c - a
                let q = d.cross(e2)
                let det = e1.dot(q)
                guard abs(det) > 1e-12 else { continue }
                // Front faces are counter-clockwise seen from outside: the ray meets them against their normal.
                let front = (det > 0) != mirrored
                if !front && !doubleSided { continue }
                let inv = 1 / det
                let s = o - a
                let u = s.dot(q) * inv
                guard u >= 0, u <= 1 else { continue }
                let r = s.cross(e1)
                let v = d.dot(r) * inv
                guard v >= 0, u + v <= 1 else { continue }
                let t = e2.dot(r) * inv
                if t > 0, t < best { best = t }
            }
        }
        return best.isFinite ? best : nil
    }

    static func determinant(_ m: [Double]) -> Double {
        m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])
    }
}

#if canImport(Glibc)
import Glibc
#endif
