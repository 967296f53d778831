// GET /staticmap: Google Static Maps parameters as a scene. The map (basemap, imagery,
// terrain) is the server's base scene (`--staticmap SCENE.json`); the request sets the camera
// (center and zoom as Web Mercator zoom levels of 256-point tiles, seen straight down unless
// Terrapin's `heading`/`tilt` say otherwise), the size, scale, map type and format, and adds
// markers and paths. Without center or zoom the view fits every marker, path and `visible`
// location, as Google's does. The map lies on Web Mercator's plane (`"earth": "mercator"`), so
// straight down it is a web map's image of the same zoom, unless the base scene says "sphere"
// or has terrain.
import Terrapin
#if canImport(Glibc)
import Glibc
#endif

public struct StaticMapError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The parameter at fault (`markers`, `path`, …).
    public let parameter: String
    public let message: String
    public var description: String { "\(parameter): \(message)" }
}

public struct StaticMapRequest: Equatable, Sendable {
    public struct MarkerGroup: Equatable, Sendable {
        public var color = Color(red: 0.918, green: 0.263, blue: 0.208)   // Google's red pin
        public var label: String?
        public var size = "normal"
        public var locations: [LatLngAltitude] = []
    }
    public struct Path: Equatable, Sendable {
        public var color = Color(red: 0, green: 0, blue: 1, opacity: 0.5)
        public var weight = 5.0
        public var fillColor: Color?
        public var geodesic = false
        public var points: [LatLngAltitude] = []
    }

    public var center: LatLngAltitude?
    public var zoom: Double?
    public var width = 640, height = 640
    public var scale = 1
    public var mode = MapMode.roadmap
    public var format: ImageFormat.Kind?
    /// `format=json`: the scene itself, not its image.
    public var wantsScene = false
    public var heading = 0.0, tilt = 0.0
    public var markers: [MarkerGroup] = []
    public var paths: [Path] = []
    public var visible: [LatLngAltitude] = []

    /// Parameters accepted and ignored: credentials and localisation of Google's service.
    public static let ignored: Set<String> = ["key", "signature", "language", "region", "map_id", "client", "channel"]
    public static let known = ["center", "zoom", "size", "scale", "maptype", "format", "markers", "path", "visible", "heading", "tilt"]

    /// Reads the query; every problem is a StaticMapError naming its parameter.
    public init(arguments: [(key: String, value: String)]) throws(StaticMapError) {
        var seen: Set<String> = []
        var sizeGiven = false
        for (key, value) in arguments {
            if Self.ignored.contains(key) { continue }
            if key != "markers" && key != "path" && key != "visible" {
                guard seen.insert(key).inserted else { throw StaticMapError(parameter: key, message: "given twice") }
            }
            switch key {
            case "center":
                guard let p = Self.location(value) else {
                    throw StaticMapError(parameter: key, message: "expects LATITUDE,LONGITUDE in degrees, e.g. 40.714,-73.998 (addresses are not looked up); found '\(value)'")
                }
                center = p
            case "zoom":
                guard let z = Double(value), z.isFinite, (0...21).contains(z) else { throw StaticMapError(parameter: key, message: "expects a zoom level from 0 to 21; found '\(value)'") }
                zoom = z
            case "size":
                guard let size = pointSize(value) else {
                    throw StaticMapError(parameter: key, message: "expects WIDTHxHEIGHT in points, e.g. 600x400; found '\(value)'")
                }
                (width, height) = size
                sizeGiven = true
            case "scale":
                guard let s = Int(value), OutputOptions.scales.contains(s) else { throw StaticMapError(parameter: key, message: "expects 1, 2, 3 or 4; found '\(value)'") }
                scale = s
            case "maptype":
                switch value {
                case "roadmap", "terrain": mode = .roadmap
                case "satellite": mode = .satellite
                case "hybrid": mode = .hybrid
                default: throw StaticMapError(parameter: key, message: "expects roadmap, satellite, hybrid or terrain; found '\(value)'")
                }
            case "format":
                switch value {
                case "png", "png8", "png32": format = .png
                case "jpg", "jpeg", "jpg-baseline": format = .jpeg
                case "webp": format = .webp
                case "json": wantsScene = true
                case "gif": throw StaticMapError(parameter: key, message: "GIF is not written; ask for png, jpg or webp")
                default: throw StaticMapError(parameter: key, message: "expects png, png8, png32, jpg, jpg-baseline, webp, or json for the scene; found '\(value)'")
                }
            case "heading":
                guard let d = Double(value), d.isFinite, (-360...360).contains(d) else { throw StaticMapError(parameter: key, message: "expects degrees from -360 to 360; found '\(value)'") }
                heading = d
            case "tilt":
                guard let d = Double(value), d.isFinite, (0...80).contains(d) else { throw StaticMapError(parameter: key, message: "expects degrees from 0 (straight down) to 80; found '\(value)'") }
                tilt = d
            case "markers": markers.append(try Self.markerGroup(value))
            case "path": paths.append(try Self.path(value))
            case "visible":
                for part in value.split(separator: "|") {
                    guard let p = Self.location(String(part)) else { throw StaticMapError(parameter: key, message: "expects LATITUDE,LONGITUDE locations separated by '|'; found '\(part)'") }
                    visible.append(p)
                }
            case "style":
                throw StaticMapError(parameter: key, message: "per-request styling is not supported; the server draws its base scene's basemap style")
            default:
                let guess = closest(to: key, in: Self.known)
                throw StaticMapError(parameter: key, message: "unknown parameter" + (guess.map { "; did you mean '\($0)'?" } ?? "") + " (parameters: " + Self.known.joined(separator: ", ") + ")")
            }
        }
        if !sizeGiven { throw StaticMapError(parameter: "size", message: "missing; give size=WIDTHxHEIGHT in points, e.g. size=600x400") }
        if center == nil || zoom == nil {
            if markers.allSatisfy({ $0.locations.isEmpty }) && paths.isEmpty && visible.isEmpty && (center == nil) {
                throw StaticMapError(parameter: "center", message: "missing; give center=LAT,LNG and zoom=Z, or markers, path or visible locations to fit the map to")
            }
        }
    }

