// Camera flights, as the SDK's `flyCameraTo(_:duration:)` and
// `flyCameraAround(_:duration:rounds:)`, evaluated at a time in seconds.
//
// Flights run in order, each from the camera at its start: before the first the map's own
// camera holds, between and after them the last flight's end. With u = (t − start) / duration
// clamped to 0…1:
// - to: s = smoothstep(u) = 3u² − 2u³ (ease in and out). The centre moves along the great
//   circle (its altitude linearly), heading along the shorter arc, tilt, roll and field of view
//   linearly; the range is log-linear (zooming feels even) plus a lift of
//   max(0, d/2 − max(r₀, r₁)) · sin(π s) for a flight over d metres, so that long flights
//   rise to show where they go and short ones do not bob.
// - around: the given camera, its heading turning 360° × rounds linearly in u (a steady
//   orbit, clockwise seen from above for positive rounds).
// A flight given no duration (the SDK's `duration: nil`) takes one from where it goes:
// - to: 1.5 s + 0.5 s × (log₂(1 + d / r) + |log₂(r₁ / r₀)|), at most 10 s, where d is the
//   distance between the centres and r the smaller range: about 2 s across a view, 7 s
//   across a continent;
// - around: 12 s a round.
#if canImport(Glibc)
import Glibc
#endif

public struct CameraFlight: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case to(Camera)
        case around(Camera, rounds: Double)
    }

    public var kind: Kind
    /// Seconds from the scene's time 0 when the flight begins. Default 0.
    public var start: Double
    /// Seconds the flight lasts (> 0); nil: chosen by where it goes (see the top of the file).
    public var duration: Double?

    public init(_ kind: Kind, start: Double = 0, duration: Double?) {
        (self.kind, self.start, self.duration) = (kind, start, duration)
    }

    /// `flyCameraTo`: from the camera at `start` to `camera`.
    public static func to(_ camera: Camera, duration: Double?, start: Double = 0) -> CameraFlight { CameraFlight(.to(camera), start: start, duration: duration) }
    /// `flyCameraAround`: `camera`, orbiting `rounds` times.
    public static func around(_ camera: Camera, duration: Double?, rounds: Double = 1, start: Double = 0) -> CameraFlight {
        CameraFlight(.around(camera, rounds: rounds), start: start, duration: duration)
    }

    /// The camera at `time` after `flights` (in order) starting from `initial`.
    public static func camera(at time: Double, initial: Camera, flights: [CameraFlight]) -> Camera {
        var camera = initial
        for flight in flights.sorted(by: { $0.start < $1.start }) where time >= flight.start {
            let duration = flight.duration(from: camera)
            let u = duration > 0 ? min(1, max(0, (time - flight.start) / duration)) : 1
            switch flight.kind {
            case .to(let end): camera = interpolate(camera, end, smoothstep(u))
            case .around(let c, let rounds):
                camera = c
                camera.heading = c.heading + 360 * rounds * u
            }
        }
        return camera
    }

    /// The flight's duration when it starts from `camera`: its own, or the default.
    public func duration(from camera: Camera) -> Double {
        if let duration { return duration }
        switch kind {
        case .to(let end):
            let r0 = max(1, camera.range), r1 = max(1, end.range)
            let d = acos(max(-1, min(1, Self.unit(camera.center).dot(Self.unit(end.center))))) * 6_371_008.8
            return min(10, 1.5 + 0.5 * (log2(1 + d / min(r0, r1)) + abs(log2(r1 / r0))))
        case .around(_, let rounds):
            return max(1, 12 * abs(rounds))
        }
    }

    public static func smoothstep(_ u: Double) -> Double { u * u * (3 - 2 * u) }

    /// The "to" flight's camera at eased progress `s` from `a` to `b`.
    public static func interpolate(_ a: Camera, _ b: Camera, _ s: Double) -> Camera {
        guard s > 0 else { return a }
        guard s < 1 else { return b }
        var c = b
        // Great circle between the centres (spherical interpolation of unit vectors).
        let p = unit(a.center), q = unit(b.center)
        let omega = acos(max(-1, min(1, p.dot(q))))
        let v: Vector3
        if omega < 1e-12 {
            v = p
        } else {
            v = p * (sin((1 - s) * omega) / sin(omega)) + q * (sin(s * omega) / sin(omega))
        }
        let lat = asin(max(-1, min(1, v.z))) * 180 / Double.pi
        let lon = atan2(v.y, v.x) * 180 / Double.pi
        c.center = LatLngAltitude(latitude: lat, longitude: lon, altitude: a.center.altitude + (b.center.altitude - a.center.altitude) * s)
        var dh = (b.heading - a.heading).truncatingRemainder(dividingBy: 360)
        if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        c.heading = a.heading + dh * s
        c.tilt = a.tilt + (b.tilt - a.tilt) * s
        c.roll = a.roll + (b.roll - a.roll) * s
        c.fieldOfView = .degrees(a.fieldOfView.degrees + (b.fieldOfView.degrees - a.fieldOfView.degrees) * s)
        let r0 = max(1, a.range), r1 = max(1, b.range)
        let distance = omega * 6_371_008.8
        let lift = max(0, distance / 2 - max(r0, r1))
        c.range = exp(log(r0) + (log(r1) - log(r0)) * s) + lift * sin(Double.pi * s)
        return c
    }

    static func unit(_ p: LatLngAltitude) -> Vector3 {
        let lat = p.latitude * Double.pi / 180, lon = p.longitude * Double.pi / 180
        return Vector3(cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat))
    }
}
