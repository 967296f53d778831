// Positions, the camera, camera restrictions and flights in scene files, both ways.
import TerrapinIO
import TerrapinGeo
import TerrapinRaster
import TerrapinTypography
import TerrapinViews

extension Reader {

    mutating func position(_ node: JSONNode?, _ path: @autoclosure () -> String) -> LatLngAltitude? {
        guard let node else { return nil }
        guard let m = object(node, path(), allowed: ["latitude", "longitude", "altitude"]) else { return nil }
        if m["latitude"] == nil || m["longitude"] == nil {
            report(node, path(), "a position needs \"latitude\" and \"longitude\" (degrees; \"altitude\" in metres is optional)")
        }
        // Every member is read even when one is wrong, so each problem is reported; the
        // reported problems then reject the scene, whatever stands in for the wrong value.
        let lat = number(m["latitude"], path() + ".latitude", in: -90...90, unit: " of degrees")
        let lng = number(m["longitude"], path() + ".longitude", in: -180...180, unit: " of degrees")
        let alt = number(m["altitude"], path() + ".altitude", in: -20_000...100_000_000, unit: " of metres") ?? 0
        return LatLngAltitude(latitude: lat ?? 0, longitude: lng ?? 0, altitude: alt)
    }


    mutating func camera(_ node: JSONNode, _ path: String) -> Camera? {
        guard let m = object(node, path, allowed: ["center", "heading", "tilt", "roll", "range", "fieldOfView", "altitudeMode"]) else { return nil }
        let center = position(m["center"], path + ".center")
        if m["center"] == nil { report(node, path, "a camera needs a \"center\" position (leave \"camera\" out to fit the markers)") }
        var camera = Camera(center: center ?? LatLngAltitude(latitude: 0, longitude: 0, altitude: 0))
        if let h = number(m["heading"], path + ".heading", in: -360...360, unit: " of degrees") { camera.heading = h }
        if let t = number(m["tilt"], path + ".tilt", in: 0...90, unit: " of degrees") { camera.tilt = t }
        if let r = number(m["roll"], path + ".roll", in: -360...360, unit: " of degrees") { camera.roll = r }
        if let r = number(m["range"], path + ".range", in: 1...63_170_000, unit: " of metres") { camera.range = r }
        if let f = number(m["fieldOfView"], path + ".fieldOfView", in: 1...120, unit: " of degrees") { camera.fieldOfView = .degrees(f) }
        camera.altitudeMode = choice(m["altitudeMode"], path + ".altitudeMode", default: camera.altitudeMode)
        return Camera(center: camera.center, heading: camera.heading, tilt: camera.tilt, roll: camera.roll, range: camera.range,
                      fieldOfView: camera.fieldOfView, altitudeMode: camera.altitudeMode)
    }


    static let maxFlights = 1_000


    /// `{"range": [min, max], "tilt": [min, max], "heading": [min, max], "bounds": [w, s, e, n], "altitude": [min, max]}`.
    mutating func cameraRestriction(_ node: JSONNode, _ path: String) -> CameraLimits? {
        guard let m = object(node, path, allowed: ["range", "tilt", "heading", "bounds", "altitude"]) else { return nil }
        func limits(_ key: String, _ allowed: ClosedRange<Double>, _ unit: String) -> ClosedRange<Double>? {
            guard let items = array(m[key], path + "." + key, max: 2) else { return nil }
            let values = items.enumerated().compactMap { number($1, path + ".\(key)[\($0)]", in: allowed, unit: unit) }
            guard values.count == 2, values[0] <= values[1] else {
                if values.count == items.count { report(m[key], path + "." + key, "expected [min, max] with min ≤ max") }
                return nil
            }
            return values[0]...values[1]
        }
        let restriction = CameraLimits(range: limits("range", 1...63_170_000, " of metres"), tilt: limits("tilt", 0...90, " of degrees"),
                                            heading: limits("heading", 0...360, " of degrees"),
                                            altitude: limits("altitude", -11_000...63_170_000, " of metres above sea level"))
        var result = restriction
        if let b = array(m["bounds"], path + ".bounds", max: 4) {
            let values = b.enumerated().compactMap { i, v in number(v, path + ".bounds[\(i)]", in: i % 2 == 0 ? -180...180 : -90...90, unit: " of degrees") }
            if values.count == 4, values[0] < values[2], values[1] < values[3] {
                result.bounds = values
            } else if values.count == b.count {
                report(m["bounds"], path + ".bounds", "expected [west, south, east, north] in degrees with west < east and south < north")
            }
        }
        return result
    }


    /// `{"type": "to" | "around", "camera": {…}, "duration": s, "start": s, "rounds": n}`; with no
    /// duration, the flight takes the SDK's default for where it goes (see `CameraFlight`).
    mutating func flight(_ node: JSONNode, _ path: String) -> CameraFlight? {
        guard let m = object(node, path, allowed: ["type", "camera", "duration", "start", "rounds"]) else { return nil }
        guard m["type"] != nil, m["camera"] != nil else {
            report(node, path, "a flight needs a \"type\" (\"to\" or \"around\") and a \"camera\"")
            return nil
        }
        let type: FlightType = choice(m["type"], path + ".type", default: .to)
        let view = m["camera"].map { self.camera($0, path + ".camera") } ?? nil
        let duration: Double?? = m["duration"] == nil ? .some(nil) : number(m["duration"], path + ".duration", in: 0.001...Scene.maxTime, unit: " of seconds").map { $0 }
        let start = m["start"] == nil ? 0 : number(m["start"], path + ".start", in: 0...Scene.maxTime, unit: " of seconds")
        if type == .to, m["rounds"] != nil { report(m["rounds"], path + ".rounds", "\"rounds\" belongs to \"around\" flights") }
        let rounds = m["rounds"] == nil ? 1 : number(m["rounds"], path + ".rounds", in: -1000...1000)
        guard let view, let duration, let start, let rounds else { return nil }
        return type == .to ? .to(view, duration: duration, start: start) : .around(view, duration: duration, rounds: rounds, start: start)
    }
}

extension SceneEncoder {

    static func position(_ p: LatLngAltitude) -> JSONValue {
        var o: [(String, JSONValue)] = [("latitude", .number(p.latitude)), ("longitude", .number(p.longitude))]
        if p.altitude != 0 { o.append(("altitude", .number(p.altitude))) }
        return .object(o)
    }


    static func camera(_ c: Camera) -> JSONValue {
        let d = Camera(center: c.center)
        var o: [(String, JSONValue)] = [("center", position(c.center))]
        if c.heading != d.heading { o.append(("heading", .number(c.heading))) }
        if c.tilt != d.tilt { o.append(("tilt", .number(c.tilt))) }
        if c.roll != d.roll { o.append(("roll", .number(c.roll))) }
        if c.range != d.range { o.append(("range", .number(c.range))) }
        if c.fieldOfView != d.fieldOfView { o.append(("fieldOfView", .number(c.fieldOfView.degrees))) }
        if c.altitudeMode != d.altitudeMode { o.append(("altitudeMode", .string(c.altitudeMode.rawValue))) }
        return .object(o)
    }
}

enum FlightType: String, CaseIterable { case to, around }
