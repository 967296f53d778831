// Markers, Marker3D styles, popovers, pins and images in scene files, both ways.
import TerrapinIO
import TerrapinGeo
import TerrapinRaster
import TerrapinTypography
import TerrapinViews

extension Reader {


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
        let position = position(m["position"], path + ".position")
        if m["position"] == nil { report(node, path, "a marker needs a \"position\"") }
        var spec = MarkerSpec(position: position ?? LatLngAltitude(latitude: 0, longitude: 0, altitude: 0))
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
                    report(t, path + ".onTap", "expected \"togglePopover\", found \"\(shown(s))\"")
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
    mutating func text(_ node: JSONNode?, _ path: @autoclosure () -> String) -> String? {
        guard let node, let text = string(node, path()) else { return nil }
        let count = text.unicodeScalars.count
        guard count <= Self.maxTextLength else {
            report(node, path(), "a text may have at most \(Self.maxTextLength) characters, this one has \(count); shorten it")
            return nil
        }
        return text
    }


    mutating func popover(_ node: JSONNode, _ path: String) -> PopoverSpec? {
        guard let m = object(node, path, allowed: Self.popoverKeys) else { return nil }
        return popoverFields(m, node, path)
    }


    /// A popover's fields, from a popover object or a standalone popover's marker entry.
    mutating func popoverFields(_ m: Members, _ node: JSONNode, _ path: String) -> PopoverSpec? {
        if m["content"] == nil { report(node, path, "a popover needs \"content\" (a view)") }
        let content = m["content"].flatMap { view($0, path + ".content", depth: 0) }
        var spec = PopoverSpec(content: content ?? ViewSpec(.spacer(minLength: nil)))
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
            report(node, path, "an image needs exactly one of \"systemName\" (a symbol) or \"file\" (a PNG, JPEG, WebP or SVG)")
            return nil
        }
        if let n = m["systemName"] {
            guard let name = string(n, path + ".systemName") else { return nil }
            guard Image.hasSystemName(name) else {
                let hint = Image.closestSystemNames(to: name, count: 1).first.map { "; did you mean \"\($0)\"?" } ?? ""
                report(n, path + ".systemName", "unknown symbol \"\(name)\"" + hint)
                return nil
            }
            return ImageSpec(systemName: name)
        }
        return fileName(m["file"], path + ".file").map { ImageSpec(file: $0) }
    }
}

extension SceneEncoder {

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
}
