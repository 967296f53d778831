// Markers, Marker3D styles, popovers, pins and images in scene files, both ways.
import TerrapinIO
import TerrapinGeo
import TerrapinRaster
import TerrapinTypography
import TerrapinViews

/// The popover of a standalone popover's marker entry (read and written by the popover's rows).
extension MarkerSpec {
    var standalonePopover: PopoverSpec {
        get { popover ?? PopoverSpec(content: ViewSpec(.spacer(minLength: nil))) }
        set { popover = newValue }
    }
}

extension SceneTables {
    static let noMarker = MarkerSpec(position: LatLngAltitude(latitude: 0, longitude: 0, altitude: 0))
    /// Made when used, not kept (see `ObjectTable.initial`).
    static var noPopover: PopoverSpec { PopoverSpec(content: ViewSpec(.spacer(minLength: nil))) }

    /// A marker entry's `type`: read first, by `Reader.marker`, to pick the table.
    static func typeRow(_ kind: MarkerSpec.Kind, written: Bool) -> Field<MarkerSpec> {
        .custom("type", schema: .object([("const", .string(kind.rawValue))]), type: "\"\(kind.rawValue)\"", default: kind == .marker ? "\"marker\"" : nil,
                doc: "Which kind of entry this is.", read: { _, _, _, _ in }, write: { _ in written ? .string(kind.rawValue) : nil })
    }

    /// The rows every marker entry has, in the order they are written.
    static let placeRows: [Field<MarkerSpec>] = [
        .ref("position", "position", doc: "Where it stands.",
             read: { r, node, path, m in if let p = r.read(position, node, path) { m.position = p } }, write: { position.write($0.position) }),
        .choice("altitudeMode", \.altitudeMode, initial: noMarker, doc: "How the position's altitude is measured."),
    ]

    static let collisionRow = Field<MarkerSpec>.choice("collisionBehavior", \.collisionBehavior, initial: noMarker,
                                                         doc: "What happens where it overlaps other markers.")
    static let zIndexRow = Field<MarkerSpec>.integer("zIndex", \.zIndex, in: -1_000_000...1_000_000, initial: noMarker, doc: "Draw order among markers.")

    static let anchor: ObjectTable<UnitPoint> = ObjectTable<UnitPoint>(
        name: "anchor", doc: "The point of the marker's content on its position: x from the leading edge, y from the top, in units of its size.",
        initial: .bottom,
        fields: [
            .number("x", \.x, in: -10...10, initial: .bottom, always: true, doc: "Across, 0 at the leading edge, 1 at the trailing."),
            .number("y", \.y, in: -10...10, initial: .bottom, always: true, doc: "Down, 0 at the top, 1 at the bottom."),
        ])

