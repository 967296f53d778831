// Models in scene files, both ways:
//   "models": [{"position": {…}, "file": "balloon.glb", "altitudeMode": …, "zIndex": 0,
//               "scale": 5 or {"x": 5, "y": 5, "z": 5}, "orientation": {"heading", "tilt", "roll"}}]
import TerrapinIO
import TerrapinGeo
import TerrapinModels

public struct ModelSpec: Equatable, Sendable {
    public var position: LatLngAltitude
    /// As written (relative paths resolve against the scene's folder).
    public var file: String
    public var altitudeMode: AltitudeMode = .clampToGround
    public var zIndex = 0
    public var scale = Vector3D.one
    public var orientation = Orientation3D()

    public init(position: LatLngAltitude, file: String) {
        self.position = position
        self.file = file
    }
}

extension Reader {
    static let maxModels = 1_000

    mutating func model(_ node: JSONNode, _ path: String) -> ModelSpec? {
        guard let m = object(node, path, allowed: ["position", "file", "altitudeMode", "zIndex", "scale", "orientation"]) else { return nil }
        guard m["position"] != nil, m["file"] != nil else {
            report(node, path, "a model needs a \"position\" and a \"file\" (a .glb or .gltf)")
            return nil
        }
        let position = position(m["position"], path + ".position")
        let file = fileName(m["file"], path + ".file")
        guard let position, let file else { return nil }
        var spec = ModelSpec(position: position, file: file)
        spec.altitudeMode = choice(m["altitudeMode"], path + ".altitudeMode", default: spec.altitudeMode)
        spec.zIndex = integer(m["zIndex"], path + ".zIndex", in: Int(Int32.min)...Int(Int32.max), default: 0)
        if let s = m["scale"] {
            if case .number = s.value {
                if let v = number(s, path + ".scale", in: 1e-6...1e6) { spec.scale = Vector3D(v) }
            } else if let o = object(s, path + ".scale", allowed: ["x", "y", "z"]) {
                func axis(_ key: String) -> Double? {
                    o[key] == nil ? 1 : number(o[key], path + ".scale." + key, in: -1e6...1e6)
                }
                if let x = axis("x"), let y = axis("y"), let z = axis("z") {
                    if x == 0 || y == 0 || z == 0 { report(s, path + ".scale", "a scale of 0 flattens the model to nothing; give a non-zero factor for each axis") }
                    spec.scale = Vector3D(x: x, y: y, z: z)
                }
            }
        }
        if let o = m["orientation"], let r = object(o, path + ".orientation", allowed: ["heading", "tilt", "roll"]) {
            func angle(_ key: String) -> Double { r[key] == nil ? 0 : number(r[key], path + ".orientation." + key, in: -360...360, unit: " of degrees") ?? 0 }
            spec.orientation = Orientation3D(heading: angle("heading"), tilt: angle("tilt"), roll: angle("roll"))
        }
        return spec
    }
}

extension SceneEncoder {
    static func model(_ s: ModelSpec) -> JSONValue {
        var o: [(String, JSONValue)] = [("position", position(s.position)), ("file", .string(s.file))]
        if s.altitudeMode != .clampToGround { o.append(("altitudeMode", .string(s.altitudeMode.rawValue))) }
        if s.zIndex != 0 { o.append(("zIndex", .number(Double(s.zIndex)))) }
        if s.scale != .one {
            o.append(("scale", s.scale.x == s.scale.y && s.scale.y == s.scale.z ? .number(s.scale.x)
                        : .object([("x", .number(s.scale.x)), ("y", .number(s.scale.y)), ("z", .number(s.scale.z))])))
        }
        if s.orientation != Orientation3D() {
            o.append(("orientation", .object([("heading", .number(s.orientation.heading)), ("tilt", .number(s.orientation.tilt)),
                                              ("roll", .number(s.orientation.roll))])))
        }
        return .object(o)
    }
}
