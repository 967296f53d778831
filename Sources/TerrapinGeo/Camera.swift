// The orbit camera of the Maps 3D SDK, and projection of positions to pixels.
//
// `center` is the look-at point; the eye sits `range` metres away, at
//   eye = center + range · (−sin t · sin h, −sin t · cos h, cos t)   (east, north, up at center)
// for heading h (clockwise from north) and tilt t (0 looks straight down, 90 at the horizon);
// `roll` then turns the image about the view axis. Terrapin's field of view is vertical.
import TerrapinGeometry
#if canImport(Glibc)
import Glibc
#endif

/// What an altitude is measured from. (It lives here, below the scene model, because the
/// camera has one too.)
public enum AltitudeMode: String, Sendable, CaseIterable, Hashable {
    /// Metres above mean sea level (the ellipsoid, in Terrapin).
    case absolute
    /// On the terrain; the altitude is ignored. Over water: at sea level.
    case clampToGround
    /// Metres above the terrain (over water: above sea level).
    case relativeToGround
    /// Metres above the surface mesh: terrain plus buildings (and the water surface).
    case relativeToMesh
}

public struct Camera: Equatable, Hashable, Sendable {
    public var center: LatLngAltitude
    /// Degrees clockwise from true north the camera looks towards. Default 0.
    public var heading: Double
    /// Degrees from vertical: 0 straight down, 90 at the horizon. Default 0.
    public var tilt: Double
    /// Degrees about the view axis. Default 0.
    public var roll: Double
    /// Metres from the eye to `center`. Default 1,500.
    public var range: Double
    /// Vertical field of view. Default 35° (Terrapin's choice).
    public var fieldOfView: Angle
    /// How `center.altitude` is measured. Default `.absolute`, as in the SDK.
    public var altitudeMode: AltitudeMode

    public static let defaultRange = 1_500.0
    public static let defaultFieldOfView = Angle.degrees(35)
    /// The SDK's restrictions: altitude 0…63,170,000 m, heading 0…360, tilt 0…90.
    public static let maxAltitude = 63_170_000.0

    public init(center: LatLngAltitude, heading: Double = 0, tilt: Double = 0, roll: Double = 0, range: Double = Camera.defaultRange,
                fieldOfView: Angle = Camera.defaultFieldOfView, altitudeMode: AltitudeMode = .absolute) {
        (self.center, self.heading, self.tilt, self.roll, self.range, self.fieldOfView, self.altitudeMode) =
            (center, heading, tilt, roll, range, fieldOfView, altitudeMode)
    }

    /// The camera with the SDK's restrictions applied: latitude clamped, longitude wrapped,
    /// heading wrapped into [0, 360), tilt clamped to 0…90, range to 1 m…63,170,000 m, field of
    /// view to 1…170°. Non-finite values become the defaults.
    public var restricted: Camera {
        var c = self
        c.center = LatLngAltitude(latitude: center.latitude.isFinite ? center.latitude : 0,
                                  longitude: center.longitude.isFinite ? center.longitude : 0,
                                  altitude: center.altitude.isFinite ? min(max(center.altitude, -11_000), Self.maxAltitude) : 0).normalized
        var h = heading.isFinite ? heading.truncatingRemainder(dividingBy: 360) : 0
        if h < 0 { h += 360 }
        c.heading = h
        c.tilt = tilt.isFinite ? min(90, max(0, tilt)) : 0
        c.roll = roll.isFinite ? roll : 0
        c.range = range.isFinite ? min(Self.maxAltitude, max(1, range)) : Self.defaultRange
        let fov = fieldOfView.degrees
        c.fieldOfView = fov.isFinite ? (fov < 1 || fov > 170 ? .degrees(min(170, max(1, fov))) : fieldOfView) : Self.defaultFieldOfView
        return c
    }
}

