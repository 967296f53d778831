// Reference values from PROJ 9 through pyproj (EPSG:4979 → EPSG:4978, and the
// `topocentric` conversion for ENU), computed while writing these tests.
import Foundation
import Testing
@testable import TerrapinGeo

func near(_ a: Vector3, _ b: Vector3, _ tolerance: Double = 0.001) -> Bool { (a - b).length <= tolerance }

@Suite struct GeodesyTests {
    static let ecefCases: [(LatLngAltitude, Vector3)] = [
        (LatLngAltitude(latitude: 40.7484, longitude: -73.9857, altitude: 100), Vector3(1334956.5663, -4651165.2733, 4141361.2934)),
        (LatLngAltitude(latitude: 37.7955, longitude: -122.3937, altitude: 0), Vector3(-2703512.7624, -4261090.0037, 3887532.4969)),
        (LatLngAltitude(latitude: 0, longitude: 0, altitude: 0), Vector3(6378137.0, 0, 0)),
        (LatLngAltitude(latitude: 36.6, longitude: -84.2, altitude: 500), Vector3(518114.1064, -5100738.3389, 3782147.2331)),
        (LatLngAltitude(latitude: -33.8568, longitude: 151.2153, altitude: 25), Vector3(-4646986.8329, 2553086.9169, -3533281.0555)),
        (LatLngAltitude(latitude: 89.9, longitude: 10, altitude: 1000), Vector3(11001.4228, 1939.8477, 6357742.5656)),
    ]

    @Test func ecefMatchesPROJWithinAMillimetre() {
        for (p, expected) in Self.ecefCases {
            #expect(near(Ellipsoid.wgs84.ecef(p), expected), "\(p)")
            // The inverse: exact on the forward value, and within a millimetre of PROJ's point.
            let exact = Ellipsoid.wgs84.geodetic(Ellipsoid.wgs84.ecef(p))
            #expect(abs(exact.latitude - p.latitude) < 1e-10 && abs(exact.longitude - p.longitude) < 1e-10 && abs(exact.altitude - p.altitude) < 1e-6, "\(exact)")
            #expect(near(Ellipsoid.wgs84.ecef(Ellipsoid.wgs84.geodetic(expected)), expected))
        }
        let pole = Ellipsoid.wgs84.geodetic(Vector3(0, 0, Ellipsoid.wgs84.b + 10))
        #expect(pole.latitude == 90 && abs(pole.altitude - 10) < 1e-6)
    }

    @Test func enuMatchesPROJWithinAMillimetre() {
        let esb = LocalFrame(origin: LatLngAltitude(latitude: 40.7484, longitude: -73.9857))
        #expect(near(esb.enu(LatLngAltitude(latitude: 40.7484, longitude: -73.9857, altitude: 100)), Vector3(0, 0, 100)))
        #expect(near(esb.enu(LatLngAltitude(latitude: 40.7580, longitude: -73.9855, altitude: 10)), Vector3(16.8885, 1066.0734, 9.9107)))
        #expect(near(esb.enu(LatLngAltitude(latitude: 40.7061, longitude: -74.0087)), Vector3(-1943.6793, -4697.1024, -2.0295)))
        #expect(near(esb.enu(LatLngAltitude(latitude: 40.7484, longitude: -73.9)), Vector3(7237.7313, 3.5332, -4.1007)))
        let ferry = LocalFrame(origin: LatLngAltitude(latitude: 37.7955, longitude: -122.3937))
        #expect(near(ferry.enu(LatLngAltitude(latitude: 37.8199, longitude: -122.4783, altitude: 227)), Vector3(-7449.0238, 2711.6922, 222.0777)))
        #expect(near(ferry.enu(LatLngAltitude(latitude: 37.7749, longitude: -122.4194, altitude: 16)), Vector3(-2264.1822, -2286.1383, 15.1877)))
        // And back.
        let p = ferry.geodetic(enu: Vector3(-2264.1822, -2286.1383, 15.1877))
        #expect(abs(p.latitude - 37.7749) < 1e-8 && abs(p.longitude + 122.4194) < 1e-8 && abs(p.altitude - 16) < 0.001)
    }

