// Positions, the camera, camera restrictions and flights in scene files, both ways.
import TerrapinIO
import TerrapinGeo
import TerrapinRaster
import TerrapinTypography
import TerrapinViews

extension Reader {

    mutating func position(_ node: JSONNode?, _ path: @autoclosure () -> String) -> LatLngAltitude? {
        guard let node else { return nil }
        return read(SceneTables.position, node, path())
    }

    mutating func camera(_ node: JSONNode, _ path: String) -> Camera? { read(SceneTables.camera, node, path) }


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
        let duration: Double?? = m["duration"] == nil ? .some(nil) : number(m["duration"], path + ".duration", in: 0.001...SceneFile.maxTime, unit: " of seconds").map { $0 }
        let start = m["start"] == nil ? 0 : number(m["start"], path + ".start", in: 0...SceneFile.maxTime, unit: " of seconds")
        if type == .to, m["rounds"] != nil { report(m["rounds"], path + ".rounds", "\"rounds\" belongs to \"around\" flights") }
        let rounds = m["rounds"] == nil ? 1 : number(m["rounds"], path + ".rounds", in: -1000...1000)
        guard let view, let duration, let start, let rounds else { return nil }
        return type == .to ? .to(view, duration: duration, start: start) : .around(view, duration: duration, rounds: rounds, start: start)
    }
}

extension SceneEncoder {

    static func position(_ p: LatLngAltitude) -> JSONValue { SceneTables.position.write(p) }

    static func camera(_ c: Camera) -> JSONValue { SceneTables.camera.write(c) }
}

enum FlightType: String, CaseIterable { case to, around }
