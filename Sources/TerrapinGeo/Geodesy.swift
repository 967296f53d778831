// Geodesy on an ellipsoid (WGS84, or Web Mercator's sphere): geodetic (latitude, longitude,
// ellipsoidal height) ⇄ Earth-centred Earth-fixed (ECEF) ⇄ local east-north-up (ENU) frames,
// exact in double precision.
#if canImport(Glibc)
import Glibc
#endif

/// A 3D vector in metres.
public struct Vector3: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var x: Double, y: Double, z: Double
    // The arithmetic is inlinable: other modules' per-vertex loops (terrain, models) use it.
    @inlinable public init(_ x: Double, _ y: Double, _ z: Double) { self.x = x; self.y = y; self.z = z }
    public static let zero = Vector3(0, 0, 0)
    @inlinable public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    @inlinable public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    @inlinable public static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
    @inlinable public func dot(_ o: Vector3) -> Double { x * o.x + y * o.y + z * o.z }
    @inlinable public func cross(_ o: Vector3) -> Vector3 { Vector3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x) }
    @inlinable public var length: Double { dot(self).squareRoot() }
    @inlinable public var normalized: Vector3 { let l = length; return l > 0 ? self * (1 / l) : self }
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
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
        (self.latitude, self.longitude, self.altitude) = (latitude, longitude, altitude)
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

/// The figure of the Earth that positions are placed on: WGS84 (the default, where GPS and the
/// SDK put them) or the sphere that Web Mercator maps assume (MapLibre, Mapbox GL and other web
/// maps draw on it). Both take latitude and longitude as given; they differ in the metres between
/// them — on the sphere a degree of latitude is 0.16 % longer and a degree of longitude 0.16 %
/// shorter than on WGS84 at mid-latitudes — so only the sphere makes a straight-down view the
/// same as a web map's of the same zoom, pixel for pixel.
///
/// A third Earth is flat: `mercator`, Web Mercator's plane, on which a view is a web map's at any
/// pitch and bearing (MapLibre's camera looks at such a plane). Its "ECEF" is the plane's metres,
/// x east and y north (EPSG:3857's, times the cosine of the latitude it is true to scale at, so
/// that a metre there is a metre), and z the altitude; every frame on it has the axes x, y, z.
/// A projection made on it is true to scale at its camera's centre, as a web map's is.
public struct Ellipsoid: Hashable, Sendable, CustomStringConvertible {
    /// Equatorial radius, metres.
    public let a: Double
    /// Flattening.
    public let f: Double
    /// Polar radius, metres.
    public let b: Double
    /// First eccentricity squared.
    public let e2: Double
    /// For Web Mercator's plane, the cosine of the latitude it is true to scale at (its metres
    /// are EPSG:3857's times it); nil for the ellipsoids.
    public let planeScale: Double?

    /// Only the Earths below are made (every conversion assumes 0 ≤ f < 1 and a > 0).
    init(a: Double, f: Double, planeScale: Double? = nil) {
        self.a = a
        self.f = f
        b = a * (1 - f)
        e2 = f * (2 - f)
        self.planeScale = planeScale
    }

    public static let wgs84 = Ellipsoid(a: 6_378_137, f: 1 / 298.257223563)
    /// Web Mercator's sphere (EPSG:3857): WGS84's equatorial radius, no flattening.
    public static let sphere = Ellipsoid(a: 6_378_137, f: 0)
    /// Web Mercator's plane (EPSG:3857 on the sphere's radius), true to scale at the equator
    /// until a projection makes it true at its centre (`trueToScale(atLatitude:)`).
    public static let mercator = Ellipsoid(a: 6_378_137, f: 0, planeScale: 1)
    /// Web Mercator's latitude limit, ±85.0511° (the square world's edge): the plane's positions
    /// are clamped to it.
    public static let mercatorLatitudeLimit = WebMercator.maxLatitude

    /// Whether this is Web Mercator's plane rather than an ellipsoid.
    @inlinable public var isPlane: Bool { planeScale != nil }

    /// The plane true to scale at `latitude` (a metre there is a metre); the ellipsoids as they are.
    public func trueToScale(atLatitude latitude: Double) -> Ellipsoid {
        guard isPlane, latitude.isFinite else { return self }
        let phi = min(Self.mercatorLatitudeLimit, abs(latitude)) * Double.pi / 180
        return Ellipsoid(a: a, f: 0, planeScale: cos(phi))
    }

    /// "wgs84", "sphere" or "mercator" (scene files' names).
    public var description: String {
        isPlane ? "mercator" : self == .sphere ? "sphere" : self == .wgs84 ? "wgs84" : "ellipsoid(a: \(a), f: \(f))"
    }

    /// Geodetic → ECEF (altitude taken as height above the ellipsoid; on the plane, its metres).
    public func ecef(_ p: LatLngAltitude) -> Vector3 {
        let lat = p.latitude * Double.pi / 180, lon = p.longitude * Double.pi / 180
        if let k = planeScale {
            return Vector3(k * a * lon, k * a * WebMercator.y(sinLatitude: sin(lat)), p.altitude)
        }
        let sinLat = sin(lat), cosLat = cos(lat)
        let n = a / (1 - e2 * sinLat * sinLat).squareRoot()
        return Vector3((n + p.altitude) * cosLat * cos(lon), (n + p.altitude) * cosLat * sin(lon), (n * (1 - e2) + p.altitude) * sinLat)
    }