    @Test func validationAndNormalisation() {
        #expect(LatLngAltitude(validatingLatitude: 91, longitude: 0) == nil)
        #expect(LatLngAltitude(validatingLatitude: .nan, longitude: 0) == nil)
        #expect(LatLngAltitude(validatingLatitude: 10, longitude: 0, altitude: .infinity) == nil)
        #expect(LatLngAltitude(validatingLatitude: 10, longitude: 190)?.longitude == -170)
        #expect(LatLngAltitude(latitude: 10, longitude: -540).normalized.longitude == -180)
    }

    @Test func distanceAndBearing() {
        let nyc = LatLngAltitude(latitude: 40.7484, longitude: -73.9857), sf = LatLngAltitude(latitude: 37.7955, longitude: -122.3937)
        let (d, b) = Ellipsoid.distanceAndBearing(from: nyc, to: sf)
        #expect(abs(d - 4_129_000) < 10_000, "\(d)")   // ellipsoidal: 4,138 km; the sphere is within 0.5 %
        #expect(b > 270 && b < 290, "west-north-west: \(b)")
        #expect(Ellipsoid.distanceAndBearing(from: nyc, to: LatLngAltitude(latitude: 41.7484, longitude: -73.9857)).bearing == 0)
    }
}

@Suite struct CameraTests {
    let center = LatLngAltitude(latitude: 37.7955, longitude: -122.3937)

    func projection(heading: Double = 0, tilt: Double = 0, roll: Double = 0, range: Double = 1000) -> Projection {
        Projection(camera: Camera(center: center, heading: heading, tilt: tilt, roll: roll, range: range), width: 800, height: 600)
    }

    /// Screen position of a point `metres` north (or east) of the centre.
    func screen(_ p: Projection, east: Double = 0, north: Double = 0, up: Double = 0) -> ScreenPoint { p.project(enu: Vector3(east, north, up))! }

    @Test func centerProjectsToTheImageCentre() {
        for (h, t) in [(0.0, 0.0), (37.0, 45.0), (200.0, 80.0)] {
            let s = screen(projection(heading: h, tilt: t))
            #expect(abs(s.x - 400) < 1e-9 && abs(s.y - 300) < 1e-9 && abs(s.depth - 1000) < 1e-9)
            #expect(projection(heading: h, tilt: t).project(center).map { abs($0.x - 400) < 1e-6 && abs($0.y - 300) < 1e-6 } == true)
        }
    }

    @Test func tiltZeroLooksStraightDownWithNorthUp() {
        let p = projection()
        #expect(near(p.eye, Vector3(0, 0, 1000), 1e-9))
        let north = screen(p, north: 100), east = screen(p, east: 100)
        #expect(north.y < 300 && abs(north.x - 400) < 1e-9, "north is up")
        #expect(east.x > 400 && abs(east.y - 300) < 1e-9, "east is right")
        // 100 m at 1,000 m range with a 35° vertical field of view on 600 px.
        let focal: Double = 300 / tan(17.5 * Double.pi / 180)
        let expected: Double = 100.0 / 1000.0 * focal
        #expect(abs((300 - north.y) - expected) < 1e-9)
    }

    @Test func headingNinetyPutsNorthOnTheLeft() {
        let p = projection(heading: 90)
        let north = screen(p, north: 100)
        #expect(north.x < 400 && abs(north.y - 300) < 1e-9)
        #expect(screen(p, east: 100).y < 300, "looking east, east is up")
    }

    @Test func tiltNinetyLooksAtTheHorizon() {
        let p = projection(tilt: 90)
        #expect(near(p.eye, Vector3(0, -1000, 0), 1e-9))
        #expect(screen(p, north: 0, up: 50).y < 300, "up is up")
        #expect(screen(p, north: 5000).y > 300 - 1e-9 && abs(screen(p, north: 5000).y - 300) < 1e-9, "the ground plane's far points meet the horizon line")
    }

    @Test func rollRotatesTheImage() {
        let p = projection(roll: 90)
        let north = screen(p, north: 100)
        #expect(abs(north.y - 300) < 1e-9 && north.x > 400, "rolled 90°: north turns to the right")
    }

    @Test func behindTheEyeIsNotProjected() {
        let p = projection(tilt: 60)
        #expect(p.project(enu: p.eye - p.forward * 10) == nil)
        #expect(p.project(LatLngAltitude(latitude: .nan, longitude: 0)) == nil)
        #expect(p.near == 1 && p.far > 1000)
    }

