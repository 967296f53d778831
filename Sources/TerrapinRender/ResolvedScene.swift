// The resolved map: what is shown where, and why the rest is hidden. Pure data, printable as
// stable text (numbers in points, to 0.1).
import TerrapinGeo
import TerrapinGeometry
import TerrapinBasemap
import TerrapinScene
import TerrapinRaster
import TerrapinTypography
import TerrapinViews

public enum HiddenReason: Equatable, Sendable, CustomStringConvertible {
    case collided(with: Int)
    case occluded
    case offScreen
    case behindCamera
    case invalidPosition
    /// A basemap label hidden under a label that won.
    case collidedWithLabel(Int)
    /// A model whose file could not be read (the message says why).
    case notLoaded(String)
    /// A basemap label along a line that, on screen, is too short for its text or bends more
    /// than the style's `text-max-angle` under it (MapLibre hides these too).
    case doesNotFitItsLine

    public var description: String {
        switch self {
        case .collided(let other): "collided with marker \(other)"
        case .occluded: "occluded"
        case .offScreen: "off-screen"
        case .behindCamera: "behind the camera"
        case .invalidPosition: "invalid position"
        case .collidedWithLabel(let other): "collided with label \(other)"
        case .notLoaded(let message): "not loaded: \(message)"
        case .doesNotFitItsLine: "does not fit its line"
        }
    }
}

public struct ResolvedMarker {
    /// Declaration order in the map content.
    public let index: Int
    public let label: String
    /// Where the position lands on the image (points) and its depth (metres), if in front of the eye.
    public let anchor: ScreenPoint?
    /// The content's box in points (the collision box).
    public let box: Rect
    /// Height above the ellipsoid the altitude mode resolved to.
    public let altitude: Double
    /// Where the ground under the position lands, for a marker above the ground (its leader
    /// line runs from here to the anchor); nil for markers on the ground.
    public var groundAnchor: ScreenPoint? = nil
    /// Drawing scale of the content (Marker3D markers shrink and grow with distance).
    public var scale: Double = 1
    /// A Marker3D's label box (beneath its anchor), part of its collision box.
    public var labelBox: Rect? = nil
    /// The anchor of a standalone popover: no content, in no collision or draw order.
    public var isPopoverAnchor = false
    public internal(set) var hidden: HiddenReason?
    public var isShown: Bool { hidden == nil }
    /// Occluded, but drawn dimmed (`occludedMarkers(.dimmed)`): still `hidden` for collision.
    public internal(set) var dimmed = false
    /// What collides: the content's box with the label's.
    public var collisionBox: Rect { labelBox.map { box.union($0) } ?? box }
}

public struct ResolvedPopover {
    /// The marker it is on, or for a standalone popover its anchor's index.
    public let markerIndex: Int
    public var isStandalone = false
    /// The bubble (without its stem) and the stem's tip, in points.
    public let bubble: Rect
    public let tip: Point
    /// The bubble's paint, from its `PopoverStyle`.
    public let style: PopoverPaint
    /// 1, or less while it fades in: opened inside `withAnimation`, it fades in (SwiftUI's
    /// default transition) over that animation from the time it opened.
    public var opacity = 1.0
}

/// A popover bubble's paint, resolved from its `PopoverStyle` (whose defaults are the SDK's).
public struct PopoverPaint: Sendable {
    public let padding: Double
    public let background: RGBAColor
    public let cornerRadius: Double
    public let shadowColor: RGBAColor
    public let shadowRadius: Double
    public let shadowOffset: Point

    init(_ style: PopoverStyle) {
        padding = style.padding
        background = style.backgroundColor.rgba
        cornerRadius = style.borderRadius
        shadowColor = style.shadow.color.rgba
        shadowRadius = style.shadow.radius
        shadowOffset = Point(style.shadow.x, style.shadow.y)
    }
}

