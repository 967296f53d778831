// WGS84 geodesy: geodetic (latitude, longitude, ellipsoidal height) ⇄ Earth-centred
// Earth-fixed (ECEF) ⇄ local east-north-up (ENU) frames, exact in double precision.
#if canImport(Glibc)
import Glibc
#endif

/// A 3D vector in metres.
public struct Vector3: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var x: Double, y: Double, z: Double
    public init(_ x: Double, _ y: Double, _ z: Double) { self.x = x; self.y = y; self.z = z }
    public static let zero = Vector3(0, 0, 0)
    public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    public static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
    public func dot(_ o: Vector3) -> Double { x * o.x + y * o.y + z * o.z }
    public func cross(_ o: Vector3) -> Vector3 { Vector3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x) }
    public var length: Double { dot(self).squareRoot() }
    public var normalized: Vector3 { let l = length; return l > 0 ? self * (1 / l) : self }
    public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
    public var description: String { "(\(x), \(y), \(z))" }
}

/// A position: degrees of latitude and longitude, and metres of altitude (what the altitude is
/// measured from depends on the owner's `AltitudeMode`).
public struct LatLngAltitude: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double
    public var altitude: Double

    /// As in the SDK this never fails; see `isValid` and `normalized`.
    public init(latitude: Double, longitude: Double, altitude: Double = 0) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// Nil unless every value is finite and the latitude is within ±90°; the longitude is wrapped.
    public init?(validatingLatitude latitude: Double, longitude: Double, altitude: Double = 0) {
        let p = LatLngAltitude(latitude: latitude, longitude: longitude, altitude: altitude)
        guard p.isValid else { return nil }
        self = p.normalized
    }

    public var isValid: Bool { latitude.isFinite && longitude.isFinite && altitude.isFinite && abs(latitude) <= 90 }

    /// Latitude clamped to ±90°, longitude wrapped into [−180°, 180°).
    public var normalized: LatLngAltitude {
        var lon = longitude.truncatingRemainder(dividingBy: 360)
        if lon >= 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        return LatLngAltitude(latitude: min(90, max(-90, latitude)), longitude: lon, altitude: altitude)
    }

    public var description: String { "(\(latitude), \(longitude), \(altitude) m)" }
}

/// The WGS84 ellipsoid.
public enum WGS84 {
    public static let a = 6_378_137.0
    public static let f = 1 / 298.257223563
    public static let b = a * (1 - f)
    public static let e2 = f * (2 - f)
    static let ep2 = e2 / (1 - e2)

    /// Geodetic → ECEF (altitude taken as height above the ellipsoid).
    public static func ecef(_ p: LatLngAltitude) -> Vector3 {
        let lat = p.latitude * Double.pi / 180, lon = p.longitude * Double.pi / 180
        let sinLat = sin(lat), cosLat = cos(lat)
        let n = a / (1 - e2 * sinLat * sinLat).squareRoot()
        return Vector3((n + p.altitude) * cosLat * cos(lon), (n + p.altitude) * cosLat * sin(lon), (n * (1 - e2) + p.altitude) * sinLat)
    }

    /// The trigonometry of a latitude and longitude, so positions at several heights (or under
    /// several cameras) convert to ECEF without sines and cosines.
    public struct Surface: Sendable {
        let cosLatCosLon: Double, cosLatSinLon: Double, sinLat: Double, n: Double
        public init(_ p: LatLngAltitude) {
            let lat = p.latitude * Double.pi / 180, lon = p.longitude * Double.pi / 180
            let sinLat = sin(lat), cosLat = cos(lat)
            cosLatCosLon = cosLat * cos(lon)
            cosLatSinLon = cosLat * sin(lon)
            self.sinLat = sinLat
            n = a / (1 - e2 * sinLat * sinLat).squareRoot()
        }
        /// ECEF at `height` metres above the ellipsoid; equal to `ecef(_:)`.
        public func ecef(height: Double) -> Vector3 {
            Vector3((n + height) * cosLatCosLon, (n + height) * cosLatSinLon, (n * (1 - e2) + height) * sinLat)
        }
    }

    /// ECEF → geodetic, by Bowring's formula refined by Newton steps (sub-millimetre anywhere
    /// from the centre of the Earth to geostationary orbit).
    public static func geodetic(_ v: Vector3) -> LatLngAltitude {
        let p = (v.x * v.x + v.y * v.y).squareRoot()
        let lon = atan2(v.y, v.x)
        guard p > 1e-9 else {
            return LatLngAltitude(latitude: v.z >= 0 ? 90 : -90, longitude: 0, altitude: abs(v.z) - b)
        }
        var lat = atan2(v.z, p * (1 - e2))
        for _ in 0..<5 {
            let sinLat = sin(lat)
            let n = a / (1 - e2 * sinLat * sinLat).squareRoot()
            let h = p / cos(lat) - n
            lat = atan2(v.z, p * (1 - e2 * n / (n + h)))
        }
        let sinLat = sin(lat)
        let n = a / (1 - e2 * sinLat * sinLat).squareRoot()
        let h = abs(lat) < Double.pi / 4 ? p / cos(lat) - n : v.z / sinLat - n * (1 - e2)
        return LatLngAltitude(latitude: lat * 180 / Double.pi, longitude: lon * 180 / Double.pi, altitude: h)
    }

    /// Great-circle distance in metres on the mean sphere (R = 6,371,008.8 m; within 0.5 % of
    /// the ellipsoidal distance) and the initial bearing in degrees clockwise from north.
    public static func distanceAndBearing(from a: LatLngAltitude, to b: LatLngAltitude) -> (distance: Double, bearing: Double) {
        let r = 6_371_008.8
        let la1 = a.latitude * Double.pi / 180, la2 = b.latitude * Double.pi / 180
        let dla = la2 - la1, dlo = (b.longitude - a.longitude) * Double.pi / 180
        let h = sin(dla / 2) * sin(dla / 2) + cos(la1) * cos(la2) * sin(dlo / 2) * sin(dlo / 2)
        let distance = 2 * r * asin(min(1, h.squareRoot()))
        var bearing = atan2(sin(dlo) * cos(la2), cos(la1) * sin(la2) - sin(la1) * cos(la2) * cos(dlo)) * 180 / Double.pi
        if bearing < 0 { bearing += 360 }
        return (distance, bearing)
    }
}

/// A local east-north-up frame at an origin on (or above) the ellipsoid.
public struct LocalFrame: Equatable, Sendable {
    public let origin: LatLngAltitude
    public let originECEF: Vector3
    public let east: Vector3, north: Vector3, up: Vector3

    public init(origin: LatLngAltitude) {
        self.origin = origin
        originECEF = WGS84.ecef(origin)
        let lat = origin.latitude * Double.pi / 180, lon = origin.longitude * Double.pi / 180
        east = Vector3(-sin(lon), cos(lon), 0)
        north = Vector3(-sin(lat) * cos(lon), -sin(lat) * sin(lon), cos(lat))
        up = Vector3(cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat))
    }

    /// ENU coordinates (metres) of a geodetic position.
    public func enu(_ p: LatLngAltitude) -> Vector3 { enu(ecef: WGS84.ecef(p)) }

    public func enu(ecef: Vector3) -> Vector3 {
        let d = ecef - originECEF
        return Vector3(d.dot(east), d.dot(north), d.dot(up))
    }

    public func ecef(enu v: Vector3) -> Vector3 { originECEF + east * v.x + north * v.y + up * v.z }

    public func geodetic(enu v: Vector3) -> LatLngAltitude { WGS84.geodetic(ecef(enu: v)) }
}