    @Test func restrictionsClamp() {
        let c = Camera(center: LatLngAltitude(latitude: 95, longitude: 200), heading: -30, tilt: 120, range: -5, fieldOfView: .degrees(.nan)).restricted
        #expect(c.center.latitude == 90 && c.center.longitude == -160 && c.heading == 330 && c.tilt == 90 && c.range == 1 && c.fieldOfView.degrees == 35)
    }
}

@Suite struct SurfaceTests {
    @Test func surfaceTermsGiveTheSameECEF() {
        for (p, _) in GeodesyTests.ecefCases {
            let surface = Ellipsoid.Surface(p)
            for earth in [Ellipsoid.wgs84, .sphere] {
                #expect(near(surface.ecef(height: p.altitude, on: earth), earth.ecef(p), 1e-9))
            }
        }
    }
}

@Suite struct CameraFlightTests {
    let start = Camera(center: LatLngAltitude(latitude: 36.59, longitude: -84.25, altitude: 500), heading: 350, tilt: 0, range: 40_000)
    let end = Camera(center: LatLngAltitude(latitude: 36.59, longitude: -84.25, altitude: 500), heading: 30, tilt: 60, range: 10_000)

    @Test func easing() {
        #expect(CameraFlight.smoothstep(0) == 0 && CameraFlight.smoothstep(1) == 1 && CameraFlight.smoothstep(0.5) == 0.5)
        #expect(abs(CameraFlight.smoothstep(0.25) - 0.15625) < 1e-12)
    }

    /// Before, during and after a "to" flight: heading the short way (350 → 30 through 0),
    /// tilt linear in the eased progress, range log-linear (the geometric mean half-way).
    @Test func flyTo() {
        let flights = [CameraFlight.to(end, duration: 4, start: 1)]
        #expect(CameraFlight.camera(at: 0.5, initial: start, flights: flights) == start)
        #expect(CameraFlight.camera(at: 5, initial: start, flights: flights) == end)
        let mid = CameraFlight.camera(at: 3, initial: start, flights: flights)
        #expect(abs(mid.heading - 370) < 1e-9 && abs(mid.restricted.heading - 10) < 1e-9 && abs(mid.tilt - 30) < 1e-9)
        #expect(abs(mid.range - 20_000) < 1e-6)   // √(40,000 × 10,000); no lift for a flight in place
        let quarter = CameraFlight.camera(at: 2, initial: start, flights: flights)
        #expect(abs(quarter.tilt - 60 * 0.15625) < 1e-9)
    }

    /// A long flight rises: half-way between two cities 2° of longitude apart (~179 km at
    /// 36.6°N) the range is the log-mean plus d/2 − max(r₀, r₁), and the centre is on the
    /// great circle (mid-longitude, slightly poleward of the parallel).
    @Test func longFlightsRiseAndFollowTheGreatCircle() {
        let a = Camera(center: LatLngAltitude(latitude: 36.6, longitude: -85), range: 5_000)
        let b = Camera(center: LatLngAltitude(latitude: 36.6, longitude: -83), range: 5_000)
        let mid = CameraFlight.interpolate(a, b, 0.5)
        let d = Ellipsoid.distanceAndBearing(from: a.center, to: b.center).distance
        #expect(abs(mid.range - (5_000 + d / 2 - 5_000)) < 1)
        #expect(abs(mid.center.longitude + 84) < 1e-9 && mid.center.latitude > 36.6 && mid.center.latitude < 36.62)
    }

    /// "around": the heading turns 360° × rounds linearly; afterwards it rests at the end.
    @Test func flyAround() {
        let flights = [CameraFlight.around(end, duration: 8, rounds: 2, start: 0)]
        #expect(abs(CameraFlight.camera(at: 1, initial: start, flights: flights).heading - (30 + 90)) < 1e-9)
        #expect(abs(CameraFlight.camera(at: 8, initial: start, flights: flights).heading - (30 + 720)) < 1e-9)
        #expect(CameraFlight.camera(at: 20, initial: start, flights: flights).restricted.heading == 30)
    }

    /// Flights chain: the second starts from where the first left the camera.
    @Test func flightsChain() {
        let other = Camera(center: LatLngAltitude(latitude: 36.7, longitude: -84.1), heading: 90, tilt: 45, range: 8_000)
        let flights = [CameraFlight.to(other, duration: 2, start: 4), CameraFlight.to(end, duration: 2, start: 0)]
        #expect(CameraFlight.camera(at: 3, initial: start, flights: flights) == end)
        let halfway = CameraFlight.camera(at: 5, initial: start, flights: flights)
        #expect(halfway == CameraFlight.interpolate(end, other, 0.5))
    }
}

