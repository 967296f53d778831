// JSON → MapScene: the "map" member of a scene file. Every problem is collected with its path.
import TerrapinGeo
import TerrapinTerrain
import TerrapinTypography
import TerrapinViews

extension Reader {
    // MARK: - Scalars

    mutating func number(_ node: JSONNode?, _ path: String, in range: ClosedRange<Double>, unit: String = "") -> Double? {
        guard let node else { return nil }
        guard case .number(let n) = node.value else {
            report(node, path, "expected a number\(unit) from \(fmt(range.lowerBound)) to \(fmt(range.upperBound)), found \(node.typeDescription)")
            return nil
        }
        guard n.isFinite, range.contains(n) else {
            report(node, path, "expected a number\(unit) from \(fmt(range.lowerBound)) to \(fmt(range.upperBound)), found \(fmt(n))")
            return nil
        }
        return n
    }

    mutating func bool(_ node: JSONNode?, _ path: String) -> Bool? {
        guard let node else { return nil }
        guard case .bool(let b) = node.value else {
            report(node, path, "expected true or false, found \(node.typeDescription)")
            return nil
        }
        return b
    }

    mutating func array(_ node: JSONNode?, _ path: String, max: Int) -> [JSONNode]? {
        guard let node else { return nil }
        guard case .array(let items) = node.value else {
            report(node, path, "expected an array, found \(node.typeDescription)")
            return nil
        }
        guard items.count <= max else {
            report(node, path, "at most \(max) items are allowed, found \(items.count)")
            return nil
        }
        return items
    }

    /// "#RRGGBB", "#RRGGBBAA" or a system colour name ("blue", "white", …).
    mutating func viewColor(_ node: JSONNode?, _ path: String) -> Color? {
        guard let node, let text = string(node, path) else { return nil }
        if let c = Color.named[text] ?? Color(hex: text) { return c }
        let hint = closest(to: text, in: Array(Color.named.keys).sorted()).map { "; did you mean \"\($0)\"?" } ?? ""
        report(node, path, "expected a colour as \"#RRGGBB\", \"#RRGGBBAA\" or a name (\(Color.named.keys.sorted().joined(separator: ", "))), found \"\(text)\"" + hint)
        return nil
    }

    private func fmt(_ n: Double) -> String {
        if n.isNaN { return "NaN" }
        if n.isInfinite { return n < 0 ? "-infinity" : "infinity" }
        return n.rounded() == n && abs(n) < 1e15 ? String(Int(n)) : String(n)
    }

    // MARK: - Map

    static let maxMarkers = 100_000
    /// Characters (Unicode scalars) in a text, label or accessibility label.
    static let maxTextLength = 10_000
    static let maxChildren = 1_000

    mutating func mapScene(_ node: JSONNode, _ path: String) -> MapScene? {
        guard let m = object(node, path, allowed: ["mode", "camera", "cameraRestriction", "flights", "terrain", "imagery", "sun", "occludedMarkers", "markers", "buildings", "labels"]) else { return nil }
        var map = MapScene()
        map.mode = choice(m["mode"], path + ".mode", default: map.mode)
        if let c = m["camera"] { map.camera = camera(c, path + ".camera") }
        if let t = m["terrain"] { map.terrain = terrain(t, path + ".terrain") }
        if let i = m["imagery"] { map.imagery = imagery(i, path + ".imagery") }
        if let r = m["cameraRestriction"] { map.cameraRestriction = cameraRestriction(r, path + ".cameraRestriction") }
        for (i, item) in (array(m["flights"], path + ".flights", max: Self.maxFlights) ?? []).enumerated() {
            if let flight = flight(item, path + ".flights[\(i)]") { map.flights.append(flight) }
        }
        if let s = m["sun"], let sun = object(s, path + ".sun", allowed: ["azimuth", "altitude"]) {
            let azimuth = sun["azimuth"] == nil ? 315 : number(sun["azimuth"], path + ".sun.azimuth", in: 0...360, unit: " of degrees")
            let altitude = sun["altitude"] == nil ? 45 : number(sun["altitude"], path + ".sun.altitude", in: 0...90, unit: " of degrees")
            if let azimuth, let altitude { map.sun = [azimuth, altitude] }
        }
        if let o = m["occludedMarkers"] {
            if case .string(let s) = o.value, s == "hidden" {
                map.dimmedOccludedOpacity = nil
            } else if let d = object(o, path + ".occludedMarkers", allowed: ["dimmed"]) {
                map.dimmedOccludedOpacity = number(d["dimmed"], path + ".occludedMarkers.dimmed", in: 0...1)
            }
        }
        for (i, item) in (array(m["markers"], path + ".markers", max: Self.maxMarkers) ?? []).enumerated() {
            if let marker = marker(item, path + ".markers[\(i)]") { map.markers.append(marker) }
        }
        for (i, item) in (array(m["buildings"], path + ".buildings", max: BuiltGround.maxBuildings) ?? []).enumerated() {
            if let building = building(item, path + ".buildings[\(i)]") { map.buildings.append(building) }
        }
        for (i, item) in (array(m["labels"], path + ".labels", max: BasemapLabel.maxCount) ?? []).enumerated() {
            let p = path + ".labels[\(i)]"
            guard let l = object(item, p, allowed: ["name", "position", "importance"]) else { continue }
            guard l["name"] != nil, l["position"] != nil else {
                report(item, p, "a label needs a \"name\" and a \"position\"")
                continue
            }
            guard let name = text(l["name"], p + ".name"), let position = position(l["position"], p + ".position") else { continue }
            map.labels.append(BasemapLabel(name, position: position, importance: integer(l["importance"], p + ".importance", in: 0...3, default: 1)))
        }
        return map
    }