/// A position on the image: pixels from the top-left (pixel centres at +0.5) and the depth in
/// metres along the view axis.
public struct ScreenPoint: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public var depth: Double

    @inlinable public init(x: Double, y: Double, depth: Double) {
        (self.x, self.y, self.depth) = (x, y, depth)
    }
}

/// A camera bound to an image size and an altitude for its centre: projects positions.
public struct Projection: Sendable {
    public let camera: Camera
    public let width: Double
    public let height: Double
    public let frame: LocalFrame
    /// Eye position and axes in the ENU frame at the camera's centre.
    public let eye: Vector3, forward: Vector3, right: Vector3, up: Vector3
    public let focalLength: Double
    /// Clip planes chosen from the range (see `init`).
    public let near: Double, far: Double

    /// `centerAltitude` is the centre's height above the ellipsoid (the camera's altitude mode
    /// resolved by the caller). Near = range/1000 (at least 0.5 m); far = range + 2 × the distance
    /// to the horizon from the eye, so every visible point of the Earth is inside. `ellipsoid` is
    /// the Earth the frame is on (the ground's: `Ground.ellipsoid`); Web Mercator's plane is made
    /// true to scale at the camera's centre, as a web map's is.
    public init(camera: Camera, width: Double, height: Double, centerAltitude: Double? = nil, ellipsoid: Ellipsoid = .wgs84) {
        let c = camera.restricted
        let ellipsoid = ellipsoid.trueToScale(atLatitude: c.center.latitude)
        self.camera = c
        self.width = width
        self.height = height
        let origin = LatLngAltitude(latitude: c.center.latitude, longitude: c.center.longitude, altitude: centerAltitude ?? c.center.altitude)
        frame = LocalFrame(origin: origin, ellipsoid: ellipsoid)
        let h = c.heading * Double.pi / 180, t = c.tilt * Double.pi / 180, r = c.roll * Double.pi / 180
        let toEye = Vector3(-sin(t) * sin(h), -sin(t) * cos(h), cos(t))
        eye = toEye * c.range
        forward = toEye * -1
        let up0 = Vector3(cos(t) * sin(h), cos(t) * cos(h), sin(t))
        let right0 = forward.cross(up0)
        // Roll turns the image clockwise by r: the axes rotate the other way about the view axis.
        right = right0 * cos(r) + up0 * sin(r)
        up = up0 * cos(r) - right0 * sin(r)
        focalLength = (height / 2) / tan(c.fieldOfView.degrees * Double.pi / 360)
        near = max(0.5, c.range / 1000)
        let eyeHeight = max(0, c.range * cos(t) + (centerAltitude ?? c.center.altitude))
        far = c.range + 2 * (2 * ellipsoid.a * eyeHeight + eyeHeight * eyeHeight).squareRoot() + 1000
    }

    /// ENU (at the camera centre) → screen; nil behind the near plane or for non-finite input.
    /// Inlinable: the terrain mesh and models project every vertex through it.
    @inlinable public func project(enu p: Vector3) -> ScreenPoint? {
        let v = p - eye
        let depth = v.dot(forward)
        guard depth > near, v.isFinite else { return nil }
        return ScreenPoint(x: width / 2 + v.dot(right) / depth * focalLength, y: height / 2 - v.dot(up) / depth * focalLength, depth: depth)
    }

    /// A geodetic position (altitude above the ellipsoid) → screen.
    public func project(_ p: LatLngAltitude) -> ScreenPoint? {
        guard p.isValid else { return nil }
        return project(enu: frame.enu(p))
    }

    /// The ray through a pixel: origin (the eye) and unit direction, in the ENU frame.
    /// Inlinable: the sky and flat ground cast a ray per pixel.
    @inlinable public func ray(x: Double, y: Double) -> (origin: Vector3, direction: Vector3) {
        let dx = (x - width / 2) / focalLength, dy = (height / 2 - y) / focalLength
        return (eye, (forward + right * dx + up * dy).normalized)
    }
}