@Suite struct EncodedPolylineTests {
    /// The format's documented example: (38.5, −120.2), (40.7, −120.95), (43.252, −126.453).
    @Test func decodesTheDocumentedExample() throws {
        let path = try #require([LatLngAltitude](encodedPath: "_p~iF~ps|U_ulLnnqC_mqNvxq`@", dimensions: .latLng))
        #expect(path.map(\.latitude) == [38.5, 40.7, 43.252])
        #expect(path.map(\.longitude) == [-120.2, -120.95, -126.453])
        #expect(path.encodedPath(dimensions: .latLng) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
    }

    @Test func oneValueAndItsSign() throws {
        // −179.9832104 encodes as `` `~oia@ `` (the format's worked example, to 1e-5).
        #expect([LatLngAltitude(latitude: 0, longitude: -179.98321)].encodedPath(dimensions: .latLng) == "?`~oia@")
        #expect([LatLngAltitude](encodedPath: "??", dimensions: .latLng)?.first == LatLngAltitude(latitude: 0, longitude: 0))
    }

    @Test func altitudesAsAThirdDimension() throws {
        let points = [LatLngAltitude(latitude: 36.6, longitude: -84.25, altitude: 512.34), LatLngAltitude(latitude: 36.61, longitude: -84.24, altitude: 498)]
        let text = points.encodedPath(dimensions: .latLngAltitude)
        let back = try #require([LatLngAltitude](encodedPath: text, dimensions: .latLngAltitude))
        #expect(back == points)
        // Read as 2-D, the six values are three points: the dimensions must be known.
        #expect([LatLngAltitude](encodedPath: text, dimensions: .latLng)?.count == 3)
    }

    /// The SDK 1.0's default is three dimensions; its raw values are the values per point.
    @Test func theDefaultIsThreeDimensions() throws {
        let points = [LatLngAltitude(latitude: 38.5, longitude: -120.2, altitude: 12.5)]
        #expect(points.encodedPath() == points.encodedPath(dimensions: .latLngAltitude))
        #expect([LatLngAltitude](encodedPath: points.encodedPath()) == points)
        #expect(PathEncodingDimensions.latLng.rawValue == 2 && PathEncodingDimensions.latLngAltitude.rawValue == 3)
        // Two values are one 2-D point and no whole 3-D one: read with the default, nil.
        #expect([LatLngAltitude](encodedPath: "??", dimensions: .latLng)?.count == 1)
        #expect([LatLngAltitude](encodedPath: "??") == nil)
    }

    @Test func malformedTextIsNil() {
        #expect([LatLngAltitude](encodedPath: "_p~iF~ps|U_ulL", dimensions: .latLng) == nil, "an odd count of values")
        #expect([LatLngAltitude](encodedPath: "_p~iF~ps|", dimensions: .latLng) == nil, "a value cut off mid-way")
        #expect([LatLngAltitude](encodedPath: "_p~iF ps|U", dimensions: .latLng) == nil, "a space is outside the alphabet")
        #expect([LatLngAltitude](encodedPath: String(repeating: "~", count: 40), dimensions: .latLng) == nil, "a value longer than 32 bits")
        #expect([LatLngAltitude](encodedPath: "", dimensions: .latLng)?.isEmpty == true)
    }
}

