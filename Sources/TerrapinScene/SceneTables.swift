// The tables of the scene objects (see SceneFields.swift): one row a field. The decoder, the
// encoder, the JSON Schema and docs/scene-fields.md all come from these rows.
import TerrapinIO
import TerrapinGeo
import TerrapinRaster
import TerrapinTerrain
import TerrapinTypography

enum SceneTables {
    /// The schema's pattern for a colour written in hex.
    static let hexColor = "^#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$"

    /// The file itself.
    static let scene = ObjectTable<SceneFile>(
        name: "", doc: "A Terrapin scene file: the output image and an optional map. Unknown keys are errors.",
        initial: SceneFile(),
        fields: [
            .custom("$schema", schema: .object([("type", .string("string"))]), type: "string",
                    doc: "The schema's URL, for editors; not read.", read: { r, node, path, _ in _ = r.string(node, path) }, write: { _ in nil }),
            .ref("output", "output", doc: "The image: its size, scale, background and compression.",
                 read: { r, node, path, scene in _ = r.read(output, node, path, into: &scene.output) },
                 write: { .some(output.write($0.output)) }),
            .number("time", \.time, in: 0...SceneFile.maxTime, unit: "seconds", initial: SceneFile(),
                    doc: "When the scene is drawn, from its start (camera flights and animations)."),
            .custom("hosts", schema: SceneSchema.fragment(##"{"type": "array", "maxItems": 64, "items": {"type": "string", "minLength": 1, "maxLength": 253, "pattern": "^[A-Za-z0-9.:\\[\\]*-]+$"}}"##),
                    type: "array of host names",
                    doc: "The hosts the scene's http(s) URLs may reach (\".example.org\" takes its subdomains too); the renderer's own list (--allow-host, serve's) still applies. Default: whatever the renderer allows.",
                    read: { r, node, path, scene in scene.hosts = r.hosts(node, path) },
                    write: { $0.hosts.map { .array($0.map { .string($0) }) } }),
            .ref("map", "map", doc: "The map: camera, terrain, imagery, basemap and content.",
                 read: { r, node, path, scene in scene.map = r.read(map, node, path) },
                 write: { $0.map.map(map.write) }),
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

    /// A map's list of items: read one by one (an item that fails is left out, its problems
    /// reported), written when not empty.
    static func list<Item: Sendable>(_ key: String, _ keyPath: WritableKeyPath<MapScene, [Item]> & Sendable, max: Int, schema: String, doc: String,
                                     read item: @escaping @Sendable (inout Reader, JSONNode, String) -> Item?,
                                     write: @escaping @Sendable (Item) -> JSONValue) -> Field<MapScene> {
        .custom(key, schema: SceneSchema.fragment(schema), type: "array (at most \(max))", doc: doc,
                read: { r, node, path, map in
                    for (i, element) in (r.array(node, path, max: max) ?? []).enumerated() {
                        if let value = item(&r, element, "\(path)[\(i)]") { map[keyPath: keyPath].append(value) }
                    }
                },
                write: { map in map[keyPath: keyPath].isEmpty ? nil : .array(map[keyPath: keyPath].map(write)) })
    }

    static let map = ObjectTable<MapScene>(
        name: "map", doc: "The map: its mode, camera, ground (terrain, imagery, a vector basemap) and content.",
        initial: MapScene(),
        fields: [
            .choice("mode", \.mode, initial: MapScene(), always: true, doc: "What the ground shows: imagery (satellite), a basemap over imagery (hybrid) or a basemap (roadmap)."),
            .ref("camera", "camera", doc: "Where the map is seen from; left out, the camera fits the markers.",
                 read: { r, node, path, map in map.camera = r.read(camera, node, path) }, write: { $0.camera.map(camera.write) }),
            .custom("cameraRestriction", schema: SceneSchema.fragment(##"{"type": "object", "additionalProperties": false, "properties": {"range": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "number", "minimum": 1, "maximum": 63170000}, "description": "[min, max] metres"}, "tilt": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "number", "minimum": 0, "maximum": 90}, "description": "[min, max] degrees"}, "heading": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "number", "minimum": 0, "maximum": 360}, "description": "[min, max] degrees"}, "bounds": {"type": "array", "minItems": 4, "maxItems": 4, "items": {"type": "number", "minimum": -180, "maximum": 180}, "description": "[west, south, east, north]: where the centre may be"}, "altitude": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "number", "minimum": -11000, "maximum": 63170000}, "description": "[min, max] metres above sea level for the eye (the SDK's altitude restriction)"}}}"##),
                    type: "{range, tilt, heading, bounds, altitude}",
                    doc: "Limits the camera however it is set (initial, fitted, flown, panned): each given component is clamped.",
                    read: { r, node, path, map in map.cameraRestriction = r.cameraRestriction(node, path) },
                    write: { $0.cameraRestriction.map(SceneEncoder.cameraRestriction) }),
            list("flights", \.flights, max: Reader.maxFlights, schema: ##"{"type": "array", "maxItems": 1000, "items": {"type": "object", "additionalProperties": false, "required": ["type", "camera"], "properties": {"type": {"enum": ["to", "around"]}, "camera": {"$ref": "#/$defs/camera"}, "duration": {"type": "number", "minimum": 0.001, "maximum": 86400, "description": "Seconds. Default: chosen by where the flight goes (to: 1.5 s + 0.5 s per doubling of distance and range, at most 10 s; around: 12 s a round)."}, "start": {"type": "number", "minimum": 0, "maximum": 86400, "description": "Seconds from the scene's start. Default 0."}, "rounds": {"type": "number", "minimum": -1000, "maximum": 1000, "description": "Turns of an \"around\" flight. Default 1."}}}}"##,
                 doc: "Camera flights, in order, evaluated at the scene's time: flyCameraTo (\"to\") and flyCameraAround (\"around\").",
                 read: { r, node, path in r.flight(node, path) }, write: SceneEncoder.flight),
            .ref("terrain", "terrain", doc: "Heights: a file, elevation tiles or inline samples.",
                 read: { r, node, path, map in map.terrain = r.read(terrain, node, path)?.spec }, write: { $0.terrain.map { terrain.write(TerrainMembers($0)) } }),
            .ref("imagery", "imagery", doc: "An image or raster tiles draped on the ground.",
                 read: { r, node, path, map in map.imagery = r.read(imagery, node, path)?.spec }, write: { $0.imagery.map { imagery.write(ImageryMembers($0)) } }),
            .ref("basemap", "basemap", doc: "A vector basemap drawn in roadmap and hybrid modes.",
                 read: { r, node, path, map in map.basemap = r.read(basemap, node, path) }, write: { $0.basemap.map(basemap.write) }),
            .custom("attribution", schema: SceneSchema.fragment(##"{"oneOf": [{"type": "string"}, {"const": false}, {"const": true}]}"##), type: "string or false",
                    doc: "The text drawn small in the bottom-right corner; by default the tile sources' own attribution; false draws none.",
                    read: { r, node, path, map in
                        switch node.value {
                        case .bool(false): map.attribution = ""
                        case .bool(true): break
                        case .string(let s): map.attribution = s
                        default: r.report(node, path, "expected a string (the text drawn in the bottom-right corner), or false to draw none")
                        }
                    },
                    write: { map in map.attribution.map { $0.isEmpty ? .bool(false) : .string($0) } }),
            .custom("locale", schema: SceneSchema.fragment(##"{"type": "string", "pattern": "^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8}){0,7}$"}"##), type: "BCP 47 tag",
                    doc: "The language of the map's text (e.g. ja, zh-Hant, ko): picks the regional forms of Han characters in markers and popovers, and the basemap's label names (name:ja where the tiles have it).",
                    read: { r, node, path, map in map.locale = r.languageTag(node, path) }, write: { $0.locale.map { .string($0) } }),
            .ref("sun", "sun", doc: "The light on terrain and buildings.",
                 read: { r, node, path, map in if let s = r.read(sun, node, path) { map.sun = [s.azimuth, s.altitude] } },
                 write: { $0.sun.map { sun.write(Sun(azimuth: $0[0], altitude: $0[1])) } }),
            .custom("occludedMarkers", schema: SceneSchema.fragment(##"{"oneOf": [{"const": "hidden"}, {"type": "object", "additionalProperties": false, "required": ["dimmed"], "properties": {"dimmed": {"type": "number", "minimum": 0, "maximum": 1}}}]}"##),
                    type: "\"hidden\" or {dimmed: opacity}", default: "\"hidden\"", doc: "Markers the ground hides: left out, or drawn at an opacity.",
                    read: { r, node, path, map in
                        if case .string(let s) = node.value, s == "hidden" {
                            map.dimmedOccludedOpacity = nil
                        } else if let d = r.object(node, path, allowed: ["dimmed"]) {
                            map.dimmedOccludedOpacity = r.number(d["dimmed"], path + ".dimmed", in: 0...1)
                        }
                    },
                    write: { map in map.dimmedOccludedOpacity.map { .object([("dimmed", .number($0))]) } }),
            .custom("earth", schema: SceneSchema.fragment(##"{"enum": ["wgs84", "sphere", "mercator"]}"##), type: "\"wgs84\" | \"sphere\" | \"mercator\"", default: "\"wgs84\"",
                    doc: "The figure of the Earth: WGS84 (as GPS and the SDK), Web Mercator's sphere (as web maps: a straight-down view then matches a web map of the same zoom pixel for pixel), or Web Mercator's flat plane (a web map's image at any pitch and bearing, its basemap drawn at the output's resolution; no terrain).",
                    read: { r, node, path, map in
                        map.earth = r.choice(node, path, default: EarthName.wgs84).ellipsoid
                        if map.earth.isPlane, map.terrain != nil {
                            r.report(node, path, "\"mercator\" is Web Mercator's flat plane, and terrain does not lie on it: use \"sphere\" (a web map's Earth, as a globe) or \"wgs84\" with \"terrain\", or leave \"terrain\" out")
                        }
                    },
                    write: { $0.earth == .wgs84 ? nil : .string($0.earth.description) }),
            list("markers", \.markers, max: Reader.maxMarkers, schema: ##"{"type": "array", "maxItems": 100000, "items": {"$ref": "#/$defs/anyMarker"}}"##,
                 doc: "Markers (views or pins), Marker3Ds and standalone popovers.", read: { r, node, path in r.marker(node, path) }, write: SceneEncoder.marker),
            list("polylines", \.polylines, max: Reader.maxShapes, schema: ##"{"type": "array", "maxItems": 10000, "items": {"$ref": "#/$defs/polyline"}}"##,
                 doc: "Lines on or above the ground.", read: { r, node, path in r.polyline(node, path) }, write: SceneEncoder.polyline),
            list("polygons", \.polygons, max: Reader.maxShapes, schema: ##"{"type": "array", "maxItems": 10000, "items": {"$ref": "#/$defs/polygon"}}"##,
                 doc: "Areas on or above the ground, with holes.", read: { r, node, path in r.polygon(node, path) }, write: SceneEncoder.polygon),
            list("geojson", \.geojson, max: 100, schema: ##"{"type": "array", "maxItems": 100, "items": {"type": "object", "additionalProperties": false, "required": ["file"], "properties": {"file": {"type": "string"}, "style": {"type": "object", "additionalProperties": false, "properties": {"stroke": {"$ref": "#/$defs/color"}, "stroke-width": {"type": "number", "minimum": 0, "maximum": 1000}, "stroke-opacity": {"type": "number", "minimum": 0, "maximum": 1}, "fill": {"$ref": "#/$defs/color"}, "fill-opacity": {"type": "number", "minimum": 0, "maximum": 1}, "marker-color": {"$ref": "#/$defs/color"}}}}}}"##,
                 doc: "GeoJSON files (RFC 7946) drawn as polylines, polygons and markers, styled by their simplestyle-spec properties over these defaults.",
                 read: { r, node, path in r.geojson(node, path) }, write: SceneEncoder.geojson),
            list("models", \.models, max: Reader.maxModels, schema: ##"{"type": "array", "maxItems": 1000, "items": {"$ref": "#/$defs/model"}}"##,
                 doc: "glTF 2.0 models.", read: { r, node, path in r.model(node, path) }, write: SceneEncoder.model),
            list("buildings", \.buildings, max: BuiltGround.maxBuildings, schema: ##"{"type": "array", "maxItems": 10000, "items": {"$ref": "#/$defs/building"}}"##,
                 doc: "Extruded footprints.", read: { r, node, path in r.building(node, path) }, write: SceneEncoder.building),
            list("labels", \.labels, max: BasemapLabel.maxCount, schema: ##"{"type": "array", "maxItems": 10000, "items": {"type": "object", "additionalProperties": false, "required": ["name", "position"], "properties": {"name": {"type": "string", "maxLength": 10000}, "position": {"$ref": "#/$defs/position"}, "importance": {"type": "integer", "minimum": 0, "maximum": 3, "description": "0 small … 3 large. Default 1."}}}}"##,
                 doc: "Basemap place names, shown in hybrid and roadmap modes; the lowest priority in collision.",
                 read: { r, node, path in r.label(node, path) }, write: SceneEncoder.label),
        ])

    static let basemap = ObjectTable<BasemapSpec>(
        name: "basemap", doc: "A vector basemap drawn in roadmap and hybrid modes: Mapbox Vector Tiles and a MapLibre style (default: the mode's built-in style, for whichever schema the tiles follow).",
        initial: BasemapSpec(tiles: ""),
        required: ["tiles"],
        requiredMessage: "a basemap needs \"tiles\": a .pmtiles or .mbtiles archive (or an XYZ template) of vector tiles",
        fields: [
            .custom("tiles", schema: .object([("type", .string("string"))]), type: "file or URL",
                    doc: "Vector tiles: a .pmtiles or .mbtiles archive, or an XYZ template such as tiles/{z}/{x}/{y}.pbf; or an http(s) URL of a .pmtiles archive (read by ranges), an XYZ template or a TileJSON document.",
                    read: { r, node, path, b in if let f = r.fileName(node, path) { b.tiles = f } }, write: { .string($0.tiles) }),
            .custom("style", schema: .object([("type", .string("string"))]), type: "file, URL or built-in name",
                    doc: "A MapLibre style JSON file (its vector source without a url reads \"tiles\"), or a built-in style: \"roadmap\", \"light\", \"dark\" or \"hybrid\", drawn for the tiles' schema.",
                    read: { r, node, path, b in b.style = r.fileName(node, path) }, write: { $0.style.map { .string($0) } }),
            .custom("featureState", schema: SceneSchema.fragment(##"{"type": "array", "maxItems": 100000, "items": {"type": "object", "additionalProperties": false, "required": ["source", "id", "state"], "properties": {"source": {"type": "string"}, "sourceLayer": {"type": "string"}, "id": {"type": ["string", "number"]}, "state": {"type": "object"}}}}"##),
                    type: "array of {source, sourceLayer, id, state}",
                    doc: "Features' states, read by the style's [\"feature-state\", key] expressions, as MapLibre's setFeatureState sets them: the source's name, the source layer (vector tiles), the feature's id (or its promoteId property's value) and the state's keys and values. Later entries for the same feature merge into earlier ones.",
                    read: { r, node, path, b in b.featureStates = r.featureStates(node, path) }, write: SceneEncoder.featureStates),
            .custom("images", schema: SceneSchema.fragment(##"{"type": "object", "maxProperties": 1000, "additionalProperties": {"type": "object", "additionalProperties": false, "required": ["file"], "properties": {"file": {"type": "string"}, "pixelRatio": {"type": "number", "minimum": 0.25, "maximum": 8}, "sdf": {"type": "boolean"}}}}"##),
                    type: "object of name → {file, pixelRatio, sdf}",
                    doc: "Images added to the style's sprite, as MapLibre's addImage adds them: each name an icon or pattern the style's icon-image, fill-pattern, line-pattern or background-pattern can name (replacing the sprite's own of that name), from a PNG, JPEG or WebP file of at most 2048² pixels, at its pixel ratio (image pixels per style pixel, 0.25 to 8, default 1), a signed distance field coloured by icon-color when sdf is true.",
                    read: { r, node, path, b in b.images = r.addedImages(node, path) }, write: SceneEncoder.addedImages),
        ],
        check: nil)

    static let all: [(name: String, schema: JSONValue, markdown: String)] = [
        ("", scene.schema, scene.markdown), (output.name, output.schema, output.markdown), (map.name, map.schema, map.markdown),
        (position.name, position.schema, position.markdown), (camera.name, camera.schema, camera.markdown),
        (terrain.name, terrain.schema, terrain.markdown), (imagery.name, imagery.schema, imagery.markdown), (basemap.name, basemap.schema, basemap.markdown),
        (sun.name, sun.schema, sun.markdown), (model.name, model.schema, model.markdown), (orientation.name, orientation.schema, orientation.markdown),
        (building.name, building.schema, building.markdown),
        (polyline.name, polyline.schema, polyline.markdown), (polylineStroke.name, polylineStroke.schema, polylineStroke.markdown),
        (polylineContour.name, polylineContour.schema, polylineContour.markdown),
        (polygon.name, polygon.schema, polygon.markdown), (polygonStyle.name, polygonStyle.schema, polygonStyle.markdown),
        (marker.name, marker.schema, marker.markdown), (anchor.name, anchor.schema, anchor.markdown), (marker3D.name, marker3D.schema, marker3D.markdown),
        (popover.name, popover.schema, popover.markdown), (standalonePopover.name, standalonePopover.schema, standalonePopover.markdown),
        (pin.name, pin.schema, pin.markdown), (animation.name, animation.schema, animation.markdown),
        (appearAnimation.name, appearAnimation.schema, appearAnimation.markdown),
        (view.name, view.schema, view.markdown), (image.name, image.schema, image.markdown), (shapeStyle.name, shapeStyle.schema, shapeStyle.markdown),
        (roundedRectangle.name, roundedRectangle.schema, roundedRectangle.markdown), (spacer.name, spacer.schema, spacer.markdown),
        (vstack.name, vstack.schema, vstack.markdown), (hstack.name, hstack.schema, hstack.markdown), (zstack.name, zstack.schema, zstack.markdown),
        (modifier.name, modifier.schema, modifier.markdown),
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
        guard let hosts = array(node, path, max: SceneFile.maxHosts) else { return nil }
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
