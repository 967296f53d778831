// Scene → JSON text: the format `SceneDecoder` reads, two-space indented, keys in the
// schema's order, defaults left out, numbers in their shortest exact form (a Double read back
// is the same Double), colours as names or hex. Same scene, same bytes.
import TerrapinGeo
import TerrapinRaster
import TerrapinTerrain
import TerrapinTypography
import TerrapinViews

public enum SceneEncoder {
    public static func encode(_ scene: Scene) -> String {
        var root: [(String, JSONValue)] = []
        let o = scene.output, d = OutputOptions()
        var output: [(String, JSONValue)] = [("width", .number(Double(o.width))), ("height", .number(Double(o.height)))]
        if o.scale != d.scale { output.append(("scale", .number(Double(o.scale)))) }
        if o.background != d.background { output.append(("background", .string(hex(o.background)))) }
        if o.compression != d.compression { output.append(("compression", .string(o.compression.rawValue))) }
        root.append(("output", .object(output)))
        if scene.time != 0 { root.append(("time", .number(scene.time))) }
        if let map = scene.map { root.append(("map", encode(map))) }
        var text = ""
        JSONValue.object(root).write(to: &text, indent: 0)
        return text + "\n"
    }

    static func encode(_ map: MapScene) -> JSONValue {
        var m: [(String, JSONValue)] = [("mode", .string(map.mode.rawValue))]
        if let c = map.camera { m.append(("camera", camera(c))) }
        if let r = map.cameraRestriction {
            var o: [(String, JSONValue)] = []
            for (key, limits) in [("range", r.range), ("tilt", r.tilt), ("heading", r.heading)] {
                if let limits { o.append((key, .array([.number(limits.lowerBound), .number(limits.upperBound)]))) }
            }
            if let b = r.bounds { o.append(("bounds", .array(b.map { .number($0) }))) }
            m.append(("cameraRestriction", .object(o)))
        }
        if !map.flights.isEmpty {
            m.append(("flights", .array(map.flights.map { f in
                var o: [(String, JSONValue)] = []
                switch f.kind {
                case .to(let c): o = [("type", .string("to")), ("camera", camera(c))]
                case .around(let c, _): o = [("type", .string("around")), ("camera", camera(c))]
                }
                o.append(("duration", .number(f.duration)))
                if f.start != 0 { o.append(("start", .number(f.start))) }
                if case .around(_, let rounds) = f.kind, rounds != 1 { o.append(("rounds", .number(rounds))) }
                return .object(o)
            })))
        }
        if let t = map.terrain {
            var terrain: [(String, JSONValue)] = []
            if let inline = t.inline {
                terrain = [("columns", .number(Double(inline.columns))), ("rows", .number(Double(inline.rows))),
                           ("bounds", .array(inline.bounds.map { .number($0) })), ("samples", .numbers(inline.samples.map { Double($0) }))]
            } else {
                terrain.append(("file", .string(t.file)))
                if let b = t.bounds { terrain.append(("bounds", .array(b.map { .number($0) }))) }
            }
            if t.exaggeration != 1 { terrain.append(("exaggeration", .number(t.exaggeration))) }
            m.append(("terrain", .object(terrain)))
        }
        if let i = map.imagery {
            var imagery: [(String, JSONValue)] = [("file", .string(i.file)), ("bounds", .array(i.bounds.map { .number($0) }))]
            if i.projection != .geographic { imagery.append(("projection", .string(i.projection.rawValue))) }
            if i.shading != 0 { imagery.append(("shading", .number(i.shading))) }
            m.append(("imagery", .object(imagery)))
        }
        if let sun = map.sun { m.append(("sun", .object([("azimuth", .number(sun[0])), ("altitude", .number(sun[1]))]))) }
        if let opacity = map.dimmedOccludedOpacity { m.append(("occludedMarkers", .object([("dimmed", .number(opacity))]))) }
        if !map.markers.isEmpty { m.append(("markers", .array(map.markers.map(marker)))) }
        if !map.buildings.isEmpty {
            m.append(("buildings", .array(map.buildings.map { b in
                var o: [(String, JSONValue)] = [("footprint", .array(b.footprint.map(position)))]
                if b.base != 0 { o.append(("base", .number(b.base))) }
                o.append(("roof", .number(b.roof)))
                if b.color != BuildingSpec(footprint: [], roof: 1).color { o.append(("color", .string(hex(b.color)))) }
                return .object(o)
            })))
        }
        if !map.labels.isEmpty {
            m.append(("labels", .array(map.labels.map { l in
                var o: [(String, JSONValue)] = [("name", .string(l.name)), ("position", position(l.position))]
                if l.importance != 1 { o.append(("importance", .number(Double(l.importance)))) }
                return .object(o)
            })))
        }
        return .object(m)
    }

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
        if c.fieldOfView != d.fieldOfView { o.append(("fieldOfView", .number(c.fieldOfView))) }
        if c.altitudeMode != d.altitudeMode { o.append(("altitudeMode", .string(c.altitudeMode.rawValue))) }
        return .object(o)
    }

    static func marker(_ s: MarkerSpec) -> JSONValue {
        var o: [(String, JSONValue)] = []
        if s.kind != .marker { o.append(("type", .string(s.kind.rawValue))) }
        o.append(("position", position(s.position)))
        if s.altitudeMode != .clampToGround { o.append(("altitudeMode", .string(s.altitudeMode.rawValue))) }
        if s.kind != .popover {
            if s.collisionBehavior != .required { o.append(("collisionBehavior", .string(s.collisionBehavior.rawValue))) }
            if s.kind == .marker, let p = s.collisionPriority { o.append(("collisionPriority", .number(Double(p)))) }
            if s.zIndex != 0 { o.append(("zIndex", .number(Double(s.zIndex)))) }
        }
        switch s.kind {
        case .marker:
            if s.anchor != .bottom { o.append(("anchor", .object([("x", .number(s.anchor.x)), ("y", .number(s.anchor.y))]))) }
            if let c = s.content { o.append(("content", view(c))) }
            if let p = s.popover { o.append(("popover", .object(popover(p)))) }
            if s.tapTogglesPopover { o.append(("onTap", .string("togglePopover"))) }
        case .popover:
            if s.popoverOffset != .zero {
                o.append(("offset", .object([("width", .number(s.popoverOffset.width)), ("height", .number(s.popoverOffset.height))])))
            }
            if let p = s.popover { o += popover(p) }
        case .marker3D:
            if s.extruded { o.append(("extruded", .bool(true))) }
            if s.drawsWhenOccluded { o.append(("drawsWhenOccluded", .bool(true))) }
            if s.sizePreserved { o.append(("sizePreserved", .bool(true))) }
            if !s.label.isEmpty { o.append(("label", .string(s.label))) }
            switch s.style {
            case .default: break
            case .pin(let p): o.append(("style", .object([("pin", pin(p))])))
            case .image(let i): o.append(("style", .object([("image", image(i))])))
            case .view(let v): o.append(("style", .object([("view", view(v))])))
            }
        }
        return .object(o)
    }

    static func popover(_ p: PopoverSpec) -> [(String, JSONValue)] {
        let d = PopoverSpec(content: p.content)
        var o: [(String, JSONValue)] = []
        if p.isOpen { o.append(("isOpen", .bool(true))) }
        if p.autoClose != d.autoClose { o.append(("autoClose", .bool(p.autoClose))) }
        if p.autoPan != d.autoPan { o.append(("autoPan", .bool(p.autoPan))) }
        if p.padding != d.padding { o.append(("padding", .number(p.padding))) }
        if p.backgroundColor != d.backgroundColor { o.append(("backgroundColor", color(p.backgroundColor))) }
        if p.cornerRadius != d.cornerRadius { o.append(("cornerRadius", .number(p.cornerRadius))) }
        if let a = p.animation { o.append(("animation", .object(animation(a)))) }
        o.append(("content", view(p.content)))
        return o
    }

    static func pin(_ p: PinSpec) -> JSONValue {
        var o: [(String, JSONValue)] = []
        if let c = p.background { o.append(("background", color(c))) }
        if let c = p.border { o.append(("border", color(c))) }
        if let c = p.glyphColor { o.append(("glyphColor", color(c))) }
        if p.scale != 1 { o.append(("scale", .number(p.scale))) }
        if let g = p.glyph { o.append(("glyph", view(g))) }
        return .object(o)
    }

    static func image(_ i: ImageSpec) -> JSONValue {
        if let name = i.systemName { return .object([("systemName", .string(name))]) }
        return .object([("file", .string(i.file ?? ""))])
    }

    static func view(_ v: ViewSpec) -> JSONValue {
        var o: [(String, JSONValue)] = []
        switch v.content {
        case .text(let t): o.append(("text", .string(t)))
        case .image(let i): o.append(("image", image(i)))
        case .pin(let p): o.append(("pin", pin(p)))
        case .color(let c): o.append(("color", color(c)))
        case .shape(let kind, let fill, let stroke, let lineWidth):
            var s: [(String, JSONValue)] = []
            if case .roundedRectangle(let r) = kind { s.append(("cornerRadius", .number(r))) }
            if let fill { s.append(("fill", color(fill))) }
            if let stroke { s.append(("stroke", color(stroke))) }
            if lineWidth != 1 { s.append(("lineWidth", .number(lineWidth))) }
            o.append((shapeName(kind), .object(s)))
        case .spacer(let minLength):
            o.append(("spacer", .object(minLength.map { [("minLength", .number($0))] } ?? [])))
        case .vstack(let alignment, let spacing, let children):
            var s: [(String, JSONValue)] = []
            if alignment != .center { s.append(("alignment", .string(alignment == .leading ? "leading" : "trailing"))) }
            if let spacing { s.append(("spacing", .number(spacing))) }
            s.append(("children", .array(children.map(view))))
            o.append(("vstack", .object(s)))
        case .hstack(let alignment, let spacing, let children):
            var s: [(String, JSONValue)] = []
            if alignment != .center { s.append(("alignment", .string(alignment == .top ? "top" : "bottom"))) }
            if let spacing { s.append(("spacing", .number(spacing))) }
            s.append(("children", .array(children.map(view))))
            o.append(("hstack", .object(s)))
        case .zstack(let alignment, let children):
            var s: [(String, JSONValue)] = []
            if alignment != .center { s.append(("alignment", .string(alignmentName(alignment)))) }
            s.append(("children", .array(children.map(view))))
            o.append(("zstack", .object(s)))
        }
        if !v.modifiers.isEmpty { o.append(("modifiers", .array(v.modifiers.map(modifier)))) }
        return .object(o)
    }

    static func modifier(_ m: ModifierSpec) -> JSONValue {
        let (key, value): (String, JSONValue) = switch m {
        case .font(let f): ("font", font(f))
        case .fontWeight(let w): ("fontWeight", .string(w.rawValue))
        case .bold: ("bold", .bool(true))
        case .italic: ("italic", .bool(true))
        case .foregroundStyle(let c): ("foregroundStyle", color(c))
        case .lineLimit(let n): ("lineLimit", .number(Double(n)))
        case .multilineTextAlignment(let a): ("multilineTextAlignment", .string(a.rawValue))
        case .minimumScaleFactor(let f): ("minimumScaleFactor", .number(f))
        case .frame(let width, let height, let minWidth, let maxWidth, let minHeight, let maxHeight, let alignment):
            ("frame", .object([("width", width), ("height", height), ("minWidth", minWidth), ("maxWidth", maxWidth),
                               ("minHeight", minHeight), ("maxHeight", maxHeight)].compactMap { key, value in
                value.map { (key, $0 == .infinity ? JSONValue.string("infinity") : .number($0)) }
            } + (alignment == .center ? [] : [("alignment", .string(alignmentName(alignment)))])))
        case .padding(let e):
            e.top == e.leading && e.top == e.bottom && e.top == e.trailing ? ("padding", .number(e.top))
                : ("padding", .object([("top", e.top), ("leading", e.leading), ("bottom", e.bottom), ("trailing", e.trailing)]
                    .filter { $0.1 != 0 }.map { ($0.0, .number($0.1)) }))
        case .fixedSize: ("fixedSize", .bool(true))
        case .offset(let x, let y): ("offset", .object([("x", .number(x)), ("y", .number(y))]))
        case .background(let v): ("background", backgroundView(v))
        case .overlay(let v): ("overlay", backgroundView(v))
        case .clipShape(let kind):
            if case .roundedRectangle(let r) = kind {
                ("clipShape", .object([("roundedRectangle", .object([("cornerRadius", .number(r))]))]))
            } else {
                ("clipShape", .string(shapeName(kind)))
            }
        case .cornerRadius(let r): ("cornerRadius", .number(r))
        case .border(let c, let width): ("border", .object([("color", color(c)), ("width", .number(width))]))
        case .shadow(let c, let radius, let x, let y):
            // The decoder's defaults (SwiftUI's black at 33 %, radius 4, no offset) are left out.
            ("shadow", .object((c == Color(white: 0, opacity: 0.33) ? [] : [("color", color(c))]) + (radius == 4 ? [] : [("radius", .number(radius))])
                + (x == 0 ? [] : [("x", .number(x))]) + (y == 0 ? [] : [("y", .number(y))])))
        case .opacity(let v): ("opacity", .number(v))
        case .scaleEffect(let v): ("scaleEffect", .number(v))
        case .rotationEffect(let d): ("rotationEffect", .number(d))
        case .resizable: ("resizable", .bool(true))
        case .aspectRatio(let ratio, let mode):
            ("aspectRatio", .object((ratio.map { [("ratio", JSONValue.number($0))] } ?? []) + [("contentMode", .string(mode == .fit ? "fit" : "fill"))]))
        case .accessibilityLabel(let l): ("accessibilityLabel", .string(l))
        case .appearAnimation(let a, let from):
            ("animation", .object(animation(a) + [("from", .array(from.map(modifier)))]))
        }
        return .object([(key, value)])
    }

    /// `{"curve", "duration" | "response" + "dampingFraction", "delay", "speed", "repeat", "autoreverses"}`.
    static func animation(_ a: Animation) -> [(String, JSONValue)] {
        var o: [(String, JSONValue)] = []
        switch a.curve {
        case .spring(let response, let damping):
            o = [("curve", .string("spring")), ("response", .number(response)), ("dampingFraction", .number(damping))]
        case .bezier(let x1, let y1, let x2, let y2):
            let name = AnimationCurveName.allCases.first { $0.animation(duration: 1).curve == .bezier(x1, y1, x2, y2) }?.rawValue ?? "easeInOut"
            o = [("curve", .string(name)), ("duration", .number(a.duration))]
        }
        if a.delay != 0 { o.append(("delay", .number(a.delay))) }
        if a.speed != 1 { o.append(("speed", .number(a.speed))) }
        if let r = a.repeats { o.append(("repeat", r == Int.max ? .string("forever") : .number(Double(r)))) }
        if a.repeats != nil, !a.autoreverses { o.append(("autoreverses", .bool(false))) }
        return o
    }

    /// A plain colour background is written as the colour alone.
    static func backgroundView(_ v: ViewSpec) -> JSONValue {
        if case .color(let c) = v.content, v.modifiers.isEmpty { return color(c) }
        return view(v)
    }

    static func font(_ f: FontSpec) -> JSONValue {
        if let style = TextStyle.allCases.first(where: { FontSpec.style($0) == f }) { return .string(style.rawValue) }
        var o: [(String, JSONValue)] = [("size", .number(f.size))]
        if f.request.weight != .regular { o.append(("weight", .string(f.request.weight.rawValue))) }
        if let design = FontDesign.allCases.first(where: { $0.family == f.request.family }) {
            if design != .default { o.append(("design", .string(design.rawValue))) }
        } else {
            o.append(("family", .string(f.request.family)))
        }
        if f.request.italic { o.append(("italic", .bool(true))) }
        return .object(o)
    }

    static func shapeName(_ kind: ShapeKind) -> String {
        switch kind {
        case .rectangle: "rectangle"
        case .capsule: "capsule"
        case .circle: "circle"
        case .ellipse: "ellipse"
        case .roundedRectangle: "roundedRectangle"
        }
    }

    static func alignmentName(_ a: Alignment) -> String {
        AlignmentName.allCases.first { $0.alignment == a }?.rawValue ?? "center"
    }

    static func color(_ c: Color) -> JSONValue {
        if let name = Color.named.filter({ $0.value == c }).keys.sorted().first { return .string(name) }
        return .string(hex(c.rgba.rgba8))
    }

    static func hex(_ c: RGBA8) -> String {
        func two(_ b: UInt8) -> String { (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true) }
        return "#" + two(c.red) + two(c.green) + two(c.blue) + (c.alpha == 255 ? "" : two(c.alpha))
    }
}

