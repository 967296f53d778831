// What markers stand on. Terrain (height grids, buildings) will implement this seam; until a
// scene has terrain, the ground is the WGS84 ellipsoid at sea level.
import TerrapinGeo

public protocol Ground {
    /// Height above the ellipsoid of the bare ground (sea level over water) at a position.
    func terrainHeight(at p: LatLngAltitude) -> Double
    /// Height of the surface mesh: terrain plus buildings (and the water surface).
    func meshHeight(at p: LatLngAltitude) -> Double
    /// Whether the straight line from `eye` to `point` (ENU metres in `frame`) is blocked.
    func isOccluded(from eye: Vector3, to point: Vector3, in frame: LocalFrame) -> Bool
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

/// Flat ground at sea level: the ellipsoid. Points beyond the horizon are hidden by the Earth.
public struct FlatGround: Ground {
    public init() {}
    public func terrainHeight(at p: LatLngAltitude) -> Double { 0 }
    public func meshHeight(at p: LatLngAltitude) -> Double { 0 }

    /// The Earth as a sphere of the local radius of curvature, tangent at the frame's origin.
    public func isOccluded(from eye: Vector3, to point: Vector3, in frame: LocalFrame) -> Bool {
        let r = WGS84.a
        let centre = Vector3(0, 0, -r - frame.origin.altitude)
        let d = point - eye
        let length = d.length
        guard length > 1 else { return false }
        let u = d * (1 / length)
        let m = eye - centre
        let b = m.dot(u), c = m.dot(m) - r * r
        let disc = b * b - c
        guard disc > 0 else { return false }
        let t = -b - disc.squareRoot()
        return t > 0 && t < length - 1
    }
}