    mutating func building(_ node: JSONNode, _ path: String) -> BuildingSpec? {
        guard let m = object(node, path, allowed: ["footprint", "base", "roof", "color"]) else { return nil }
        guard m["footprint"] != nil, m["roof"] != nil else {
            report(node, path, "a building needs a \"footprint\" (at least 3 positions) and a \"roof\" height in metres")
            return nil
        }
        let points = array(m["footprint"], path + ".footprint", max: Building.maxVertices) ?? []
        var footprint: [LatLngAltitude] = []
        for (i, p) in points.enumerated() { if let position = position(p, path + ".footprint[\(i)]") { footprint.append(position) } }
        guard footprint.count == points.count else { return nil }
        guard footprint.count >= 3 else {
            report(m["footprint"]!, path + ".footprint", "a footprint needs at least 3 positions, found \(footprint.count)")
            return nil
        }
        guard let roof = number(m["roof"], path + ".roof", in: 0.1...10_000, unit: " of metres") else { return nil }
        let base = number(m["base"], path + ".base", in: 0...10_000, unit: " of metres") ?? 0
        guard base < roof else {
            func metres(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
            report(m["base"]!, path + ".base", "the base (\(metres(base)) m) must be below the roof (\(metres(roof)) m)")
            return nil
        }
        var spec = BuildingSpec(footprint: footprint, roof: roof)
        spec.base = base
        spec.color = color(m["color"], path + ".color", default: spec.color)
        return spec
    }

    mutating func position(_ node: JSONNode?, _ path: String) -> LatLngAltitude? {
        guard let node else { return nil }
        guard let m = object(node, path, allowed: ["latitude", "longitude", "altitude"]) else { return nil }
        guard m["latitude"] != nil, m["longitude"] != nil else {
            report(node, path, "a position needs \"latitude\" and \"longitude\" (degrees; \"altitude\" in metres is optional)")
            return nil
        }
        guard let lat = number(m["latitude"], path + ".latitude", in: -90...90, unit: " of degrees"),
              let lng = number(m["longitude"], path + ".longitude", in: -180...180, unit: " of degrees") else { return nil }
        let alt = number(m["altitude"], path + ".altitude", in: -20_000...100_000_000, unit: " of metres") ?? 0
        return LatLngAltitude(latitude: lat, longitude: lng, altitude: alt)
    }

    mutating func camera(_ node: JSONNode, _ path: String) -> Camera? {
        guard let m = object(node, path, allowed: ["center", "heading", "tilt", "roll", "range", "fieldOfView", "altitudeMode"]) else { return nil }
        guard let center = position(m["center"], path + ".center") else {
            if m["center"] == nil { report(node, path, "a camera needs a \"center\" position (leave \"camera\" out to fit the markers)") }
            return nil
        }
        var camera = Camera(center: center)
        if let h = number(m["heading"], path + ".heading", in: -360...360, unit: " of degrees") { camera.heading = h }
        if let t = number(m["tilt"], path + ".tilt", in: 0...90, unit: " of degrees") { camera.tilt = t }
        if let r = number(m["roll"], path + ".roll", in: -360...360, unit: " of degrees") { camera.roll = r }
        if let r = number(m["range"], path + ".range", in: 1...63_170_000, unit: " of metres") { camera.range = r }
        if let f = number(m["fieldOfView"], path + ".fieldOfView", in: 1...120, unit: " of degrees") { camera.fieldOfView = f }
        camera.altitudeMode = choice(m["altitudeMode"], path + ".altitudeMode", default: camera.altitudeMode)
        return Camera(center: camera.center, heading: camera.heading, tilt: camera.tilt, roll: camera.roll, range: camera.range,
                      fieldOfView: camera.fieldOfView, altitudeMode: camera.altitudeMode)
    }

    mutating func terrain(_ node: JSONNode, _ path: String) -> TerrainSpec? {
        guard let m = object(node, path, allowed: ["file", "bounds", "exaggeration", "columns", "rows", "samples"]) else { return nil }
        if m["samples"] != nil || m["columns"] != nil || m["rows"] != nil { return inlineTerrain(m, node, path) }
        guard let file = string(m["file"], path + ".file") else {
            if m["file"] == nil { report(node, path, "terrain needs a \"file\" (.asc, .hgt, or a Terrarium .png with \"bounds\") or inline \"samples\"") }
            return nil
        }
        var spec = TerrainSpec(file: file)
        if let b = array(m["bounds"], path + ".bounds", max: 4) {
            let values = b.enumerated().compactMap { number($1, path + ".bounds[\($0)]", in: -180...180, unit: " of degrees") }
            if values.count == 4, values[0] < values[2], values[1] < values[3] {
                spec.bounds = values
            } else {
                report(m["bounds"], path + ".bounds", "expected [west, south, east, north] in degrees with west < east and south < north")
            }
        } else if file.lowercased().hasSuffix(".png") {
            report(m["file"], path + ".file", "a Terrarium PNG needs \"bounds\": [west, south, east, north]")
        }
        if let e = number(m["exaggeration"], path + ".exaggeration", in: 0...100) { spec.exaggeration = e }
        return spec
    }

    static let maxFlights = 1_000

    /// `{"range": [min, max], "tilt": [min, max], "heading": [min, max], "bounds": [w, s, e, n]}`.
    mutating func cameraRestriction(_ node: JSONNode, _ path: String) -> CameraRestriction? {
        guard let m = object(node, path, allowed: ["range", "tilt", "heading", "bounds"]) else { return nil }
        func limits(_ key: String, _ allowed: ClosedRange<Double>, _ unit: String) -> ClosedRange<Double>? {
            guard let items = array(m[key], path + "." + key, max: 2) else { return nil }
            let values = items.enumerated().compactMap { number($1, path + ".\(key)[\($0)]", in: allowed, unit: unit) }
            guard values.count == 2, values[0] <= values[1] else {
                if values.count == items.count { report(m[key], path + "." + key, "expected [min, max] with min ≤ max") }
                return nil
            }
            return values[0]...values[1]
        }
        let restriction = CameraRestriction(range: limits("range", 1...63_170_000, " of metres"), tilt: limits("tilt", 0...90, " of degrees"),
                                            heading: limits("heading", 0...360, " of degrees"))
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

    /// `{"type": "to" | "around", "camera": {…}, "duration": s, "start": s, "rounds": n}`.
    mutating func flight(_ node: JSONNode, _ path: String) -> CameraFlight? {
        guard let m = object(node, path, allowed: ["type", "camera", "duration", "start", "rounds"]) else { return nil }
        guard m["type"] != nil, m["camera"] != nil, m["duration"] != nil else {
            report(node, path, "a flight needs a \"type\" (\"to\" or \"around\"), a \"camera\" and a \"duration\" in seconds")
            return nil
        }
        let type: FlightType = choice(m["type"], path + ".type", default: .to)
        let view = m["camera"].map { self.camera($0, path + ".camera") } ?? nil
        let duration = number(m["duration"], path + ".duration", in: 0.001...Scene.maxTime, unit: " of seconds")
        let start = m["start"] == nil ? 0 : number(m["start"], path + ".start", in: 0...Scene.maxTime, unit: " of seconds")
        if type == .to, m["rounds"] != nil { report(m["rounds"], path + ".rounds", "\"rounds\" belongs to \"around\" flights") }
        let rounds = m["rounds"] == nil ? 1 : number(m["rounds"], path + ".rounds", in: -1000...1000)
        guard let view, let duration, let start, let rounds else { return nil }
        return type == .to ? .to(view, duration: duration, start: start) : .around(view, duration: duration, rounds: rounds, start: start)
    }

    mutating func imagery(_ node: JSONNode, _ path: String) -> ImagerySpec? {
        guard let m = object(node, path, allowed: ["file", "bounds", "projection", "shading"]) else { return nil }
        guard m["file"] != nil, m["bounds"] != nil else {
            report(node, path, "imagery needs a \"file\" (a PNG) and its \"bounds\": [west, south, east, north]")
            return nil
        }
        guard let file = string(m["file"], path + ".file"), let b = array(m["bounds"], path + ".bounds", max: 4) else { return nil }
        let values = b.enumerated().compactMap { number($1, path + ".bounds[\($0)]", in: -180...180, unit: " of degrees") }
        guard values.count == 4 else {
            if values.count == b.count { report(m["bounds"], path + ".bounds", "expected four numbers: [west, south, east, north]") }
            return nil
        }
        var spec = ImagerySpec(file: file, bounds: values)
        spec.projection = choice(m["projection"], path + ".projection", default: .geographic)
        let maxLatitude = spec.projection == .webMercator ? 85.051_128_78 : 90
        if !(values[1] < values[3]) || values[0] == values[2] || abs(values[1]) > maxLatitude || abs(values[3]) > maxLatitude {
            report(m["bounds"], path + ".bounds", "expected [west, south, east, north] with south < north" + (spec.projection == .webMercator ? " within ±85.0511° (Web Mercator)" : "")
                   + " and west ≠ east (west > east crosses the antimeridian)")
            return nil
        }
        if let s = number(m["shading"], path + ".shading", in: 0...1) { spec.shading = s }
        return spec
    }

    /// `{"columns": c, "rows": r, "bounds": [w, s, e, n], "samples": [c × r metres, north row first]}`.
    mutating func inlineTerrain(_ m: [String: JSONNode], _ node: JSONNode, _ path: String) -> TerrainSpec? {
        guard m["file"] == nil else {
            report(m["file"], path + ".file", "terrain has either a \"file\" or inline \"samples\", not both")
            return nil
        }
        guard m["columns"] != nil, m["rows"] != nil, m["samples"] != nil, m["bounds"] != nil else {
            report(node, path, "inline terrain needs \"columns\", \"rows\", \"bounds\": [west, south, east, north] and \"samples\"")
            return nil
        }
        let columns = integer(m["columns"], path + ".columns", in: 2...HeightGrid.maxSamples, default: 0)
        let rows = integer(m["rows"], path + ".rows", in: 2...HeightGrid.maxSamples, default: 0)
        let bounds = (array(m["bounds"], path + ".bounds", max: 4) ?? []).enumerated().compactMap { number($1, path + ".bounds[\($0)]", in: -180...180, unit: " of degrees") }
        guard bounds.count == 4, bounds[0] < bounds[2], bounds[1] < bounds[3] else {
            report(m["bounds"], path + ".bounds", "expected [west, south, east, north] in degrees with west < east and south < north")
            return nil
        }
        guard columns >= 2, rows >= 2, let items = array(m["samples"], path + ".samples", max: HeightGrid.maxSamples) else { return nil }
        guard items.count == columns * rows else {
            report(m["samples"], path + ".samples", "expected columns × rows = \(columns * rows) samples, found \(items.count)")
            return nil
        }
        var samples: [Float] = []
        samples.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard let v = number(item, path + ".samples[\(i)]", in: -100_000...100_000, unit: " of metres") else { return nil }
            samples.append(Float(v))
        }
        var spec = TerrainSpec(file: "")
        spec.inline = InlineGrid(columns: columns, rows: rows, bounds: bounds, samples: samples)
        if let e = number(m["exaggeration"], path + ".exaggeration", in: 0...100) { spec.exaggeration = e }
        return spec
    }

    // MARK: - Markers

    static let markerKeys = ["type", "position", "altitudeMode", "collisionBehavior", "collisionPriority", "zIndex", "anchor", "content", "popover", "onTap"]
    static let marker3DKeys = ["type", "position", "altitudeMode", "collisionBehavior", "zIndex", "extruded", "drawsWhenOccluded", "sizePreserved", "label", "style"]
    static let popoverKeys = ["isOpen", "autoClose", "autoPan", "padding", "backgroundColor", "cornerRadius", "animation", "content"]
    /// (No "animation": nothing in a scene file opens a standalone popover.)
    static let standalonePopoverKeys = ["type", "position", "altitudeMode", "offset"] + popoverKeys.filter { $0 != "animation" }

    mutating func marker(_ node: JSONNode, _ path: String) -> MarkerSpec? {
        var kind = MarkerSpec.Kind.marker
        if case .object(let members) = node.value, let t = members.first(where: { $0.key == "type" }) {
            kind = choice(t.value, path + ".type", default: .marker)
        }
        let allowed = switch kind {
        case .marker: Self.markerKeys
        case .marker3D: Self.marker3DKeys
        case .popover: Self.standalonePopoverKeys
        }
        guard let m = object(node, path, allowed: allowed) else { return nil }
        guard let position = position(m["position"], path + ".position") else {
            if m["position"] == nil { report(node, path, "a marker needs a \"position\"") }
            return nil
        }
        var spec = MarkerSpec(position: position)
        spec.kind = kind
        spec.altitudeMode = choice(m["altitudeMode"], path + ".altitudeMode", default: spec.altitudeMode)
        spec.collisionBehavior = choice(m["collisionBehavior"], path + ".collisionBehavior", default: spec.collisionBehavior)
        if m["collisionPriority"] != nil { spec.collisionPriority = integer(m["collisionPriority"], path + ".collisionPriority", in: -1_000_000...1_000_000, default: 0) }
        spec.zIndex = integer(m["zIndex"], path + ".zIndex", in: -1_000_000...1_000_000, default: 0)
        if let a = m["anchor"], let o = object(a, path + ".anchor", allowed: ["x", "y"]) {
            spec.anchor = UnitPoint(x: number(o["x"], path + ".anchor.x", in: -10...10) ?? 0.5, y: number(o["y"], path + ".anchor.y", in: -10...10) ?? 1)
        }
        switch kind {
        case .marker:
            if let c = m["content"] { spec.content = view(c, path + ".content", depth: 0) }
            if let p = m["popover"] { spec.popover = popover(p, path + ".popover") }
            if let t = m["onTap"] {
                if string(t, path + ".onTap") == "togglePopover" {
                    spec.tapTogglesPopover = true
                    if m["popover"] == nil { report(t, path + ".onTap", "\"togglePopover\" needs a \"popover\" on the marker") }
                } else if case .string(let s) = t.value {
                    report(t, path + ".onTap", "expected \"togglePopover\", found \"\(s)\"")
                }
            }
        case .popover:
            spec.popover = popoverFields(m, node, path)
            if let o = m["offset"], let offset = object(o, path + ".offset", allowed: ["width", "height"]) {
                spec.popoverOffset = Size(width: number(offset["width"], path + ".offset.width", in: -10_000...10_000) ?? 0,
                                          height: number(offset["height"], path + ".offset.height", in: -10_000...10_000) ?? 0)
            }
        case .marker3D:
            spec.extruded = bool(m["extruded"], path + ".extruded") ?? false
            spec.drawsWhenOccluded = bool(m["drawsWhenOccluded"], path + ".drawsWhenOccluded") ?? false
            spec.sizePreserved = bool(m["sizePreserved"], path + ".sizePreserved") ?? false
            spec.label = text(m["label"], path + ".label") ?? ""
            if let s = m["style"] { spec.style = marker3DStyle(s, path + ".style") }
        }
        return spec
    }

    mutating func marker3DStyle(_ node: JSONNode, _ path: String) -> MarkerSpec.Marker3DStyle {
        if case .string(let s) = node.value, s == "default" { return .default }
        guard let m = object(node, path, allowed: ["pin", "image", "view"]), m.count == 1 else {
            if case .object = node.value { report(node, path, "a style is \"default\" or an object with one of \"pin\", \"image\", \"view\"") }
            return .default
        }
        if let p = m["pin"] { return pin(p, path + ".pin", depth: 0).map { .pin($0) } ?? .default }
        if let i = m["image"] { return image(i, path + ".image").map { .image($0) } ?? .default }
        if let v = m["view"] { return view(v, path + ".view", depth: 0).map { .view($0) } ?? .default }
        return .default
    }

    /// A string shown as text: at most `maxTextLength` characters.
    mutating func text(_ node: JSONNode?, _ path: String) -> String? {
        guard let node, let text = string(node, path) else { return nil }
        let count = text.unicodeScalars.count
        guard count <= Self.maxTextLength else {
            report(node, path, "a text may have at most \(Self.maxTextLength) characters, this one has \(count); shorten it")
            return nil
        }
        return text
    }

    mutating func popover(_ node: JSONNode, _ path: String) -> PopoverSpec? {
        guard let m = object(node, path, allowed: Self.popoverKeys) else { return nil }
        return popoverFields(m, node, path)
    }

    /// A popover's fields, from a popover object or a standalone popover's marker entry.
    mutating func popoverFields(_ m: [String: JSONNode], _ node: JSONNode, _ path: String) -> PopoverSpec? {
        guard let c = m["content"] else {
            report(node, path, "a popover needs \"content\" (a view)")
            return nil
        }
        guard let content = view(c, path + ".content", depth: 0) else { return nil }
        var spec = PopoverSpec(content: content)
        spec.isOpen = bool(m["isOpen"], path + ".isOpen") ?? false
        spec.autoClose = bool(m["autoClose"], path + ".autoClose") ?? true
        spec.autoPan = bool(m["autoPan"], path + ".autoPan") ?? true
        spec.padding = number(m["padding"], path + ".padding", in: 0...200) ?? spec.padding
        spec.backgroundColor = viewColor(m["backgroundColor"], path + ".backgroundColor") ?? spec.backgroundColor
        spec.cornerRadius = number(m["cornerRadius"], path + ".cornerRadius", in: 0...200) ?? spec.cornerRadius
        if let a = m["animation"] { spec.animation = animation(a, path + ".animation", allowed: Self.animationKeys)?.0 }
        return spec
    }

    mutating func pin(_ node: JSONNode, _ path: String, depth: Int) -> PinSpec? {
        guard let m = object(node, path, allowed: ["background", "border", "glyphColor", "scale", "glyph"]) else { return nil }
        var spec = PinSpec()
        spec.background = viewColor(m["background"], path + ".background")
        spec.border = viewColor(m["border"], path + ".border")
        spec.glyphColor = viewColor(m["glyphColor"], path + ".glyphColor")
        spec.scale = number(m["scale"], path + ".scale", in: 0.1...10) ?? 1
        if let g = m["glyph"] { spec.glyph = view(g, path + ".glyph", depth: depth + 1) }
        return spec
    }

    mutating func image(_ node: JSONNode, _ path: String) -> ImageSpec? {
        guard let m = object(node, path, allowed: ["systemName", "file"]) else { return nil }
        guard (m["systemName"] == nil) != (m["file"] == nil) else {
            report(node, path, "an image needs exactly one of \"systemName\" (a built-in symbol) or \"file\" (a PNG)")
            return nil
        }
        if let n = m["systemName"] {
            guard let name = string(n, path + ".systemName") else { return nil }
            guard Image.systemNames.contains(name) else {
                let hint = closest(to: name, in: Image.systemNames).map { "; did you mean \"\($0)\"?" } ?? ""
                report(n, path + ".systemName", "unknown symbol \"\(name)\"" + hint)
                return nil
            }
            return ImageSpec(systemName: name)
        }
        return string(m["file"], path + ".file").map { ImageSpec(file: $0) }
    }

    // MARK: - Views

    static let maxViewDepth = 16
    static let viewKinds = ["text", "image", "pin", "color", "rectangle", "capsule", "circle", "ellipse", "roundedRectangle",
                            "spacer", "vstack", "hstack", "zstack"]
    static let modifierNames = ["font", "fontWeight", "bold", "italic", "foregroundStyle", "foregroundColor", "lineLimit",
                                "multilineTextAlignment", "minimumScaleFactor", "frame", "padding", "fixedSize", "offset",
                                "background", "overlay", "clipShape", "cornerRadius", "border", "shadow", "opacity",
                                "scaleEffect", "rotationEffect", "resizable", "aspectRatio", "scaledToFit", "scaledToFill", "accessibilityLabel",
                                "animation"]
    static let animationKeys = ["curve", "duration", "response", "dampingFraction", "delay", "speed", "repeat", "autoreverses"]
    static let animatableModifiers = ["opacity", "scaleEffect", "offset", "rotationEffect", "foregroundStyle", "foregroundColor"]

    /// An animation: `{"curve": "easeInOut", "duration": 1, "repeat": "forever", …}`; with
    /// `extra`, also returns those members.
    mutating func animation(_ node: JSONNode, _ path: String, allowed: [String]) -> (Animation, [String: JSONNode])? {
        guard let m = object(node, path, allowed: allowed) else { return nil }
        let curve: AnimationCurveName = choice(m["curve"], path + ".curve", default: .easeInOut)
        var a: Animation
        if curve == .spring {
            if m["duration"] != nil { report(m["duration"], path + ".duration", "a spring has a \"response\" and a \"dampingFraction\", not a duration") }
            a = .spring(response: number(m["response"], path + ".response", in: 0.01...60, unit: " of seconds") ?? 0.55,
                        dampingFraction: number(m["dampingFraction"], path + ".dampingFraction", in: 0.01...10) ?? 0.825)
        } else {
            if m["response"] != nil || m["dampingFraction"] != nil { report(node, path, "\"response\" and \"dampingFraction\" belong to \"curve\": \"spring\"") }
            a = curve.animation(duration: number(m["duration"], path + ".duration", in: 0.001...Scene.maxTime, unit: " of seconds") ?? 0.35)
        }
        if let d = number(m["delay"], path + ".delay", in: 0...Scene.maxTime, unit: " of seconds") { a = a.delay(d) }
        if let s = number(m["speed"], path + ".speed", in: 0.01...100) { a = a.speed(s) }
        let autoreverses = bool(m["autoreverses"], path + ".autoreverses") ?? true
        if let r = m["repeat"] {
            if case .string(let s) = r.value {
                if s == "forever" { a = a.repeatForever(autoreverses: autoreverses) } else { report(r, path + ".repeat", "expected a count or \"forever\", found \"\(s)\"") }
            } else {
                a = a.repeatCount(integer(r, path + ".repeat", in: 1...1_000_000, default: 1), autoreverses: autoreverses)
            }
        } else if m["autoreverses"] != nil {
            report(m["autoreverses"], path + ".autoreverses", "\"autoreverses\" needs a \"repeat\"")
        }
        return (a, m)
    }

    /// A view: one kind key (`{"text": "…"}`, `{"vstack": {…}}`, …) and optional ordered `"modifiers"`.
    mutating func view(_ node: JSONNode, _ path: String, depth: Int) -> ViewSpec? {
        guard depth <= Self.maxViewDepth else {
            report(node, path, "views nest deeper than \(Self.maxViewDepth) levels")
            return nil
        }
        guard let m = object(node, path, allowed: Self.viewKinds + ["modifiers"]) else { return nil }
        let kinds = Self.viewKinds.filter { m[$0] != nil }
        guard kinds.count == 1, let kind = kinds.first, let value = m[kind] else {
            report(node, path, kinds.isEmpty ? "a view needs one of: \(Self.viewKinds.joined(separator: ", "))"
                                              : "a view has exactly one kind, found \(kinds.joined(separator: " and "))")
            return nil
        }
        let p = path + "." + kind
        let content: ViewSpec.Content?
        switch kind {
        case "text": content = text(value, p).map { .text($0) }
        case "image": content = image(value, p).map { .image($0) }
        case "pin": content = pin(value, p, depth: depth).map { .pin($0) }
        case "color": content = viewColor(value, p).map { .color($0) }
        case "spacer":
            let o = object(value, p, allowed: ["minLength"])
            content = .spacer(minLength: number(o?["minLength"], p + ".minLength", in: 0...10_000))
        case "vstack", "hstack", "zstack": content = stack(kind, value, p, depth: depth)
        default: content = shape(kind, value, p)
        }
        guard let content else { return nil }
        var spec = ViewSpec(content)
        for (i, item) in (array(m["modifiers"], path + ".modifiers", max: 64) ?? []).enumerated() {
            if let modifier = modifier(item, path + ".modifiers[\(i)]", depth: depth, index: i, content: content) { spec.modifiers.append(modifier) }
        }
        return spec
    }

    mutating func stack(_ kind: String, _ node: JSONNode, _ path: String, depth: Int) -> ViewSpec.Content? {
        guard let m = object(node, path, allowed: kind == "zstack" ? ["alignment", "children"] : ["alignment", "spacing", "children"]) else { return nil }
        var children: [ViewSpec] = []
        for (i, c) in (array(m["children"], path + ".children", max: Self.maxChildren) ?? []).enumerated() {
            if let v = view(c, path + ".children[\(i)]", depth: depth + 1) { children.append(v) }
        }
        let spacing = number(m["spacing"], path + ".spacing", in: -1000...1000)
        switch kind {
        case "vstack":
            let a: TextAlignment = choice(m["alignment"], path + ".alignment", default: .center)
            return .vstack(alignment: a == .leading ? .leading : a == .trailing ? .trailing : .center, spacing: spacing, children: children)
        case "hstack":
            let a: VerticalEdgeName = choice(m["alignment"], path + ".alignment", default: .center)
            return .hstack(alignment: a == .top ? .top : a == .bottom ? .bottom : .center, spacing: spacing, children: children)
        default:
            return .zstack(alignment: alignment(m["alignment"], path + ".alignment"), children: children)
        }
    }

    mutating func alignment(_ node: JSONNode?, _ path: String) -> Alignment {
        let name: AlignmentName = choice(node, path, default: .center)
        return name.alignment
    }

    mutating func shapeKind(_ kind: String, _ node: JSONNode?, _ path: String) -> ShapeKind? {
        switch kind {
        case "rectangle": return .rectangle
        case "capsule": return .capsule
        case "circle": return .circle
        case "ellipse": return .ellipse
        case "roundedRectangle":
            guard let node, let o = object(node, path, allowed: ["cornerRadius", "fill", "stroke", "lineWidth"]) else {
                report(node, path, "a rounded rectangle needs {\"cornerRadius\": …}")
                return nil
            }
            guard let r = number(o["cornerRadius"], path + ".cornerRadius", in: 0...10_000) else {
                if o["cornerRadius"] == nil { report(node, path, "a rounded rectangle needs \"cornerRadius\"") }
                return nil
            }
            return .roundedRectangle(cornerRadius: r)
        default:
            let hint = closest(to: kind, in: ["rectangle", "capsule", "circle", "ellipse", "roundedRectangle"]).map { "; did you mean \"\($0)\"?" } ?? ""
            report(node, path, "unknown shape \"\(kind)\"" + hint)
            return nil
        }
    }

    /// `{"capsule": {"fill": "blue", "stroke": "#fff", "lineWidth": 2}}`
    mutating func shape(_ kind: String, _ node: JSONNode, _ path: String) -> ViewSpec.Content? {
        guard let kindValue = shapeKind(kind, node, path),
              let o = object(node, path, allowed: kind == "roundedRectangle" ? ["cornerRadius", "fill", "stroke", "lineWidth"] : ["fill", "stroke", "lineWidth"])
        else { return nil }
        return .shape(kindValue, fill: viewColor(o["fill"], path + ".fill"), stroke: viewColor(o["stroke"], path + ".stroke"),
                      lineWidth: number(o["lineWidth"], path + ".lineWidth", in: 0...1000) ?? 1)
    }

    /// One modifier: an object with exactly one key, e.g. `{"padding": 8}`.
    mutating func modifier(_ node: JSONNode, _ path: String, depth: Int, index: Int, content: ViewSpec.Content) -> ModifierSpec? {
        guard let m = object(node, path, allowed: Self.modifierNames) else { return nil }
        guard m.count == 1, let (name, value) = m.first else {
            if m.count > 1 || (m.isEmpty && { if case .object(let x) = node.value { return x.isEmpty } else { return false } }()) {
                report(node, path, "a modifier is an object with exactly one key (use one array item per modifier, in order)")
            }
            return nil
        }
        let p = path + "." + name
        func flag() -> Bool { bool(value, p) == true }
        switch name {
        case "font":
            if case .string = value.value {
                let style: TextStyle = choice(value, p, default: .body)
                return .font(.style(style))
            }
            guard let o = object(value, p, allowed: ["size", "weight", "design", "family", "italic"]) else { return nil }
            let size = number(o["size"], p + ".size", in: 1...500) ?? 17
            let weight: FontWeight = choice(o["weight"], p + ".weight", default: .regular)
            let italic = bool(o["italic"], p + ".italic") ?? false
            if let family = string(o["family"], p + ".family") { return .font(.custom(family, size: size, weight: weight, italic: italic)) }
            let design: FontDesign = choice(o["design"], p + ".design", default: .default)
            return .font(FontSpec.system(size: size, weight: weight, design: design).italic(italic))
        case "fontWeight": return .fontWeight(choice(value, p, default: .regular))
        case "bold": return flag() ? .bold : nil
        case "italic": return flag() ? .italic : nil
        case "foregroundStyle", "foregroundColor": return viewColor(value, p).map { .foregroundStyle($0) }
        case "lineLimit": return .lineLimit(integer(value, p, in: 1...1000, default: 1))
        case "multilineTextAlignment": return .multilineTextAlignment(choice(value, p, default: .leading))
        case "minimumScaleFactor": return number(value, p, in: 0.01...1).map { .minimumScaleFactor($0) }
        case "frame":
            let keys = ["width", "height", "minWidth", "maxWidth", "minHeight", "maxHeight", "alignment"]
            guard let o = object(value, p, allowed: keys) else { return nil }
            func n(_ k: String) -> Double? {
                if case .string(let s) = o[k]?.value, s == "infinity", k.hasPrefix("max") { return .infinity }
                return number(o[k], p + "." + k, in: 0...100_000)
            }
            return .frame(width: n("width"), height: n("height"), minWidth: n("minWidth"), maxWidth: n("maxWidth"),
                          minHeight: n("minHeight"), maxHeight: n("maxHeight"), alignment: alignment(o["alignment"], p + ".alignment"))
        case "padding":
            if case .number = value.value { return number(value, p, in: 0...10_000).map { .padding(EdgeInsets(top: $0, leading: $0, bottom: $0, trailing: $0)) } }
            guard let o = object(value, p, allowed: ["top", "leading", "bottom", "trailing", "horizontal", "vertical"]) else { return nil }
            func n(_ k: String) -> Double? { number(o[k], p + "." + k, in: 0...10_000) }
            let h = n("horizontal"), v = n("vertical")
            return .padding(EdgeInsets(top: n("top") ?? v ?? 0, leading: n("leading") ?? h ?? 0, bottom: n("bottom") ?? v ?? 0, trailing: n("trailing") ?? h ?? 0))
        case "fixedSize": return flag() ? .fixedSize : nil
        case "offset":
            guard let o = object(value, p, allowed: ["x", "y"]) else { return nil }
            return .offset(x: number(o["x"], p + ".x", in: -10_000...10_000) ?? 0, y: number(o["y"], p + ".y", in: -10_000...10_000) ?? 0)
        case "background", "overlay":
            let v: ViewSpec?
            if case .string = value.value { v = viewColor(value, p).map { ViewSpec(.color($0)) } } else { v = view(value, p, depth: depth + 1) }
            guard let v else { return nil }
            return name == "background" ? .background(v) : .overlay(v)
        case "clipShape":
            guard case .string(let s) = value.value else {
                if case .object(let members) = value.value, members.count == 1, members[0].key == "roundedRectangle" {
                    return shapeKind("roundedRectangle", members[0].value, p + ".roundedRectangle").map { .clipShape($0) }
                }
                report(value, p, "expected \"rectangle\", \"capsule\", \"circle\", \"ellipse\" or {\"roundedRectangle\": {\"cornerRadius\": …}}")
                return nil
            }
            return shapeKind(s, value, p).map { .clipShape($0) }
        case "cornerRadius": return number(value, p, in: 0...10_000).map { .cornerRadius($0) }
        case "border":
            guard let o = object(value, p, allowed: ["color", "width"]) else { return nil }
            return .border(viewColor(o["color"], p + ".color") ?? .primary, width: number(o["width"], p + ".width", in: 0...1000) ?? 1)
        case "shadow":
            guard let o = object(value, p, allowed: ["color", "radius", "x", "y"]) else { return nil }
            return .shadow(color: viewColor(o["color"], p + ".color") ?? Color(white: 0, opacity: 0.33),
                           radius: number(o["radius"], p + ".radius", in: 0...500) ?? 4,
                           x: number(o["x"], p + ".x", in: -1000...1000) ?? 0, y: number(o["y"], p + ".y", in: -1000...1000) ?? 0)
        case "opacity": return number(value, p, in: 0...1).map { .opacity($0) }
        case "scaleEffect": return number(value, p, in: 0...100).map { .scaleEffect($0) }
        case "rotationEffect": return number(value, p, in: -3600...3600, unit: " of degrees").map { .rotationEffect(degrees: $0) }
        case "resizable":
            guard case .image = content, index == 0 else {
                report(node, path, "\"resizable\" applies to an image and must be its first modifier")
                return nil
            }
            return flag() ? .resizable : nil
        case "aspectRatio":
            guard let o = object(value, p, allowed: ["ratio", "contentMode"]) else { return nil }
            let mode: ContentModeName = choice(o["contentMode"], p + ".contentMode", default: .fit)
            return .aspectRatio(number(o["ratio"], p + ".ratio", in: 0.001...1000), mode == .fit ? .fit : .fill)
        case "scaledToFit": return flag() ? .aspectRatio(nil, .fit) : nil
        case "scaledToFill": return flag() ? .aspectRatio(nil, .fill) : nil
        case "accessibilityLabel": return text(value, p).map { .accessibilityLabel($0) }
        case "animation":
            guard let (a, m) = animation(value, p, allowed: Self.animationKeys + ["from"]) else { return nil }
            guard let fromNode = m["from"], let items = array(fromNode, p + ".from", max: 16) else {
                report(value, p, "an animation needs \"from\": the animatable modifiers' values when the view appears, e.g. [{\"opacity\": 0}]")
                return nil
            }
            var from: [ModifierSpec] = []
            for (i, item) in items.enumerated() {
                let q = p + ".from[\(i)]"
                if case .object(let members) = item.value, members.count == 1, !Self.animatableModifiers.contains(members[0].key) {
                    report(item, q, "only \(Self.animatableModifiers.joined(separator: ", ")) animate, found \"\(members[0].key)\"")
                    continue
                }
                if let f = modifier(item, q, depth: depth, index: 1, content: content) { from.append(f) }
            }
            return .appearAnimation(a, from: from)
        default: return nil
        }
    }
}

enum VerticalEdgeName: String, CaseIterable { case top, center, bottom }
enum FlightType: String, CaseIterable { case to, around }
enum AnimationCurveName: String, CaseIterable {
    case linear, easeIn, easeOut, easeInOut, spring
    func animation(duration: Double) -> Animation {
        switch self {
        case .linear: .linear(duration: duration)
        case .easeIn: .easeIn(duration: duration)
        case .easeOut: .easeOut(duration: duration)
        case .easeInOut: .easeInOut(duration: duration)
        case .spring: .spring()
        }
    }
}
enum ContentModeName: String, CaseIterable { case fit, fill }
enum AlignmentName: String, CaseIterable {
    case center, leading, trailing, top, bottom, topLeading, topTrailing, bottomLeading, bottomTrailing
    var alignment: Alignment {
        switch self {
        case .center: .center
        case .leading: .leading
        case .trailing: .trailing
        case .top: .top
        case .bottom: .bottom
        case .topLeading: Alignment(horizontal: .leading, vertical: .top)
        case .topTrailing: Alignment(horizontal: .trailing, vertical: .top)
        case .bottomLeading: Alignment(horizontal: .leading, vertical: .bottom)
        case .bottomTrailing: Alignment(horizontal: .trailing, vertical: .bottom)
        }
    }
}