/// Limits on a map's camera (Terrapin's form of the SDK's camera restriction): whatever sets the
/// camera — the initial camera, a binding, fitting, a flight, auto-pan — is clamped into them.
public struct CameraLimits: Equatable, Hashable, Sendable {
    /// Metres from the eye to the centre.
    public var range: ClosedRange<Double>?
    /// Degrees from straight down.
    public var tilt: ClosedRange<Double>?
    /// Degrees clockwise from north, within 0…360 (the heading is taken into [0, 360) first).
    public var heading: ClosedRange<Double>?
    /// Where the centre may be: west, south, east, north in degrees (west < east).
    public var bounds: [Double]?
    /// Metres above sea level the eye may be at (the SDK's altitude restriction): the range is
    /// shortened or lengthened to keep it there, where the tilt allows.
    public var altitude: ClosedRange<Double>?

    public init(range: ClosedRange<Double>? = nil, tilt: ClosedRange<Double>? = nil, heading: ClosedRange<Double>? = nil,
                bounds: [Double]? = nil, altitude: ClosedRange<Double>? = nil) {
        self.altitude = altitude
        self.range = range
        self.tilt = tilt
        self.heading = heading
        self.bounds = bounds.flatMap { $0.count == 4 && $0[0] < $0[2] && $0[1] < $0[3] ? $0 : nil }
    }

    /// `camera` with each restricted component clamped.
    public func apply(_ camera: Camera) -> Camera {
        var c = camera
        func clamp(_ v: Double, _ r: ClosedRange<Double>?) -> Double { r.map { min(max(v, $0.lowerBound), $0.upperBound) } ?? v }
        c.range = clamp(c.range, range)
        c.tilt = clamp(c.tilt, tilt)
        if let heading {
            var h = c.heading.truncatingRemainder(dividingBy: 360)
            if h < 0 { h += 360 }
            c.heading = clamp(h, heading)
        }
        if let b = bounds {
            c.center = LatLngAltitude(latitude: min(max(c.center.latitude, b[1]), b[3]), longitude: min(max(c.center.longitude, b[0]), b[2]),
                                      altitude: c.center.altitude)
        }
        if let altitude {
            // The eye is range · cos(tilt) above the centre.
            let up = cos(c.tilt * Double.pi / 180)
            let eye = c.center.altitude + c.range * up
            if up > 1e-6, !altitude.contains(eye) {
                let target = min(max(eye, altitude.lowerBound), altitude.upperBound)
                c.range = max(1, (target - c.center.altitude) / up)
            }
        }
        return c
    }

    /// The limits the SDK's restrictions name (later ones of a kind win).
    public init(_ restrictions: [CameraRestriction]) {
        self.init()
        for r in restrictions {
            switch r {
            case .altitude(let a): altitude = a
            case .bounds(let b): bounds = [b.longitude.lowerBound, b.latitude.lowerBound, b.longitude.upperBound, b.latitude.upperBound]
            case .heading(let h): heading = h
            case .tilt(let t): tilt = t
            }
        }
    }
}

/// A latitude and longitude box (the SDK's `LatLngBounds`).
public struct LatLngBounds: Equatable, Hashable, Sendable {
    public var latitude: ClosedRange<Double>
    public var longitude: ClosedRange<Double>
    public init(latitude: ClosedRange<Double>, longitude: ClosedRange<Double>) {
        (self.latitude, self.longitude) = (latitude, longitude)
    }
}

/// One of the SDK's camera restrictions, for `Map.cameraRestrictions([…])`.
public enum CameraRestriction: Equatable, Hashable, Sendable {
    /// The eye's altitude in metres above sea level.
    case altitude(ClosedRange<Double>)
    /// Where the camera's centre may be.
    case bounds(LatLngBounds)
    /// Degrees clockwise from north, within 0…360.
    case heading(ClosedRange<Double>)
    /// Degrees from straight down.
    case tilt(ClosedRange<Double>)
}