    static func location(_ text: String) -> LatLngAltitude? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let lat = Double(parts[0].trimmingSpaces), let lng = Double(parts[1].trimmingSpaces),
              lat.isFinite, lng.isFinite, abs(lat) <= 85.06, abs(lng) <= 180 else { return nil }
        return LatLngAltitude(latitude: lat, longitude: lng)
    }

    /// 0xRRGGBB, 0xRRGGBBAA, or one of Google's colour names.
    static func color(_ text: String, parameter: String) throws(StaticMapError) -> Color {
        let names: [String: (Double, Double, Double)] = [
            "black": (0, 0, 0), "brown": (0.647, 0.165, 0.165), "green": (0, 0.502, 0), "purple": (0.502, 0, 0.502),
            "yellow": (1, 1, 0), "blue": (0, 0, 1), "gray": (0.502, 0.502, 0.502), "orange": (1, 0.647, 0),
            "red": (1, 0, 0), "white": (1, 1, 1),
        ]
        if let (r, g, b) = names[text] { return Color(red: r, green: g, blue: b) }
        let hex = text.hasPrefix("0x") || text.hasPrefix("0X") ? String(text.dropFirst(2)) : ""
        guard hex.count == 6 || hex.count == 8, let v = UInt32(hex, radix: 16) else {
            throw StaticMapError(parameter: parameter, message: "colors are 0xRRGGBB, 0xRRGGBBAA or one of black, brown, green, purple, yellow, blue, gray, orange, red, white; found '\(text)'")
        }
        let rgba = hex.count == 6 ? v << 8 | 0xFF : v
        return Color(red: Double(rgba >> 24) / 255, green: Double((rgba >> 16) & 0xFF) / 255, blue: Double((rgba >> 8) & 0xFF) / 255,
                     opacity: Double(rgba & 0xFF) / 255)
    }

    /// Each '|'-separated part of a markers or path value, in order: a location to `location`,
    /// `name:value` to `descriptor`; anything else is an error saying what `parameter` `expects`.
    static func items(_ parts: [String], parameter: String, expects: String, location: (LatLngAltitude) -> Void,
                      descriptor: (_ name: String, _ value: String) throws(StaticMapError) -> Void) throws(StaticMapError) {
        for part in parts {
            if let p = Self.location(part) { location(p); continue }
            guard let colon = part.firstIndex(of: ":") else { throw StaticMapError(parameter: parameter, message: "expects \(expects); found '\(part)'") }
            try descriptor(String(part[..<colon]), String(part[part.index(after: colon)...]))
        }
    }

    static func markerGroup(_ value: String) throws(StaticMapError) -> MarkerGroup {
        var group = MarkerGroup()
        try items(value.split(separator: "|", omittingEmptySubsequences: true).map(String.init), parameter: "markers",
                  expects: "style:value descriptors and LATITUDE,LONGITUDE locations separated by '|' (addresses are not looked up)",
                  location: { group.locations.append($0) }) { (name, v) throws(StaticMapError) in
            switch name {
            case "color": group.color = try color(v, parameter: "markers")
            case "label":
                guard v.count == 1, let c = v.uppercased().first, c.isASCII, c.isLetter || c.isNumber else {
                    throw StaticMapError(parameter: "markers", message: "label is one character from A-Z or 0-9; found '\(v)'")
                }
                group.label = String(c)
            case "size":
                guard ["tiny", "small", "mid", "normal"].contains(v) else { throw StaticMapError(parameter: "markers", message: "size is tiny, small, mid or normal; found '\(v)'") }
                group.size = v
            case "icon", "anchor", "scale":
                throw StaticMapError(parameter: "markers", message: "custom icons (\(name):) are not supported; use color, label and size, or POST a scene to /render")
            default:
                throw StaticMapError(parameter: "markers", message: "unknown descriptor '\(name)'; markers take color, label and size")
            }
        }
        guard !group.locations.isEmpty else { throw StaticMapError(parameter: "markers", message: "no location in '\(value)'") }
        return group
    }

    static func path(_ value: String) throws(StaticMapError) -> Path {
        var path = Path()
        // An encoded polyline may itself contain '|': "enc:" takes the rest of the value.
        var parts: [String] = []
        var rest = Substring(value)
        while !rest.isEmpty {
            if rest.hasPrefix("enc:") { parts.append(String(rest)); break }
            let bar = rest.firstIndex(of: "|") ?? rest.endIndex
            if bar > rest.startIndex { parts.append(String(rest[..<bar])) }
            rest = bar == rest.endIndex ? "" : rest[rest.index(after: bar)...]
        }
        try items(parts, parameter: "path", expects: "style:value descriptors, LATITUDE,LONGITUDE points and enc:POLYLINE separated by '|'",
                  location: { path.points.append($0) }) { (name, v) throws(StaticMapError) in
            switch name {
            case "color": path.color = try color(v, parameter: "path")
            case "fillcolor": path.fillColor = try color(v, parameter: "path")
            case "weight":
                guard let w = Double(v), w.isFinite, (0...200).contains(w) else { throw StaticMapError(parameter: "path", message: "weight is a width in points from 0 to 200; found '\(v)'") }
                path.weight = w
            case "geodesic":
                guard v == "true" || v == "false" else { throw StaticMapError(parameter: "path", message: "geodesic is true or false; found '\(v)'") }
                path.geodesic = v == "true"
            case "enc":
                guard let points = [LatLngAltitude](encodedPath: v, dimensions: .latLng), points.allSatisfy({ $0.isValid && abs($0.longitude) <= 180 }) else {
                    throw StaticMapError(parameter: "path", message: "'enc:' is not an encoded polyline")
                }
                path.points += points
            default:
                throw StaticMapError(parameter: "path", message: "unknown descriptor '\(name)'; paths take color, weight, fillcolor, geodesic and enc")
            }
        }
        guard path.points.count >= (path.fillColor == nil ? 2 : 3) else {
            throw StaticMapError(parameter: "path", message: path.fillColor == nil ? "a path needs at least two points" : "a filled path (fillcolor:) needs at least three points")
        }
        return path
    }

    /// Every location the view must show when it is fitted.
    var fitted: [LatLngAltitude] { markers.flatMap(\.locations) + paths.flatMap(\.points) + visible + (center.map { [$0] } ?? []) }

    /// The camera: center and zoom as given, else fitted (a margin of 8 % of the size each side,
    /// and room above for a pin); straight down unless heading and tilt say otherwise.
    public var camera: Camera {
        let points = fitted
        func mercator(_ p: LatLngAltitude) -> (x: Double, y: Double) { WebMercator.world(longitude: p.longitude, latitude: p.latitude) }
        let projected = points.map(mercator)
        var focus = center
        if focus == nil {
            let xs = projected.map(\.x), ys = projected.map(\.y)
            let x = (xs.min()! + xs.max()!) / 2, y = (ys.min()! + ys.max()!) / 2
            let latitude = WebMercator.latitude(worldY: y)
            focus = LatLngAltitude(latitude: latitude, longitude: x * 360 - 180)
        }
        var level = zoom
        if level == nil {
            let c = mercator(focus!)
            // Half-extents about the centre, in world units (the world is 1 wide).
            let dx = projected.map { abs($0.x - c.x) }.max() ?? 0, dy = projected.map { abs($0.y - c.y) }.max() ?? 0
            let pin = markers.isEmpty ? 0.0 : 40.0
            let usableX = Double(width) * 0.42, usableY = Double(height) * 0.42 - pin / 2
            var z = 21.0
            if dx > 0 { z = min(z, log2(usableX / (256 * dx))) }
            if dy > 0 { z = min(z, log2(max(1, usableY) / (256 * dy))) }
            // One place (or several at the same spot): zoom 15, as for a lone marker.
            level = dx == 0 && dy == 0 ? 15 : max(0, min(21, z.rounded(.down)))
        }
        let center = focus!
        // Points per metre on the ground at this zoom and latitude (256-point tiles).
        let pointsPerMetre = 256 * pow(2, level!) / (2 * .pi * 6_378_137 * cos(center.latitude * .pi / 180))
        let fov = Camera.defaultFieldOfView
        let focal = (Double(height) / 2) / tan(fov.degrees * .pi / 360)
        return Camera(center: center, heading: heading, tilt: tilt, range: focal / pointsPerMetre, fieldOfView: fov, altitudeMode: .clampToGround)
    }

    /// The markers and paths as scene JSON (`{"map": {"markers": …, "polylines": …, "polygons": …}}`):
    /// markers stand on the mesh (on a building's roof rather than hidden inside it), and paths
    /// are drawn where buildings hide them, as a flat static map shows both.
    public var overlay: JSONValue {
        func position(_ p: LatLngAltitude) -> JSONValue { .object([("latitude", .number(p.latitude)), ("longitude", .number(p.longitude))]) }
        func color(_ c: Color) -> JSONValue {
            func byte(_ v: Float) -> Int { Int((min(1, max(0, v)) * 255).rounded()) }
            let hex = [c.rgba.red, c.rgba.green, c.rgba.blue, c.rgba.alpha].map { v -> String in
                let h = String(byte(v), radix: 16, uppercase: true)
                return h.count == 1 ? "0" + h : h
            }.joined()
            return .string("#" + hex)
        }
        var markerItems: [JSONValue] = []
        for group in markers {
            let scale: Double = ["tiny": 0.5, "small": 0.65, "mid": 0.8][group.size] ?? 1
            var pin: [(String, JSONValue)] = [("background", color(group.color)), ("border", .string("white")), ("scale", .number(scale))]
            if let label = group.label, group.size == "normal" || group.size == "mid" {
                pin.append(("glyph", .object([("text", .string(label)), ("modifiers", .array([.object([("font", .object([("size", .number(13)), ("weight", .string("bold"))]))])]))])))
                pin.append(("glyphColor", .string("black")))
            }
            for location in group.locations {
                markerItems.append(.object([("position", position(location)), ("altitudeMode", .string("relativeToMesh")),
                                            ("content", .object([("pin", .object(pin))]))]))
            }
        }
        var polylines: [JSONValue] = [], polygons: [JSONValue] = []
        for path in paths {
            let points = JSONValue.array(path.points.map(position))
            if let fill = path.fillColor {
                polygons.append(.object([("path", points), ("style", .object([
                    ("fillColor", color(fill)), ("strokeColor", color(path.color)), ("strokeWidth", .number(path.weight)), ("geodesic", .bool(path.geodesic)),
                    ("drawsOccludedSegments", .bool(true)),
                ]))]))
            } else {
                polylines.append(.object([("path", points), ("stroke", .object([("color", color(path.color)), ("width", .number(path.weight))])),
                                          ("contour", .object([("geodesic", .bool(path.geodesic)), ("drawOccludedSegments", .bool(true))]))]))
            }
        }
        return .object([("map", .object([("markers", .array(markerItems)), ("polylines", .array(polylines)), ("polygons", .array(polygons))]))])
    }

    /// The scene to render: `base` (the server's map) with this request's camera, size, scale,
    /// map type, format and overlays.
    public func scene(base: SceneFile) throws(SceneError) -> SceneFile {
        let extra = try SceneDecoder.decode(Array(overlay.text.utf8), file: "<staticmap request>")
        var scene = base
        var map = scene.map ?? MapScene()
        map.mode = mode
        map.camera = camera
        map.flights = []
        // A static map is a web map: drawn on Web Mercator's plane, at the output's resolution,
        // unless the base scene names another Earth than the default or has terrain.
        if map.earth == .wgs84, map.terrain == nil { map.earth = .mercator }
        map.markers += extra.map?.markers ?? []
        map.polylines += extra.map?.polylines ?? []
        map.polygons += extra.map?.polygons ?? []
        scene.map = map
        scene.output.width = width
        scene.output.height = height
        scene.output.scale = scale
        if let format { scene.output.format = ImageFormat(format) }
        scene.time = 0
        return scene
    }
}

/// "WIDTHxHEIGHT" as positive whole numbers (points), nil otherwise.
func pointSize(_ text: String) -> (width: Int, height: Int)? {
    let parts = text.split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
    return (w, h)
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}
