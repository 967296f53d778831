// The tables of the scene objects (see SceneFields.swift): one row a field. The decoder, the
// encoder, the JSON Schema and docs/scene-fields.md all come from these rows.
import TerrapinIO
import TerrapinGeo
import TerrapinRaster

enum SceneTables {
    /// The schema's pattern for a colour written in hex.
    static let hexColor = "^#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$"

    /// The file itself.
    static let scene = ObjectTable<Scene>(
        name: "", doc: "A Terrapin scene file: the output image and an optional map. Unknown keys are errors.",
        initial: Scene(),
        fields: [
            .custom("$schema", schema: .object([("type", .string("string"))]), type: "string",
                    doc: "The schema's URL, for editors; not read.", read: { r, node, path, _ in _ = r.string(node, path) }, write: { _ in nil }),
            .ref("output", "output", doc: "The image: its size, scale, background and compression.",
                 read: { r, node, path, scene in _ = r.read(output, node, path, into: &scene.output) },
                 write: { .some(output.write($0.output)) }),
            .number("time", \.time, in: 0...Scene.maxTime, unit: "seconds", initial: Scene(),
                    doc: "When the scene is drawn, from its start (camera flights and animations)."),
            .custom("hosts", schema: SceneSchema.fragment(#"{"type": "array", "maxItems": 64, "items": {"type": "string", "minLength": 1, "maxLength": 253, "pattern": "^[A-Za-z0-9.:\\[\\]*-]+$"}}"#),
                    type: "array of host names",
                    doc: "The hosts the scene's http(s) URLs may reach (\".example.org\" takes its subdomains too); the renderer's own list (--allow-host, serve's) still applies. Default: whatever the renderer allows.",
                    read: { r, node, path, scene in scene.hosts = r.hosts(node, path) },
                    write: { $0.hosts.map { .array($0.map { .string($0) }) } }),
            .ref("map", "map", doc: "The map: camera, terrain, imagery, basemap and content.",
                 read: { r, node, path, scene in scene.map = r.mapScene(node, path) },
                 write: { $0.map.map(SceneEncoder.encode) }),
        ])

    static let output = ObjectTable<OutputOptions>(
        name: "output", doc: "The image to produce: a size in points, the pixels per point, a background and the encoded image's compression.",
        initial: OutputOptions(),
        fields: [
            .integer("width", \.width, in: 1...Pixmap.Limits.maxDimension, unit: "points", initial: OutputOptions(), always: true, doc: "The image's width."),
            .integer("height", \.height, in: 1...Pixmap.Limits.maxDimension, unit: "points", initial: OutputOptions(), always: true, doc: "The image's height."),
            .integer("scale", \.scale, in: OutputOptions.scales, initial: OutputOptions(), doc: "Pixels per point, as on iOS."),
            .custom("background", schema: .object([("type", .string("string")), ("pattern", .string(hexColor))]), type: "colour (hex)", default: "\"#FFFFFF\"",
                    doc: "The colour under everything: #RGB, #RGBA, #RRGGBB or #RRGGBBAA.",
                    read: { r, node, path, o in o.background = r.color(node, path, default: o.background) },
                    write: { $0.background == OutputOptions().background ? nil : .string(SceneEncoder.hex($0.background)) }),
            .choice("compression", \.compression, initial: OutputOptions(), doc: "The encoder's effort: fast, default or small files."),
            .custom("layoutSize", schema: .object([
                        ("type", .string("object")), ("additionalProperties", .bool(false)), ("required", .array([.string("width"), .string("height")])),
                        ("properties", .object([
                            ("width", .object([("type", .string("integer")), ("minimum", .number(1)), ("maximum", .number(Double(Pixmap.Limits.maxDimension)))])),
                            ("height", .object([("type", .string("integer")), ("minimum", .number(1)), ("maximum", .number(Double(Pixmap.Limits.maxDimension)))])),
                        ])),
                    ]), type: "{width, height}", unit: "points",
                    doc: "Points the map is laid out at, drawn scaled to fit width × height (thumbnails of a larger scene). Taps are in these points.",
                    read: { r, node, path, o in o.layoutSize = r.layoutSize(node, path, o) },
                    write: { o in o.layoutSize.map { .object([("width", .number(Double($0.width))), ("height", .number(Double($0.height)))]) } }),
        ],
        check: { r, node, path, o in
            if r.issues.isEmpty, let problem = o.sizeProblem { r.report(node, path, problem) }
        })

    static let position = ObjectTable<LatLngAltitude>(
        name: "position", doc: "A place on the Earth: WGS84 degrees and metres.",
        initial: LatLngAltitude(latitude: 0, longitude: 0),
        required: ["latitude", "longitude"],
        requiredMessage: "a position needs \"latitude\" and \"longitude\" (degrees; \"altitude\" in metres is optional)",
        fields: [
            .number("latitude", \.latitude, in: -90...90, unit: "degrees", initial: LatLngAltitude(latitude: 0, longitude: 0), always: true, doc: "North of the equator."),
            .number("longitude", \.longitude, in: -180...180, unit: "degrees", initial: LatLngAltitude(latitude: 0, longitude: 0), always: true, doc: "East of Greenwich."),
            .number("altitude", \.altitude, in: -20_000...100_000_000, unit: "metres", initial: LatLngAltitude(latitude: 0, longitude: 0),
                    doc: "Height, measured as the owner's altitude mode says."),
        ])

    static let camera = ObjectTable<Camera>(
        name: "camera", doc: "Where the map is seen from: a centre, and the eye's direction and distance from it (the SDK's Camera).",
        initial: Camera(center: LatLngAltitude(latitude: 0, longitude: 0)),
        required: ["center"],
        requiredMessage: "a camera needs a \"center\" position (leave \"camera\" out to fit the markers)",
        fields: [
            .ref("center", "position", doc: "The point looked at.",
                 read: { r, node, path, c in if let p = r.read(position, node, path) { c.center = p } },
                 write: { .some(position.write($0.center)) }),
            .number("heading", \.heading, in: -360...360, unit: "degrees", initial: Camera(center: LatLngAltitude(latitude: 0, longitude: 0)),
                    doc: "Clockwise from true north, the way the camera looks."),
            .number("tilt", \.tilt, in: 0...90, unit: "degrees", initial: Camera(center: LatLngAltitude(latitude: 0, longitude: 0)),
                    doc: "From straight down (0) to the horizon (90)."),
            .number("roll", \.roll, in: -360...360, unit: "degrees", initial: Camera(center: LatLngAltitude(latitude: 0, longitude: 0)),
                    doc: "About the view axis."),
            .number("range", \.range, in: 1...63_170_000, unit: "metres", initial: Camera(center: LatLngAltitude(latitude: 0, longitude: 0)),
                    doc: "From the eye to the centre."),
            .number("fieldOfView", \.fieldOfViewDegrees, in: 1...120, unit: "degrees", initial: Camera(center: LatLngAltitude(latitude: 0, longitude: 0)),
                    doc: "The vertical field of view."),
            .choice("altitudeMode", \.altitudeMode, initial: Camera(center: LatLngAltitude(latitude: 0, longitude: 0)),
                    doc: "How the centre's altitude is measured."),
        ])

    /// The map's `sun`: the light on terrain and buildings.
    struct Sun: Equatable { var azimuth = 315.0, altitude = 45.0 }

    static let sun = ObjectTable<Sun>(
        name: "sun", doc: "The light on terrain and buildings.", initial: Sun(),
        fields: [
            .number("azimuth", \.azimuth, in: 0...360, unit: "degrees", initial: Sun(), always: true, doc: "Clockwise from north, where the light comes from."),
            .number("altitude", \.altitude, in: 0...90, unit: "degrees", initial: Sun(), always: true, doc: "Above the horizon."),
        ])

    static let all: [(name: String, schema: JSONValue, markdown: String)] = [
        ("", scene.schema, scene.markdown), (output.name, output.schema, output.markdown), (position.name, position.schema, position.markdown),
        (camera.name, camera.schema, camera.markdown), (sun.name, sun.schema, sun.markdown),
    ]
}

extension Camera {
    /// The field of view in degrees, as scene files write it.
    var fieldOfViewDegrees: Double {
        get { fieldOfView.degrees }
        set { fieldOfView = .degrees(newValue) }
    }
}

extension Reader {
    /// `"hosts"`: host names the scene's URLs may reach.
    mutating func hosts(_ node: JSONNode, _ path: String) -> [String]? {
        guard let hosts = array(node, path, max: Scene.maxHosts) else { return nil }
        return hosts.enumerated().compactMap { i, node in
            guard let host = string(node, "\(path)[\(i)]") else { return nil }
            let allowed = host.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".-:[]*".unicodeScalars.contains($0)) }
            guard !host.isEmpty, host.utf8.count <= 253, allowed else {
                report(node, "\(path)[\(i)]", "expected a host name such as \"tiles.example.org\" (\".example.org\" for its subdomains too), found \"\(shown(host))\"")
                return nil
            }
            return host.lowercased()
        }
    }

    /// `"layoutSize"`: both sides, in points.
    mutating func layoutSize(_ node: JSONNode, _ path: String, _ options: OutputOptions) -> LayoutSize? {
        guard let o = object(node, path, allowed: ["width", "height"]) else { return options.layoutSize }
        let side = 1...Pixmap.Limits.maxDimension
        if o["width"] == nil || o["height"] == nil { report(node, path, "needs both \"width\" and \"height\" (points)") }
        return LayoutSize(width: integer(o["width"], path + ".width", in: side, default: options.width, unit: " of points"),
                          height: integer(o["height"], path + ".height", in: side, default: options.height, unit: " of points"))
    }
}
