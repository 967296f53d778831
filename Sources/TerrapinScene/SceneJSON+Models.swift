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
        (self.position, self.file) = (position, file)
    }
}

extension Reader {
    static let maxModels = 1_000

    mutating func model(_ node: JSONNode, _ path: String) -> ModelSpec? { read(SceneTables.model, node, path) }

    /// `"scale"`: one factor, or one per axis (`{"x", "y", "z"}`, each 1 when left out).
    mutating func modelScale(_ s: JSONNode, _ path: String) -> Vector3D? {
        if case .number = s.value {
            return number(s, path, in: 1e-6...1e6).map { Vector3D($0) }
        }
        guard let o = object(s, path, allowed: ["x", "y", "z"]) else { return nil }
        func axis(_ key: String) -> Double? {
            o[key] == nil ? 1 : number(o[key], path + "." + key, in: -1e6...1e6)
        }
        guard let x = axis("x"), let y = axis("y"), let z = axis("z") else { return nil }
        if x == 0 || y == 0 || z == 0 { report(s, path, "a scale of 0 flattens the model to nothing; give a non-zero factor for each axis") }
        return Vector3D(x: x, y: y, z: z)
    }
}

extension SceneEncoder {
    static func model(_ s: ModelSpec) -> JSONValue { SceneTables.model.write(s) }
}

extension SceneTables {
    static let model = ObjectTable<ModelSpec>(
        name: "model", doc: "A glTF 2.0 or GLB model (the SDK's Model): +Y up, metres, its front (+Z) facing the heading.",
        initial: ModelSpec(position: LatLngAltitude(latitude: 0, longitude: 0), file: ""),
        required: ["position", "file"],
        requiredMessage: "a model needs a \"position\" and a \"file\" (a .glb or .gltf)",
        fields: [
            .ref("position", "position", doc: "Where the model's origin stands.",
                 read: { r, node, path, m in if let p = r.read(position, node, path) { m.position = p } },
                 write: { position.write($0.position) }),
            .custom("file", schema: .object([("type", .string("string"))]), type: "file or URL",
                    doc: "A .glb or .gltf file, relative to the scene's folder.",
                    read: { r, node, path, m in if let f = r.fileName(node, path) { m.file = f } }, write: { .string($0.file) }),
            .choice("altitudeMode", \.altitudeMode, initial: ModelSpec(position: LatLngAltitude(latitude: 0, longitude: 0), file: ""),
                    doc: "How the position's altitude is measured."),
            .integer("zIndex", \.zIndex, in: Int(Int32.min)...Int(Int32.max), initial: ModelSpec(position: LatLngAltitude(latitude: 0, longitude: 0), file: ""),
                     doc: "Draw order among models at the same depth."),
            .custom("scale", schema: SceneSchema.fragment(##"{"oneOf": [{"type": "number", "minimum": 1e-06, "maximum": 1000000}, {"type": "object", "additionalProperties": false, "properties": {"x": {"type": "number", "minimum": -1000000, "maximum": 1000000}, "y": {"type": "number", "minimum": -1000000, "maximum": 1000000}, "z": {"type": "number", "minimum": -1000000, "maximum": 1000000}}}]}"##),
                    type: "number or {x, y, z}", default: "1", doc: "One factor, or one per model axis.",
                    read: { r, node, path, m in if let v = r.modelScale(node, path) { m.scale = v } },
                    write: { m in
                        let s = m.scale
                        guard s != .one else { return nil }
                        return s.x == s.y && s.y == s.z ? .number(s.x) : .object([("x", .number(s.x)), ("y", .number(s.y)), ("z", .number(s.z))])
                    }),
            .ref("orientation", "orientation", doc: "Which way the model faces.",
                 read: { r, node, path, m in if let o = r.read(orientation, node, path) { m.orientation = o } },
                 write: { $0.orientation == Orientation3D() ? nil : orientation.write($0.orientation) }),
        ])

    static let orientation = ObjectTable<Orientation3D>(
        name: "orientation", doc: "Degrees: heading clockwise from north, tilt lifting the front, roll lowering the right side; roll, then tilt, then heading.",
        initial: Orientation3D(),
        fields: [
            .number("heading", \.heading, in: -360...360, unit: "degrees", initial: Orientation3D(), always: true, doc: "Clockwise from north."),
            .number("tilt", \.tilt, in: -360...360, unit: "degrees", initial: Orientation3D(), always: true, doc: "Lifting the front."),
            .number("roll", \.roll, in: -360...360, unit: "degrees", initial: Orientation3D(), always: true, doc: "Lowering the right side."),
        ])
}
