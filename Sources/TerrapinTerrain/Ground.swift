// What markers stand on. Terrain (height grids, buildings) will implement this seam; until a
// scene has terrain, the ground is the ellipsoid (WGS84 unless the map says the sphere) at sea level.
import Terrapin3D
import TerrapinGeo
import TerrapinImagery
import TerrapinTerrainData

public protocol Ground {
    /// Height above the ellipsoid of the bare ground (sea level over water) at a position.
    func terrainHeight(at p: LatLngAltitude) -> Double
    /// Height of the surface mesh: terrain plus buildings (and the water surface).
    func meshHeight(at p: LatLngAltitude) -> Double
    /// Whether the straight line from `eye` to `point` (ENU metres in `frame`) is blocked.
    func isOccluded(from eye: Vector3, to point: Vector3, in frame: LocalFrame) -> Bool
    /// The Earth the ground lies on: frames and projections over it are made on the same one.
    var ellipsoid: Ellipsoid { get }
}

extension Ground {
    /// The height above the ellipsoid that `mode` gives `position` (markers and the camera's
    /// centre resolve their altitude mode the same way).
    public func altitude(of position: LatLngAltitude, mode: AltitudeMode) -> Double {
        switch mode {
        case .absolute: position.altitude
        case .clampToGround: terrainHeight(at: position)
        case .relativeToGround: terrainHeight(at: position) + position.altitude
        case .relativeToMesh: meshHeight(at: position) + position.altitude
        }
    }
}

/// Flat ground at sea level: the ellipsoid (or Web Mercator's plane). Points beyond the horizon
/// are hidden by the Earth.
public struct FlatGround: Ground {
    public let ellipsoid: Ellipsoid
    public init(ellipsoid: Ellipsoid = .wgs84) { self.ellipsoid = ellipsoid }
    public func terrainHeight(at p: LatLngAltitude) -> Double { 0 }
    public func meshHeight(at p: LatLngAltitude) -> Double { 0 }

    /// The Earth is the frame's ellipsoid: the segment is tested in ECEF, scaled so the
    /// ellipsoid is the unit sphere. (A sphere tangent at the frame's origin, as this once was,
    /// rises above the ellipsoid ~90 km north and south of it and hid markers there.)
    public func isOccluded(from eye: Vector3, to point: Vector3, in frame: LocalFrame) -> Bool {
        let d = point - eye
        let length = d.length
        guard length > 1 else { return false }
        if frame.ellipsoid.isPlane {
            // Web Mercator's plane hides what the segment passes under it to reach.
            let e = frame.ecef(enu: eye).z, q = frame.ecef(enu: point).z
            guard (e < 0) != (q < 0) else { return e < 0 && q < 0 }
            return e / (e - q) < 1 - 1 / length
        }
        let ia = 1 / frame.ellipsoid.a, ib = 1 / frame.ellipsoid.b
        let e = frame.ecef(enu: eye), q = frame.ecef(enu: point)
        let m = Vector3(e.x * ia, e.y * ia, e.z * ib)
        let v = Vector3((q.x - e.x) * ia, (q.y - e.y) * ia, (q.z - e.z) * ib)
        // |m + t v|² = 1 for t in (0, 1): the segment enters the ellipsoid before its end.
        let a = v.dot(v), b = m.dot(v), c = m.dot(m) - 1
        let disc = b * b - a * c
        guard a > 0, disc > 0 else { return false }
        let t = (-b - disc.squareRoot()) / a
        // A metre's tolerance at the end: points on the surface are not hidden by it.
        return t > 0 && t < 1 - 1 / length
    }
}
