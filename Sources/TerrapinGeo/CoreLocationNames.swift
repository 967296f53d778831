// The CoreLocation names map code uses most, for app code whose `import CoreLocation` (which
// Linux does not have) became `import Terrapin`: coordinates, and locations that measure the
// distance between them.

public typealias CLLocationDegrees = Double
public typealias CLLocationDistance = Double

/// A latitude and longitude in degrees (CoreLocation's).
public struct CLLocationCoordinate2D: Equatable, Hashable, Sendable {
    public var latitude: CLLocationDegrees
    public var longitude: CLLocationDegrees
    public init() { latitude = 0; longitude = 0 }
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        (self.latitude, self.longitude) = (latitude, longitude)
    }
}

/// A place (CoreLocation's `CLLocation`): a coordinate and an altitude.
public final class CLLocation: Sendable {
    public let coordinate: CLLocationCoordinate2D
    public let altitude: CLLocationDistance

    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        coordinate = CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
        altitude = 0
    }

    public init(coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance) {
        (self.coordinate, self.altitude) = (coordinate, altitude)
    }

    /// Metres along the great circle to `location`, on the mean Earth sphere (R = 6,371,008.8 m,
    /// within 0.5 % of the ellipsoid's distance; altitudes are not counted, as CoreLocation's).
    public func distance(from location: CLLocation) -> CLLocationDistance {
        Ellipsoid.distanceAndBearing(from: LatLngAltitude(latitude: coordinate.latitude, longitude: coordinate.longitude),
                                          to: LatLngAltitude(latitude: location.coordinate.latitude, longitude: location.coordinate.longitude)).distance
    }
}

extension LatLngAltitude {
    /// The point at `coordinate`, `altitude` metres up.
    public init(_ coordinate: CLLocationCoordinate2D, altitude: Double = 0) {
        self.init(latitude: coordinate.latitude, longitude: coordinate.longitude, altitude: altitude)
    }
    public var coordinate: CLLocationCoordinate2D { CLLocationCoordinate2D(latitude: latitude, longitude: longitude) }
}

extension Camera {
    /// The camera looking at (`latitude`, `longitude`, `altitude`), as the SDK's sample app
    /// builds its cameras.
    public init(latitude: Double, longitude: Double, altitude: Double = 0, heading: Double = 0, tilt: Double = 0, roll: Double = 0,
                range: Double = Camera.defaultRange) {
        self.init(center: LatLngAltitude(latitude: latitude, longitude: longitude, altitude: altitude), heading: heading, tilt: tilt, roll: roll, range: range)
    }
}