    static let marker: ObjectTable<MarkerSpec> = ObjectTable<MarkerSpec>(
        name: "marker", doc: "A marker (the SDK's Marker): a pin, or a view of its own, standing on the map.",
        initial: noMarker, required: ["position"], requiredMessage: "a marker needs a \"position\"",
        composition: Composition(keyword: "dependentRequired", cases: SceneSchema.fragment(##"{"onTap": ["popover"]}"##), text: "`onTap` needs a `popover`."),
        fields: [typeRow(.marker, written: false)] + placeRows + [
            collisionRow,
            .optionalInteger("collisionPriority", \.collisionPriority, in: -1_000_000...1_000_000,
                             doc: "Among optional markers that collide, the higher is kept. Default: none."),
            zIndexRow,
            .ref("anchor", "anchor", doc: "The point of the content on the position; default the bottom centre.",
                 read: { r, node, path, m in if let a = r.read(anchor, node, path) { m.anchor = a } },
                 write: { $0.anchor == .bottom ? nil : anchor.write($0.anchor) }),
            .ref("content", "view", doc: "The marker's view; left out, the default pin.",
                 read: { r, node, path, m in m.content = r.view(node, path, depth: 0) }, write: { $0.content.map(SceneEncoder.view) }),
            .ref("popover", "popover", doc: "A popover on the marker.",
                 read: { r, node, path, m in m.popover = r.read(popover, node, path) }, write: { $0.popover.map(popover.write) }),
            .custom("onTap", schema: .object([("const", .string("togglePopover"))]), type: "\"togglePopover\"",
                    doc: "What a tap on the marker does: open or close its popover.",
                    read: { r, node, path, m in
                        if r.string(node, path) == "togglePopover" {
                            m.tapTogglesPopover = true
                        } else if case .string(let s) = node.value {
                            r.report(node, path, "expected \"togglePopover\", found \"\(shown(s))\"")
                        }
                    },
                    write: { $0.tapTogglesPopover ? .string("togglePopover") : nil }),
        ],
        check: { r, node, path, m in
            let members = Members(node)
            if m.tapTogglesPopover, members["popover"] == nil {
                r.report(members["onTap"], path + ".onTap", "\"togglePopover\" needs a \"popover\" on the marker")
            }
        })

    static let marker3D: ObjectTable<MarkerSpec> = ObjectTable<MarkerSpec>(
        name: "marker3D", doc: "A Marker3D: a pin, an image or a view standing at a position, optionally on a line down to the ground.",
        initial: noMarker, required: ["position"], requiredMessage: "a marker needs a \"position\"",
        fields: [typeRow(.marker3D, written: true)] + placeRows + [
            collisionRow,
            zIndexRow,
            .bool("extruded", \.extruded, initial: noMarker, doc: "A line down to the ground."),
            .bool("drawsWhenOccluded", \.drawsWhenOccluded, initial: noMarker, doc: "Drawn where the ground hides it."),
            .bool("sizePreserved", \.sizePreserved, initial: noMarker, doc: "The same size at any distance."),
            .custom("label", schema: .object([("type", .string("string")), ("maxLength", .number(Double(Reader.maxTextLength)))]), type: "string",
                    doc: "Text beside it.", read: { r, node, path, m in m.label = r.text(node, path) ?? "" },
                    write: { $0.label.isEmpty ? nil : .string($0.label) }),
            .custom("style", schema: SceneSchema.fragment(##"{"oneOf": [{"const": "default"}, {"type": "object", "additionalProperties": false, "required": ["pin"], "properties": {"pin": {"$ref": "#/$defs/pin"}}}, {"type": "object", "additionalProperties": false, "required": ["image"], "properties": {"image": {"$ref": "#/$defs/image"}}}, {"type": "object", "additionalProperties": false, "required": ["view"], "properties": {"view": {"$ref": "#/$defs/view"}}}]}"##),
                    type: "\"default\" or {pin} | {image} | {view}", default: "\"default\"", doc: "What stands at the position.",
                    read: { r, node, path, m in m.style = r.marker3DStyle(node, path) },
                    write: { m in
                        switch m.style {
                        case .default: nil
                        case .pin(let p): .object([("pin", pin.write(p))])
                        case .image(let i): .object([("image", SceneEncoder.image(i))])
                        case .view(let v): .object([("view", SceneEncoder.view(v))])
                        }
                    }),
        ])

    /// A popover's members, in the order they are written.
    static let popoverRows: [Field<PopoverSpec>] = [
        .bool("isOpen", \.isOpen, initial: noPopover, doc: "Shown."),
        .bool("autoClose", \.autoClose, initial: noPopover, doc: "A tap elsewhere closes it."),
        .bool("autoPan", \.autoPan, initial: noPopover, doc: "Opening it moves the camera to show it."),
        .number("padding", \.padding, in: 0...200, initial: noPopover, doc: "Points between its edge and its content."),
        .viewColor("backgroundColor", \.backgroundColor, initial: noPopover, default: "\"white\"", doc: "The bubble's colour."),
        .number("cornerRadius", \.cornerRadius, in: 0...200, initial: noPopover, doc: "The bubble's corners, points."),
    ]
    static let popoverContentRow = Field<PopoverSpec>.ref("content", "view", doc: "What it shows.",
        read: { r, node, path, p in if let v = r.view(node, path, depth: 0) { p.content = v } }, write: { SceneEncoder.view($0.content) })

    static let popover: ObjectTable<PopoverSpec> = ObjectTable<PopoverSpec>(
        name: "popover", doc: "A popover on a marker (the SDK's popover modifier): a bubble with a stem, over the marker.",
        initial: noPopover, required: ["content"], requiredMessage: "a popover needs \"content\" (a view)",
        fields: popoverRows + [
            .ref("animation", "animation", doc: "How the popover fades in when a tap opens it.",
                 read: { r, node, path, p in p.animation = r.read(animation, node, path)?.animation }, write: { $0.animation.map { animation.write(AnimationMembers($0)) } }),
            popoverContentRow,
        ])

    /// (No "animation": nothing in a scene file opens a standalone popover.)
    static let standalonePopover: ObjectTable<MarkerSpec> = ObjectTable<MarkerSpec>(
        name: "standalonePopover", doc: "A popover at a position of its own (the SDK's Popover(positionAnchor:…)): its stem's tip on the position, moved by offset.",
        initial: noMarker, required: ["content"], requiredMessage: "a popover needs \"content\" (a view)",
        fields: [typeRow(.popover, written: true)] + placeRows + [
            .custom("offset", schema: SceneSchema.fragment(##"{"type": "object", "additionalProperties": false, "properties": {"width": {"type": "number", "minimum": -10000, "maximum": 10000}, "height": {"type": "number", "minimum": -10000, "maximum": 10000}}}"##),
                    type: "{width, height}", unit: "points", doc: "The stem's tip from the position.",
                    read: { r, node, path, m in
                        if let o = r.object(node, path, allowed: ["width", "height"]) {
                            m.popoverOffset = Size(width: r.number(o["width"], path + ".width", in: -10_000...10_000) ?? 0,
                                                   height: r.number(o["height"], path + ".height", in: -10_000...10_000) ?? 0)
                        }
                    },
                    write: { $0.popoverOffset == .zero ? nil : .object([("width", .number($0.popoverOffset.width)), ("height", .number($0.popoverOffset.height))]) }),
        ] + (popoverRows + [popoverContentRow]).map { $0.lifted(\MarkerSpec.standalonePopover) },
        check: { r, node, path, m in
            if Members(node)["position"] == nil { r.report(node, path, "a marker needs a \"position\"") }
            m.popover = m.standalonePopover
        })

    static let pin: ObjectTable<PinSpec> = ObjectTable<PinSpec>(
        name: "pin", doc: "A pin (the SDK's PinConfiguration): a balloon with a glyph.", initial: PinSpec(),
        fields: [
            .optionalViewColor("background", \.background, doc: "The balloon's fill; default red."),
            .optionalViewColor("border", \.border, doc: "Its outline; default a darker red."),
            .optionalViewColor("glyphColor", \.glyphColor, doc: "The dot's (or glyph's) colour."),
            .number("scale", \.scale, in: 0.1...10, initial: PinSpec(), doc: "Its size, 1 the standard pin."),
            .ref("glyph", "view", doc: "A view in place of the dot.",
                 read: { r, node, path, p in p.glyph = r.view(node, path, depth: r.viewDepth + 1) }, write: { $0.glyph.map(SceneEncoder.view) }),
        ])

    static let animation: ObjectTable<AnimationMembers> = ObjectTable<AnimationMembers>(
        name: "animation", doc: "An animation: a curve and its timing, as SwiftUI's Animation.", initial: AnimationMembers(),
        fields: animationRows, check: { r, node, path, a in a.animation = r.animation(a, Members(node), node, path) })

    static let appearAnimation: ObjectTable<AnimationMembers> = ObjectTable<AnimationMembers>(
        name: "appearAnimation", doc: "The animatable modifiers before it start from \"from\" when the view appears and animate to their own values.",
        initial: AnimationMembers(), required: ["from"],
        requiredMessage: "an animation needs \"from\": the animatable modifiers' values when the view appears, e.g. [{\"opacity\": 0}]",
        fields: animationRows + [
            .custom("from", schema: SceneSchema.fragment(##"{"type": "array", "maxItems": 16, "items": {"$ref": "#/$defs/modifier"}}"##),
                    type: "array of modifiers (at most 16)", doc: "The animatable modifiers' values when the view appears (opacity, scaleEffect, offset, rotationEffect, foregroundStyle).",
                    read: { r, node, path, a in a.fromItems = r.array(node, path, max: 16) ?? [] },
                    write: { .array($0.from.map(SceneEncoder.modifier)) }),
        ],
        check: { r, node, path, a in a.animation = r.animation(a, Members(node), node, path) })

    static let animationRows: [Field<AnimationMembers>] = [
        .custom("curve", schema: .object([("enum", .array(AnimationCurveName.allCases.map { .string($0.rawValue) }))]),
                type: AnimationCurveName.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " | "), default: "\"easeInOut\"", doc: "The curve.",
                read: { r, node, path, a in a.curve = r.choice(node, path, default: a.curve) }, write: { .string($0.curve.rawValue) }),
        .optionalNumber("duration", \.duration, in: 0.001...SceneFile.maxTime, unit: "seconds", default: "0.35", doc: "How long one run takes (not for spring)."),
        .optionalNumber("response", \.response, in: 0.01...60, unit: "seconds", default: "0.55", doc: "A spring's period."),
        .optionalNumber("dampingFraction", \.dampingFraction, in: 0.01...10, default: "0.825", doc: "A spring's damping: below 1 it overshoots."),
        .optionalNumber("delay", \.delay, in: 0...SceneFile.maxTime, unit: "seconds", default: "0", doc: "Before it starts."),
        .optionalNumber("speed", \.speed, in: 0.01...100, default: "1", doc: "Faster above 1."),
        .custom("repeat", schema: SceneSchema.fragment(##"{"oneOf": [{"type": "integer", "minimum": 1, "maximum": 1000000}, {"const": "forever"}]}"##),
                type: "integer 1…1000000 or \"forever\"", doc: "How many runs.",
                read: { r, node, path, a in
                    if case .string(let s) = node.value {
                        if s == "forever" { a.repeatCount = Int.max } else { r.report(node, path, "expected a count or \"forever\", found \"\(shown(s))\"") }
                    } else {
                        a.repeatCount = r.integer(node, path, in: 1...1_000_000, default: 1)
                    }
                },
                write: { a in a.repeatCount.map { $0 == Int.max ? .string("forever") : .number(Double($0)) } }),
        .custom("autoreverses", schema: .object([("type", .string("boolean"))]), type: "boolean", default: "true",
                doc: "With repeat: every other run backwards.",
                read: { r, node, path, a in a.autoreverses = r.bool(node, path) }, write: { $0.autoreverses.map { .bool($0) } }),
    ]
}

/// An animation as written: its members, before they make an `Animation`.
struct AnimationMembers: Sendable {
    var curve = AnimationCurveName.easeInOut
    var duration: Double?
    var response: Double?
    var dampingFraction: Double?
    var delay: Double?
    var speed: Double?
    /// `Int.max` for "forever".
    var repeatCount: Int?
    var autoreverses: Bool?
    /// An appear animation's starting modifiers, and their nodes as read (the modifier reader
    /// reads them, knowing the view they modify).
    var from: [ModifierSpec] = []
    var fromItems: [JSONNode] = []
    var animation: Animation?

    init() {}

    init(_ a: Animation) {
        switch a.curve {
        case .spring(let r, let d):
            curve = .spring
            response = r
            dampingFraction = d
        case .bezier(let x1, let y1, let x2, let y2):
            curve = AnimationCurveName.allCases.first { $0.animation(duration: 1).curve == .bezier(x1, y1, x2, y2) } ?? .easeInOut
            duration = a.duration
        }
        if a.delay != 0 { delay = a.delay }
        if a.speed != 1 { speed = a.speed }
        repeatCount = a.repeats
        if a.repeats != nil, !a.autoreverses { autoreverses = false }
    }
}

extension Reader {
    /// A marker entry: its `type` picks the table (marker, marker3D or a standalone popover).
    mutating func marker(_ node: JSONNode, _ path: String) -> MarkerSpec? {
        var kind = MarkerSpec.Kind.marker
        if case .object(let members) = node.value, let t = members.first(where: { $0.key == "type" }) {
            kind = choice(t.value, path + ".type", default: .marker)
        }
        var spec: MarkerSpec?
        switch kind {
        case .marker: spec = read(SceneTables.marker, node, path)
        case .marker3D: spec = read(SceneTables.marker3D, node, path)
        case .popover: spec = read(SceneTables.standalonePopover, node, path)
        }
        spec?.kind = kind
        return spec
    }

    /// The animation an animation table's members make.
    mutating func animation(_ a: AnimationMembers, _ m: Members, _ node: JSONNode, _ path: String) -> Animation {
        var animation: Animation
        if a.curve == .spring {
            if m["duration"] != nil { report(m["duration"], path + ".duration", "a spring has a \"response\" and a \"dampingFraction\", not a duration") }
            animation = .spring(response: a.response ?? 0.55, dampingFraction: a.dampingFraction ?? 0.825)
        } else {
            if m["response"] != nil || m["dampingFraction"] != nil { report(node, path, "\"response\" and \"dampingFraction\" belong to \"curve\": \"spring\"") }
            animation = a.curve.animation(duration: a.duration ?? 0.35)
        }
        if let d = a.delay { animation = animation.delay(d) }
        if let s = a.speed { animation = animation.speed(s) }
        if let n = a.repeatCount {
            animation = n == Int.max ? animation.repeatForever(autoreverses: a.autoreverses ?? true) : animation.repeatCount(n, autoreverses: a.autoreverses ?? true)
        } else if m["repeat"] == nil, m["autoreverses"] != nil {
            report(m["autoreverses"], path + ".autoreverses", "\"autoreverses\" needs a \"repeat\"")
        }
        return animation
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
    mutating func text(_ node: JSONNode?, _ path: @autoclosure () -> String) -> String? {
        guard let node, let text = string(node, path()) else { return nil }
        let count = text.unicodeScalars.count
        guard count <= Self.maxTextLength else {
            report(node, path(), "a text may have at most \(Self.maxTextLength) characters, this one has \(count); shorten it")
            return nil
        }
        return text
    }


    /// A pin inside a view `depth` levels deep (its glyph is one deeper).
    mutating func pin(_ node: JSONNode, _ path: String, depth: Int) -> PinSpec? {
        let outer = viewDepth
        viewDepth = depth
        defer { viewDepth = outer }
        return read(SceneTables.pin, node, path)
    }


}

extension SceneEncoder {

    static func marker(_ s: MarkerSpec) -> JSONValue {
        switch s.kind {
        case .marker: SceneTables.marker.write(s)
        case .marker3D: SceneTables.marker3D.write(s)
        case .popover: SceneTables.standalonePopover.write(s)
        }
    }

    static func pin(_ p: PinSpec) -> JSONValue { SceneTables.pin.write(p) }

    static func image(_ i: ImageSpec) -> JSONValue { SceneTables.image.write(i) }
}
