// The map's values as keyframes and animations move them (SwiftUI's `Animatable`): a camera
// flown by `keyframeAnimator` (`CubicKeyframe<Camera>`), a position moved by a track.
import TerrapinGeo
import TerrapinGeometry
import TerrapinViews

/// A fixed-size vector of doubles as `VectorArithmetic`.
public struct AnimatableVector<let Count: Int>: VectorArithmetic, Sendable {
    public var values: InlineArray<Count, Double>
    public init(_ values: InlineArray<Count, Double>) { self.values = values }
    public static var zero: AnimatableVector { AnimatableVector(InlineArray(repeating: 0)) }
    public static func + (a: AnimatableVector, b: AnimatableVector) -> AnimatableVector {
        var out = a
        for i in 0..<Count { out.values[i] += b.values[i] }
        return out
    }
    public static func - (a: AnimatableVector, b: AnimatableVector) -> AnimatableVector {
        var out = a
        for i in 0..<Count { out.values[i] -= b.values[i] }
        return out
    }
    public static func == (a: AnimatableVector, b: AnimatableVector) -> Bool {
        for i in 0..<Count where a.values[i] != b.values[i] { return false }
        return true
    }
    public mutating func scale(by rhs: Double) { for i in 0..<Count { values[i] *= rhs } }
    public var magnitudeSquared: Double {
        var s = 0.0
        for i in 0..<Count { s += values[i] * values[i] }
        return s
    }
}

extension LatLngAltitude: Animatable {
    /// Latitude, longitude (degrees) and altitude (metres), each moved on its own.
    public var animatableData: AnimatableVector<3> {
        get { AnimatableVector([latitude, longitude, altitude]) }
        set { self = LatLngAltitude(latitude: newValue.values[0], longitude: newValue.values[1], altitude: newValue.values[2]) }
    }
}

extension Camera: Animatable {
    /// The centre, heading, tilt, roll, range and field of view (degrees), each moved on its own
    /// (a heading from 350 to 10 turns back through 180, as a number does; the altitude mode
    /// is the camera's own).
    public var animatableData: AnimatableVector<8> {
        get { AnimatableVector([center.latitude, center.longitude, center.altitude, heading, tilt, roll, range, fieldOfView.degrees]) }
        set {
            let v = newValue.values
            center = LatLngAltitude(latitude: v[0], longitude: v[1], altitude: v[2])
            heading = v[3]
            tilt = v[4]
            roll = v[5]
            range = v[6]
            fieldOfView = .degrees(v[7])
        }
    }
}

extension LatLngAltitude: AdditiveArithmetic {
    /// (0°, 0°, 0 m).
    public static var zero: LatLngAltitude { LatLngAltitude(latitude: 0, longitude: 0, altitude: 0) }
    /// Component by component, as the SDK 1.0's `LatLngAltitude` adds (an offset to a position).
    public static func + (a: LatLngAltitude, b: LatLngAltitude) -> LatLngAltitude {
        LatLngAltitude(latitude: a.latitude + b.latitude, longitude: a.longitude + b.longitude, altitude: a.altitude + b.altitude)
    }
    public static func - (a: LatLngAltitude, b: LatLngAltitude) -> LatLngAltitude {
        LatLngAltitude(latitude: a.latitude - b.latitude, longitude: a.longitude - b.longitude, altitude: a.altitude - b.altitude)
    }
}