@Suite struct EarthTests {
    @Test func theSphereIsRoundAndTheEllipsoidFlattened() {
        let a = 6_378_137.0
        #expect(Ellipsoid.sphere.b == a && Ellipsoid.sphere.e2 == 0)
        #expect(abs(Ellipsoid.wgs84.b - 6_356_752.314245) < 1e-6)
        for p in [LatLngAltitude(latitude: 43.7384, longitude: 7.4246, altitude: 120), LatLngAltitude(latitude: -80, longitude: 170, altitude: 0)] {
            #expect(abs(Ellipsoid.sphere.ecef(p).length - (a + p.altitude)) < 1e-6)
            let back = Ellipsoid.sphere.geodetic(Ellipsoid.sphere.ecef(p))
            #expect(abs(back.latitude - p.latitude) < 1e-10 && abs(back.longitude - p.longitude) < 1e-10 && abs(back.altitude - p.altitude) < 1e-6, "\(back)")
        }
        // Metres per degree at 45°: chords of a thousandth of a degree between ECEF points on
        // WGS84 (to the millimetre), and the sphere's a·π/180.
        let w = Ellipsoid.wgs84.metresPerDegree(atLatitude: 45), s = Ellipsoid.sphere.metresPerDegree(atLatitude: 45)
        func chord(_ a: LatLngAltitude, _ b: LatLngAltitude) -> Double { (Ellipsoid.wgs84.ecef(a) - Ellipsoid.wgs84.ecef(b)).length * 1000 }
        let north = chord(LatLngAltitude(latitude: 45.0005, longitude: 0), LatLngAltitude(latitude: 44.9995, longitude: 0))
        let east = chord(LatLngAltitude(latitude: 45, longitude: 0.0005), LatLngAltitude(latitude: 45, longitude: -0.0005))
        #expect(abs(w.latitude - north) < 1e-3 && abs(w.longitude - east) < 1e-3, "\(w) \(north) \(east)")
        #expect(abs(s.latitude - a * Double.pi / 180) < 1e-6 && abs(s.longitude - a * Double.pi / 180 * cos(Double.pi / 4)) < 1e-6, "\(s)")
        #expect(Ellipsoid.sphere.description == "sphere" && Ellipsoid.wgs84.description == "wgs84")
    }

    /// Straight down on the sphere, the view is a Web Mercator map at the zoom whose metres per
    /// pixel the range gives: points 400 and 300 Mercator pixels from the centre land 400 and 300
    /// pixels away. On WGS84 they land 0.16 % off, east-west out and north-south in.
    @Test func straightDownOnTheSphereIsWebMercator() {
        let lat0 = 43.7384, lon0 = 7.4246, zoom = 15.0, r = 6_378_137.0
        let metresPerPixel = 78_271.517 * cos(lat0 * Double.pi / 180) / pow(2, zoom)
        let mercatorPerPixel = metresPerPixel / cos(lat0 * Double.pi / 180)
        let x0 = r * lon0 * Double.pi / 180, y0 = r * log(tan(Double.pi / 4 + lat0 * Double.pi / 360))
        func at(_ dx: Double, _ dy: Double) -> LatLngAltitude {
            let x = x0 + dx * mercatorPerPixel, y = y0 - dy * mercatorPerPixel
            return LatLngAltitude(latitude: (2 * atan(exp(y / r)) - Double.pi / 2) * 180 / Double.pi, longitude: x / r * 180 / Double.pi)
        }
        let camera = Camera(center: LatLngAltitude(latitude: lat0, longitude: lon0), heading: 0, tilt: 0,
                            range: metresPerPixel * 384 / tan(17.5 * Double.pi / 180))
        let offsets: [(Double, Double)] = [(400, 0), (-400, 0), (0, 300), (0, -300), (400, 300), (-400, -300)]
        var worst = (sphere: 0.0, wgs84: 0.0)
        for (dx, dy) in offsets {
            for earth in [Ellipsoid.sphere, .wgs84] {
                let s = Projection(camera: camera, width: 1024, height: 768, centerAltitude: 0, ellipsoid: earth).project(at(dx, dy))!
                let error = max(abs(s.x - 512 - dx), abs(s.y - 384 - dy))
                if earth == .sphere { worst.sphere = max(worst.sphere, error) } else { worst.wgs84 = max(worst.wgs84, error) }
            }
        }
        #expect(worst.sphere < 0.05, "\(worst)")
        #expect(worst.wgs84 > 0.45 && worst.wgs84 < 0.8, "\(worst)")
    }
}