/// JSON to write: objects keep their key order; `text` is two-space indented, short objects and
/// arrays of scalars on one line, numbers in their shortest exact form.
public enum JSONValue: Equatable, Sendable {
    case object([(String, JSONValue)])
    case array([JSONValue])
    /// A long run of numbers, written several to a line.
    case numbers([Double])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        var x = "", y = ""
        a.write(to: &x, indent: 0)
        b.write(to: &y, indent: 0)
        return x == y
    }

    public var text: String {
        var out = ""
        write(to: &out, indent: 0)
        return out
    }

    func write(to out: inout String, indent: Int) {
        let pad = String(repeating: " ", count: indent + 2), end = String(repeating: " ", count: indent)
        switch self {
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            // Short objects of scalars stay on one line.
            if members.allSatisfy({ $0.1.isScalar }) && members.count <= 6 {
                out += "{" + members.map { JSONText.quoted($0.0) + ": " + $0.1.scalarText }.joined(separator: ", ") + "}"
                return
            }
            out += "{\n"
            for (i, (key, value)) in members.enumerated() {
                out += pad + JSONText.quoted(key) + ": "
                value.write(to: &out, indent: indent + 2)
                out += i + 1 < members.count ? ",\n" : "\n"
            }
            out += end + "}"
        case .array(let items):
            guard !items.isEmpty else { out += "[]"; return }
            if items.allSatisfy(\.isScalar) && items.count <= 8 {
                out += "[" + items.map(\.scalarText).joined(separator: ", ") + "]"
                return
            }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += pad
                item.write(to: &out, indent: indent + 2)
                out += i + 1 < items.count ? ",\n" : "\n"
            }
            out += end + "]"
        case .numbers(let values):
            out += "[\n"
            var k = 0
            while k < values.count {
                let line = values[k..<min(k + 16, values.count)].map(Self.numberText).joined(separator: ", ")
                k += 16
                out += pad + line + (k < values.count ? ",\n" : "\n")
            }
            out += end + "]"
        default:
            out += scalarText
        }
    }

    var isScalar: Bool {
        switch self {
        case .string, .number, .bool, .null: true
        default: false
        }
    }

    var scalarText: String {
        switch self {
        case .string(let s): JSONText.quoted(s)
        case .number(let n): Self.numberText(n)
        case .bool(let b): b ? "true" : "false"
        case .null: "null"
        default: ""
        }
    }

    /// The shortest text that reads back as the same Double; whole numbers without ".0".
    static func numberText(_ n: Double) -> String {
        guard n.isFinite else { return "null" }   // JSON has no NaN or infinity
        if n == n.rounded(), abs(n) < 1e15 { return String(Int(n)) }
        return String(n)
    }
}