    /// The radii of curvature at `latitude` degrees: along the meridian (north–south) and in
    /// the prime vertical (east–west; the parallel's radius is it times the latitude's cosine).
    /// (On the plane: the radii its metres imply, a degree of longitude being k · a · π/180 at
    /// every latitude, a degree of latitude that over cos φ.)
    public func radii(atLatitude latitude: Double) -> (meridian: Double, primeVertical: Double) {
        if let k = planeScale {
            let c = max(1e-9, cos(latitude * Double.pi / 180))
            return (k * a / c, k * a / c)
        }
        let s = sin(latitude * Double.pi / 180)
        let w = 1 - e2 * s * s
        let n = a / w.squareRoot()
        return (n * (1 - e2) / w, n)
    }

    /// Metres per degree of latitude (the meridian's radius of curvature) and of longitude (the
    /// parallel's radius) at `latitude` degrees, on the surface.
    public func metresPerDegree(atLatitude latitude: Double) -> (latitude: Double, longitude: Double) {
        let r = radii(atLatitude: latitude)
        return (r.meridian * Double.pi / 180, r.primeVertical * cos(latitude * Double.pi / 180) * Double.pi / 180)
    }

    /// The trigonometry of a latitude and longitude, so positions at several heights (or under
    /// several cameras) convert to ECEF without sines and cosines. It holds no ellipsoid: each
    /// conversion names the one its frame is on.
    public struct Surface: Sendable {
        let cosLatCosLon: Double, cosLatSinLon: Double, sinLat: Double, lon: Double
        public init(_ p: LatLngAltitude) {
            let lat = p.latitude * Double.pi / 180, lon = p.longitude * Double.pi / 180
            let sinLat = sin(lat), cosLat = cos(lat)
            cosLatCosLon = cosLat * cos(lon)
            cosLatSinLon = cosLat * sin(lon)
            self.sinLat = sinLat
            self.lon = lon
        }
        /// ECEF at `height` metres above `ellipsoid`; equal to `ellipsoid.ecef(_:)`.
        public func ecef(height: Double, on ellipsoid: Ellipsoid) -> Vector3 {
            if let k = ellipsoid.planeScale {
                return Vector3(k * ellipsoid.a * lon, k * ellipsoid.a * WebMercator.y(sinLatitude: sinLat), height)
            }
            let e2 = ellipsoid.e2, n = ellipsoid.a / (1 - e2 * sinLat * sinLat).squareRoot()
            return Vector3((n + height) * cosLatCosLon, (n + height) * cosLatSinLon, (n * (1 - e2) + height) * sinLat)
        }
    }

    /// ECEF → geodetic, by Bowring's formula refined by Newton steps (sub-millimetre anywhere
    /// from the centre of the Earth to geostationary orbit).
    /// On the plane (`planeScale` k): the latitude of a point `y` metres north of the equator,
    /// `ka` being k × a — as `geodetic` gives it, which a point's y alone decides.
    @inlinable public static func planeLatitude(_ y: Double, _ ka: Double) -> Double {
        let lat = 2 * atan(exp(y / ka)) - Double.pi / 2
        return lat * 180 / Double.pi
    }

    /// On the plane: the longitude of a point `x` metres east of the prime meridian — as
    /// `geodetic` gives it, which a point's x alone decides.
    @inlinable public static func planeLongitude(_ x: Double, _ ka: Double) -> Double { x / ka * 180 / Double.pi }

    public func geodetic(_ v: Vector3) -> LatLngAltitude {
        if let k = planeScale {
            return LatLngAltitude(latitude: Self.planeLatitude(v.y, k * a), longitude: Self.planeLongitude(v.x, k * a), altitude: v.z)
        }
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
    /// The Earth the frame's positions are on.
    public let ellipsoid: Ellipsoid
    public let originECEF: Vector3
    public let east: Vector3, north: Vector3, up: Vector3

    public init(origin: LatLngAltitude, ellipsoid: Ellipsoid = .wgs84) {
        self.origin = origin
        self.ellipsoid = ellipsoid
        originECEF = ellipsoid.ecef(origin)
        if ellipsoid.isPlane {
            // The plane's axes are east, north and up everywhere.
            (east, north, up) = (Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))
            return
        }
        let lat = origin.latitude * Double.pi / 180, lon = origin.longitude * Double.pi / 180
        east = Vector3(-sin(lon), cos(lon), 0)
        north = Vector3(-sin(lat) * cos(lon), -sin(lat) * sin(lon), cos(lat))
        up = Vector3(cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat))
    }

    /// ENU coordinates (metres) of a geodetic position.
    public func enu(_ p: LatLngAltitude) -> Vector3 { enu(ecef: ellipsoid.ecef(p)) }

    /// ENU coordinates of a position given by its trigonometry, `height` metres above the frame's
    /// ellipsoid.
    public func enu(_ surface: Ellipsoid.Surface, height: Double) -> Vector3 { enu(ecef: surface.ecef(height: height, on: ellipsoid)) }

    @inlinable public func enu(ecef: Vector3) -> Vector3 {
        let d = ecef - originECEF
        return Vector3(d.dot(east), d.dot(north), d.dot(up))
    }

    public func ecef(enu v: Vector3) -> Vector3 { originECEF + east * v.x + north * v.y + up * v.z }

    public func geodetic(enu v: Vector3) -> LatLngAltitude { ellipsoid.geodetic(ecef(enu: v)) }
}