/// Web Mercator's plane (`"earth": "mercator"`): its metres are EPSG:3857's times the cosine of
/// the latitude it is true to scale at, a projection makes it true at its centre, and a view of
/// it at any tilt and heading is the pinhole view of a flat web map, worked out here on its own.
@Suite struct MercatorPlaneTests {
    @Test func thePlaneIsWebMercatorTrueToScaleAtItsCentre() {
        let a = 6_378_137.0
        let plane = Ellipsoid.mercator.trueToScale(atLatitude: 60)
        #expect(plane.isPlane && plane.description == "mercator" && !Ellipsoid.sphere.isPlane)
        #expect(abs(plane.planeScale! - 0.5) < 1e-12)
        #expect(Ellipsoid.sphere.trueToScale(atLatitude: 60) == .sphere, "the ellipsoids stay as they are")
        for p in [LatLngAltitude(latitude: 43.7384, longitude: 7.4246, altitude: 120), LatLngAltitude(latitude: -80, longitude: 170, altitude: 0)] {
            let v = plane.ecef(p)
            #expect(abs(v.x - 0.5 * a * p.longitude * Double.pi / 180) < 1e-6)
            #expect(abs(v.y - 0.5 * a * log(tan(Double.pi / 4 + p.latitude * Double.pi / 360))) < 1e-6)
            #expect(v.z == p.altitude)
            let back = plane.geodetic(v)
            #expect(abs(back.latitude - p.latitude) < 1e-10 && abs(back.longitude - p.longitude) < 1e-10 && back.altitude == p.altitude, "\(back)")
            // A surface's trigonometry gives the same point.
            let s = Ellipsoid.Surface(p).ecef(height: p.altitude, on: plane)
            #expect((s - v).length < 1e-6)
        }
        // Beyond Web Mercator's limit, positions stay on its square world.
        #expect(plane.ecef(LatLngAltitude(latitude: 90, longitude: 0)).y.isFinite)
        // A metre east and north at the true latitude is a metre; a degree of longitude is the same everywhere.
        let d = plane.metresPerDegree(atLatitude: 60)
        #expect(abs(d.longitude - 0.5 * a * Double.pi / 180) < 1e-6 && abs(d.latitude - a * Double.pi / 180) < 1e-6, "\(d)")
        // Frames on it have the plane's axes.
        let frame = LocalFrame(origin: LatLngAltitude(latitude: 60, longitude: 10, altitude: 5), ellipsoid: plane)
        #expect(frame.east == Vector3(1, 0, 0) && frame.north == Vector3(0, 1, 0) && frame.up == Vector3(0, 0, 1))
        #expect(abs(frame.enu(LatLngAltitude(latitude: 60, longitude: 10, altitude: 15)).z - 10) < 1e-9)
    }

    /// Points at web-map pixel offsets from the centre, at a fractional zoom, land where a flat
    /// map seen through MapLibre's pinhole camera (its distance, tilt and bearing) puts them: to a
    /// thousandth of a pixel straight down at 1,000 pixels out, and tilted 60° and turned 30°.
    @Test func everyViewOfThePlaneIsAWebMap() throws {
        let lat0 = 51.5, lon0 = -0.12, zoom = 13.37, width = 1200.0, height = 900.0, fov = 36.87
        let a = 6_378_137.0
        let metresPerPixel = 2 * Double.pi * a * cos(lat0 * Double.pi / 180) / (512 * pow(2, zoom))
        let focal = (height / 2) / tan(fov * Double.pi / 360)
        let worldPixels = 512 * pow(2, zoom)
        let mx0 = (lon0 + 180) / 360 * worldPixels
        let my0 = (1 - log(tan(Double.pi / 4 + lat0 * Double.pi / 360)) / Double.pi) / 2 * worldPixels
        func position(_ dx: Double, _ dy: Double) -> LatLngAltitude {
            let mx = mx0 + dx, my = my0 + dy
            let lat = atan(sinh(Double.pi * (1 - 2 * my / worldPixels))) * 180 / Double.pi
            return LatLngAltitude(latitude: lat, longitude: mx / worldPixels * 360 - 180)
        }
        for (tilt, heading) in [(0.0, 0.0), (60.0, 30.0)] {
            let camera = Camera(center: LatLngAltitude(latitude: lat0, longitude: lon0), heading: heading, tilt: tilt, range: metresPerPixel * focal,
                                fieldOfView: .degrees(fov))
            let projection = Projection(camera: camera, width: width, height: height, centerAltitude: 0, ellipsoid: .mercator)
            var worst = 0.0
            for (dx, dy) in [(1000.0, 0.0), (-700.0, 420.0), (0.0, -440.0), (350.0, -300.0), (-20.0, 10.0)] {
                // The pinhole: the eye `focal` pixels from the centre, tilted and turned.
                let h = heading * Double.pi / 180, t = tilt * Double.pi / 180
                let along = dx * sin(h) - dy * cos(h), across = dx * cos(h) + dy * sin(h)
                let depth = focal + along * sin(t)
                guard depth > 1 else { continue }
                let expected = (width / 2 + focal * across / depth, height / 2 - focal * along * cos(t) / depth)
                let s = try #require(projection.project(position(dx, dy)))
                worst = max(worst, abs(s.x - expected.0), abs(s.y - expected.1))
            }
            #expect(worst < 1e-3, "tilt \(tilt): \(worst) px")
        }
    }
}