/// A basemap label: where it lands and whether it shows.
public struct ResolvedLabel {
    public let index: Int
    public let name: String
    /// The text's box in points, centred on the projected position.
    public let box: Rect
    /// Metres from the eye along the view axis of its anchor (nil when it did not project).
    public var depth: Double? = nil
    public internal(set) var hidden: HiddenReason?
    public var isShown: Bool { hidden == nil }
    /// Its text as words: the images set in it (U+FFFC) left out, as a place's name and id
    /// read it.
    public var plainName: String {
        guard name.unicodeScalars.contains("\u{FFFC}") else { return name }
        return name.replacing("\u{FFFC}", with: "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
    let layout: TextLayout?
    /// Radians clockwise on screen (labels along lines); 0 for point labels.
    public var angle = 0.0
    /// A label along a line's curve: each glyph's centre on screen and its turn (radians
    /// clockwise), in the order of its layout's glyphs; empty for labels drawn in one piece.
    public var glyphs: [(centre: Point, angle: Double)] = []
    /// For a label set vertically: the point of each glyph's layout (over every line) that lands
    /// on its `glyphs` centre; empty: the middle of its advance on the layout's middle line.
    public var glyphOrigins: [Point] = []
    /// Whether its text and its icon show: a point label's may show one without the other
    /// (`text-optional`, `icon-optional`) where the other's place is taken.
    public var showsText = true
    public var showsIcon = true
    /// For a label laid flat on the map along its line: each glyph's x and y axes on screen
    /// (points a text point), foreshortened with the ground; empty where the glyphs stand upright.
    public var glyphAxes: [(x: Point, y: Point)] = []
    /// The images set in its text (its layout's `images`), placed as `glyphs`, `glyphOrigins`
    /// and `glyphAxes` place the glyphs, where the text is drawn glyph by glyph.
    public var imagePlaces: [(centre: Point, angle: Double)] = []
    public var imageOrigins: [Point] = []
    public var imageAxes: [(x: Point, y: Point)] = []
    /// For an icon laid flat on the map (`LabelStyle.iconFlat`): its x and y axes on screen at
    /// the anchor (points an icon point); nil where it stands upright.
    public var iconAxes: (x: Point, y: Point)?
    /// The style it is drawn with (nil: the scene's own label look).
    public var style: LabelStyle? = nil
    /// The projected anchor, and where the text's top-left sits when it is not the box's: beside
    /// an icon, at a variable anchor's place, or turned about the anchor.
    public var anchor: Point? = nil
    public var textOrigin: Point? = nil
    /// Radians clockwise the text turns about `anchor` (`text-rotate`), drawn from `textOrigin`.
    public var textRotation = 0.0
    /// Where an icon fitted to the text (`icon-text-fit`) is drawn, stretched; nil: the icon at
    /// its own size, centred on the anchor.
    public var iconBox: Rect? = nil
    /// How much a label that faces the viewer was scaled for its distance under pitch (1: as set).
    public var scale = 1.0
    /// Whether the label was turned half round to read upright (its line runs right to left on
    /// screen).
    public var flipped = false
    /// An icon with stretchable parts, fitted: its pieces (empty: the icon drawn whole).
    public var iconSlices: [IconSlice] = []
    /// How a style's label is painted (nil: the scene's own label look).
    public var paint: LabelPaint? { style.map(LabelPaint.init) }
}

/// A piece of an icon (`source`, in its pixels) and where it is drawn (`target`, in points).
public struct IconSlice: Sendable, Equatable {
    public let source: Rect
    public let target: Rect
}

/// A style's label as the painter draws it: the text's colour, its halo, its icon.
public struct LabelPaint {
    public var color: RGBAColor
    public var haloColor: RGBAColor
    /// Points; 0 draws no halo.
    public var haloWidth: Double
    /// Points over which the halo's outer edge fades; 0: a sharp edge.
    public var haloBlur: Double
    /// An icon centred on the anchor, drawn `iconScale` points per pixel.
    public var icon: Pixmap?
    public var iconScale: Double
    public var iconOpacity: Double
    /// Degrees clockwise, about the anchor.
    public var iconRotate: Double
    /// Where the anchor sits on the icon, as fractions of its width and height from its
    /// top-left (`icon-anchor`), and points the icon is moved from there (`icon-offset`).
    public var iconAnchor: (x: Double, y: Double)
    public var iconOffset: Size
    /// Parts of the text in their own colour, by code point.
    public var sections: [TextSection]
    /// The images set in the text, in the order of its layout's `TextLayoutOptions.images`.
    public var inlineImages: [InlineImage]

    /// The fill colour of the glyph of code point `cluster`.
    func color(ofCluster cluster: Int) -> RGBAColor {
        sections.last { $0.start <= cluster && cluster < $0.end }?.color ?? color
    }

    init(_ style: LabelStyle) {
        sections = style.sections
        inlineImages = style.inlineImages
        color = style.color
        haloColor = style.haloColor
        haloWidth = style.haloWidth
        haloBlur = style.haloBlur
        icon = style.icon
        iconScale = style.iconScale
        iconOpacity = style.iconOpacity
        iconRotate = style.iconRotate
        iconAnchor = MapResolver.anchorFraction(style.iconAnchor)
        iconOffset = style.iconOffset
    }
}

/// A style's circle facing the viewer, placed: its centre in points and the points a style
/// pixel is there (`circle-pitch-scale` "map": the view centre's distance over its own).
public struct ResolvedCircle: Sendable {
    public let circle: BasemapCircle
    public let at: Point
    public let scale: Double
}

/// The hand-off from resolve to draw: where everything lands, why what is hidden is hidden, and
/// the display list — the layers in painting order, each item with its screen box, depth, hit
/// shape and reason when hidden (`items`, printed by `displayList`). Drawing walks `items` and
/// makes no placement decision; taps are hit-tested on it, front to back.
public struct ResolvedScene: CustomStringConvertible {
    public let width: Double
    public let height: Double
    public let camera: Camera
    public internal(set) var markers: [ResolvedMarker]
    /// Indices of shown markers, back to front.
    public let drawOrder: [Int]
    public internal(set) var popovers: [ResolvedPopover]
    /// Basemap labels (hybrid and roadmap modes), in declaration order.
    public internal(set) var labels: [ResolvedLabel] = []
    /// The basemap's circles that face the viewer, where a draped view draws them round over
    /// the ground (a flat map drawn at the output's resolution draws them in its tiles).
    public internal(set) var circles: [ResolvedCircle] = []
    /// Polylines and polygons, in declaration order.
    public internal(set) var shapes: [ResolvedShape] = []
    /// 3D models, in declaration order.
    public internal(set) var models: [ResolvedModel] = []
    /// The map controls, placed (`Map.mapControls`).
    public internal(set) var controls: [ResolvedControl] = []
    /// The open place card, placed (nil: none is open).
    public internal(set) var placeCard: ResolvedPlaceCard? = nil
    /// The display list, in painting order (empty for a scene resolved for markers alone).
    public internal(set) var items: [DisplayItem] = []
    /// What the items draw: laid-out marker content, popovers, the ground's sources.
    var content: ResolvedContent? = nil
    /// The camera's projection for this size and ground, built once when the map was resolved
    /// (nil for a scene resolved for markers alone); painting and taps use it.
    public internal(set) var projection: Projection? = nil

    /// `projection`, or (resolved by hand, without it) the camera's projection on `content`'s ground.
    func viewProjection(_ content: ResolvedContent) -> Projection {
        projection ?? MapResolver.projection(camera, width: width, height: height, ground: content.ground)
    }

    /// The offscreen pixels drawing it at `scale` pixels per point asks for: each shown marker's
    /// and open popover's layers, shadows and clips (`ViewLayout.layerPixels`) and each popover
    /// bubble's shadow. What the render's work budget is checked against before drawing.
    public func layerPixels(scale: Double) -> Double {
        guard let content else { return 0 }
        let canvas = width * scale * height * scale
        var total = 0.0
        for m in markers where (m.isShown || m.dimmed) && m.index < content.prepared.count {
            total += content.prepared[m.index].layout.layerPixels(scale: scale * m.scale, canvasPixels: canvas)
        }
        for p in popovers where p.markerIndex < content.prepared.count {
            let prepared = content.prepared[p.markerIndex]
            total += prepared.popover?.layerPixels(scale: scale, canvasPixels: canvas) ?? 0
            let sigma = min(Canvas.maxShadowSigma, p.style.shadowRadius * scale)
            total += 3 * (p.bubble.width * scale + 6 * sigma) * (p.bubble.height * scale + 6 * sigma)
        }
        return total
    }

    /// Most places named in missing-character warnings; the rest are counted in one line.
    static let maxMissingCharacterPlaces = 20

    /// What is drawn around: characters no installed font covers, one warning for each place
    /// they are in (marker content, its popover, a Marker3D label, a basemap label, the
    /// attribution), naming the place, the text and the code points; what models leave out or
    /// approximate, and models that could not be loaded.
    public var warnings: [String] {
        var places: [(String, [Character])] = []
        func add(_ place: @autoclosure () -> String, _ characters: [Character]) {
            if !characters.isEmpty { places.append((place(), characters)) }
        }
        func quoted(_ text: String) -> String { "\"" + (text.count > 40 ? text.prefix(40) + "…" : text) + "\"" }
        for (i, p) in (content?.prepared ?? []).enumerated() {
            add("marker \(i) \(quoted(p.label))", p.layout.missingCharacters)
            if let popover = p.popover { add("the popover of marker \(i)", popover.missingCharacters) }
            if let label = p.labelLayout { add("the label of marker \(i) \(quoted(label.lines.map(\.text).joined(separator: " ")))", label.missingCharacters) }
        }
        for l in labels where l.isShown { add("basemap label \(quoted(l.name))", l.layout?.missingCharacters ?? []) }
        add("the attribution", content?.attribution?.missingCharacters ?? [])
        var out = places.prefix(Self.maxMissingCharacterPlaces).compactMap { place, characters in
            TextLayout.missingWarning(characters).map { "\(place): \($0)" }
        }
        if places.count > Self.maxMissingCharacterPlaces {
            out.append("\(places.count - Self.maxMissingCharacterPlaces) more places have characters no installed font covers")
        }
        // What a model's file has that is not drawn (skins, animations, lines…), and models
        // that could not be loaded.
        for m in models {
            if case .notLoaded(let message)? = m.hidden { out.append("model \(m.index) \"\(m.name)\" is not drawn: \(message)") }
            for w in m.placed?.asset.warnings ?? [] { out.append("model \(m.index) \"\(m.name)\": \(w)") }
        }
        return out
    }

    public var description: String {
        func f(_ v: Double) -> String { String(format1(v)) }
        var lines = ["map \(f(width))x\(f(height)) camera center \(format6(camera.center.latitude)),\(format6(camera.center.longitude)) "
                     + "heading \(f(camera.heading)) tilt \(f(camera.tilt)) range \(f(camera.range))"]
        for m in markers {
            var where_ = m.anchor.map { "anchor \(f($0.x)),\(f($0.y)) box \(f(m.box.minX)),\(f(m.box.minY)) \(f(m.box.width))x\(f(m.box.height))" } ?? "no anchor"
            if let g = m.groundAnchor { where_ += ", leader from \(f(g.x)),\(f(g.y))" }
            if m.scale != 1 { where_ += ", scale \(f(m.scale))" }
            if let l = m.labelBox { where_ += ", label \(f(l.minX)),\(f(l.minY)) \(f(l.width))x\(f(l.height))" }
            if m.isPopoverAnchor {
                lines.append("popover anchor \(m.index) \"\(m.label)\": " + (m.anchor.map { "anchor \(f($0.x)),\(f($0.y))" } ?? "no anchor (\(m.hidden.map(\.description) ?? ""))"))
                continue
            }
            lines.append("marker \(m.index) \"\(m.label)\": " + (m.dimmed ? "shown dimmed (occluded)" : m.hidden.map { "hidden (\($0))" } ?? "shown") + ", " + where_)
        }
        lines.append("draw order: " + drawOrder.map(String.init).joined(separator: ", "))
        var away = 0
        for l in labels {
            // A basemap's labels beyond the view are counted, not listed.
            if l.style != nil, l.hidden == .offScreen || l.hidden == .behindCamera { away += 1; continue }
            let from = l.style.map { " [\($0.layer)]" } ?? ""
            let turned = !l.glyphAxes.isEmpty && (l.style?.line.count ?? 0) < 2 ? ", laid flat on the map about its point (\(l.glyphs.count) glyphs)"
                : !l.glyphs.isEmpty ? ", along its line's curve (\(l.glyphs.count) glyphs\(l.glyphAxes.isEmpty ? "" : ", laid flat on the map"))" : l.angle != 0 ? ", turned \(f(l.angle * 180 / Double.pi))°" : ""
            // (An image set in the text, U+FFFC there, printed as "[image]".)
            lines.append("label \(l.index) \"\(l.name.replacing("\u{FFFC}", with: "[image]"))\"\(from): " + (l.hidden.map { "hidden (\($0))" } ?? "shown")
                         + ", box \(f(l.box.minX)),\(f(l.box.minY)) \(f(l.box.width))x\(f(l.box.height))" + turned
                         + (l.flipped ? ", flipped to read upright" : "")
                         + (l.scale != 1 ? ", scaled ×\(f(l.scale)) for its distance" : ""))
        }
        if away > 0 { lines.append("\(away) basemap labels off-screen or behind the camera") }
        for p in popovers {
            lines.append((p.isStandalone ? "standalone popover \(p.markerIndex)" : "popover on marker \(p.markerIndex)") + ": bubble \(f(p.bubble.minX)),\(f(p.bubble.minY)) \(f(p.bubble.width))x\(f(p.bubble.height)), tip \(f(p.tip.x)),\(f(p.tip.y))")
        }
        return lines.joined(separator: "\n")
    }
}

extension ResolvedScene {
    /// What `description` says, as JSON for programs (`terrapin inspect --json`): points and
    /// metres unrounded, hidden markers with the reason and the marker or label that won.
    public var json: JSONValue {
        func rect(_ r: Rect) -> JSONValue {
            .object([("x", .number(r.minX)), ("y", .number(r.minY)), ("width", .number(r.width)), ("height", .number(r.height))])
        }
        func point(_ p: ScreenPoint) -> JSONValue { .object([("x", .number(p.x)), ("y", .number(p.y)), ("depth", .number(p.depth))]) }
        func visibility(_ h: HiddenReason?) -> [(String, JSONValue)] {
            guard let h else { return [("shown", .bool(true))] }
            var o: [(String, JSONValue)] = [("shown", .bool(false)), ("hidden", .string(h.description))]
            if case .collided(let other) = h { o.append(("collidedWithMarker", .number(Double(other)))) }
            if case .collidedWithLabel(let other) = h { o.append(("collidedWithLabel", .number(Double(other)))) }
            return o
        }
        let c = camera
        var root: [(String, JSONValue)] = [
            ("width", .number(width)), ("height", .number(height)),
            ("camera", .object([("center", .object([("latitude", .number(c.center.latitude)), ("longitude", .number(c.center.longitude)),
                                                    ("altitude", .number(c.center.altitude))])),
                                ("heading", .number(c.heading)), ("tilt", .number(c.tilt)), ("roll", .number(c.roll)),
                                ("range", .number(c.range)), ("fieldOfView", .number(c.fieldOfView.degrees))])),
        ]
        root.append(("markers", .array(markers.map { m in
            var o: [(String, JSONValue)] = [("index", .number(Double(m.index))), ("label", .string(m.label))]
            if m.isPopoverAnchor { o.append(("popoverAnchor", .bool(true))) }
            o += visibility(m.hidden)
            if m.dimmed { o.append(("dimmed", .bool(true))) }
            o.append(("anchor", m.anchor.map(point) ?? .null))
            o.append(("box", rect(m.box)))
            o.append(("altitude", .number(m.altitude)))
            if let g = m.groundAnchor { o.append(("groundAnchor", point(g))) }
            if m.scale != 1 { o.append(("scale", .number(m.scale))) }
            if let l = m.labelBox { o.append(("labelBox", rect(l))) }
            return .object(o)
        })))
        let order = drawOrder.map { JSONValue.number(Double($0)) }
        root.append(("drawOrder", order.count <= 8 ? .array(order) : .numbers(drawOrder.map(Double.init))))
        root.append(("labels", .array(labels.map { l in
            .object([("index", .number(Double(l.index))), ("name", .string(l.name))] + visibility(l.hidden) + [("box", rect(l.box))])
        })))
        root.append(("popovers", .array(popovers.map { p in
            .object([("marker", .number(Double(p.markerIndex))), ("standalone", .bool(p.isStandalone)), ("bubble", rect(p.bubble)),
                     ("tip", .object([("x", .number(p.tip.x)), ("y", .number(p.tip.y))]))])
        })))
        return .object(root)
    }
}

func format1(_ v: Double) -> String {
    let r = (v * 10).rounded() / 10
    return r == r.rounded() ? String(Int(r)) : String(r)
}

func format6(_ v: Double) -> String {
    let r = (v * 1e6).rounded() / 1e6
    return String(r)
}