/// CoreLocation's names for app code: a location's distance is the great circle on the mean
/// sphere (one degree of longitude on the equator: 111,195.08 m; Paris to London 343.56 km, the haversine figure).
@Test func coreLocationDistances() {
    let a = CLLocation(latitude: 0, longitude: 0), b = CLLocation(latitude: 0, longitude: 1)
    #expect(abs(a.distance(from: b) - 111_195.08) < 0.01)
    let paris = CLLocation(latitude: 48.8566, longitude: 2.3522), london = CLLocation(latitude: 51.5074, longitude: -0.1278)
    #expect(abs(paris.distance(from: london) - 343_557) < 5)
    #expect(paris.distance(from: london) == london.distance(from: paris))
    let point = LatLngAltitude(CLLocationCoordinate2D(latitude: 1, longitude: 2), altitude: 3)
    #expect(point.coordinate == CLLocationCoordinate2D(latitude: 1, longitude: 2) && point.altitude == 3)
}

@Suite struct WebMercatorTests {
    @Test func theWorldIsSquareAndItsEdgesAreTheLatitudeLimit() {
        let north = WebMercator.world(longitude: -180, latitude: WebMercator.maxLatitude)
        let south = WebMercator.world(longitude: 180, latitude: -WebMercator.maxLatitude)
        #expect(north.x == 0 && abs(north.y) < 1e-12 && south.x == 1 && abs(south.y - 1) < 1e-12)
        // Beyond the limit, positions are clamped to the world's edge.
        #expect(WebMercator.world(longitude: 0, latitude: 90).y == north.y)
        #expect(WebMercator.world(longitude: 7.4265, latitude: 0) == ((7.4265 + 180) / 360, 0.5))
        #expect(abs(WebMercator.latitude(worldY: 0) - WebMercator.maxLatitude) < 1e-9)
    }

    @Test func itsFormsAgreeAndInvert() {
        for latitude in stride(from: -85.0, through: 85.0, by: 2.5) {
            let y = WebMercator.y(latitude: latitude)
            #expect(abs(y - WebMercator.y(sinLatitude: sin(latitude * .pi / 180))) < 1e-12, "\(latitude)")
            #expect(abs(WebMercator.latitude(y: y) - latitude) < 1e-12, "\(latitude)")
            let w = WebMercator.world(longitude: 0, latitude: latitude)
            #expect(abs(WebMercator.latitude(worldY: w.y) - latitude) < 1e-12, "\(latitude)")
        }
        // Known values: zoom 2's second row of tiles starts at 66.5132604431° N, and zoom 1's
        // second at the equator.
        #expect(abs(WebMercator.latitude(worldY: 0.25) - 66.51326044311186) < 1e-9)
        #expect(abs(WebMercator.latitude(worldY: 0.5)) < 1e-12)
    }
}

@Suite struct PlaneMercatorTests {
    /// On Web Mercator's plane a point's Mercator y is its metres over k·a: what the ground pass
    /// reads Web Mercator imagery by, without going through a latitude. The latitude's round trip
    /// agrees to rounding (a texel of a z22 world is 2⁻³⁰ of it; the two differ by far less).
    @Test func aPlanePointsMercatorYIsItsMetresOverKA() {
        for k in [1.0, 0.72, 0.31] {
            let ka = k * Ellipsoid.mercator.a
            for i in -200...200 {
                let y = Double(i) / 200 * 3.1 * ka   // up to the square world's edge (π · k·a)
                let roundTrip = WebMercator.y(latitude: Ellipsoid.planeLatitude(y, ka))
                #expect(abs(roundTrip - y / ka) <= 1e-12 * max(1, abs(y / ka)), "k \(k), y \(y)")
            }
        }
        // And the plane's geodetic gives the same latitude and longitude as the two parts.
        let v = Vector3(1234.5, -98765.4, 12)
        let p = Ellipsoid.mercator.geodetic(v)
        #expect(p.latitude == Ellipsoid.planeLatitude(v.y, Ellipsoid.mercator.a) && p.longitude == Ellipsoid.planeLongitude(v.x, Ellipsoid.mercator.a))
    }
}
