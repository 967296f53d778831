// The map content model, as in the Maps 3D SDK: `Marker`, `Marker3D`, `Popover` and the
// @MapContentBuilder that collects them (`Map` itself is in Map.swift).
// These are values; TerrapinRender resolves and draws them.
import TerrapinBasemap
import TerrapinGeo
import TerrapinRaster
import TerrapinTypography
import TerrapinViews

public enum MapMode: String, Sendable, CaseIterable {
    /// Imagery when a scene has it, otherwise shaded relief; no basemap labels.
    case satellite
    /// As satellite, plus basemap labels.
    case hybrid
    /// A flat light map style with labels.
    case roadmap
}

/// How a marker takes part in collision (default `.required`).
public enum CollisionBehavior: String, Sendable, CaseIterable {
    /// Always shown; hides nothing.
    case required
    /// Always shown; hides optional markers (and basemap labels) it overlaps.
    case requiredAndHidesOptional
    /// Shown only where it overlaps no other shown marker; the higher priority wins.
    case optionalAndHidesLowerPriority
}

/// One item of map content.
public enum MapItem {
    case marker(Marker)
    case polyline(Polyline)
    case polygon(Polygon)
    /// Boxed: a model is the largest item (240 bytes inline), and every item of a map of
    /// markers would be that size (100,000 markers: 24 MB of items, 16 MB boxed).
    indirect case model(Model)
}

/// Marker3D's options (kept on the marker it becomes).
public struct LightweightOptions {
    public var extruded: Bool
    public var drawsWhenOccluded: Bool
    public var sizePreserved: Bool
    public var label: String
    /// Markers with equal keys share one rasterised sprite.
    public var spriteKey: String?
    /// The Marker3D style the content was made from (for writing scene files).
    public var style: Marker3D.Style = .default
}

/// The lightweight marker of the SDK, for large counts: its style is rasterised once per
/// distinct style and composited as a sprite, with an optional text label beneath.
public struct Marker3D: MapContent {
    /// How the marker looks: a struct with static members, as in the SDK 1.0 (`.default`,
    /// `.pin(_:)`, `.image(_:)`, `.viewSnapshot { … }`; 0.2 made it an enum, and call sites read
    /// the same).
    public struct Style {
        /// (Indirect: every marker carries one, so it is a pointer, not the largest payload.)
        public indirect enum Kind {
            case `default`
            case pin(Pin.Configuration)
            case image(Image)
            case viewSnapshot(AnyView)
        }
        public let kind: Kind

        /// The SDK's standard pin.
        public static var `default`: Style { Style(kind: .default) }
        /// A pin with your colours, scale and glyph.
        public static func pin(_ configuration: Pin.Configuration) -> Style { Style(kind: .pin(configuration)) }
        /// The image is the marker.
        public static func image(_ image: Image) -> Style { Style(kind: .image(image)) }
        /// The view hierarchy drawn into an image that is the marker.
        public static func viewSnapshot<V: View>(@ViewBuilder _ content: () -> V) -> Style { Style(kind: .viewSnapshot(AnyView(content()))) }
        public static func viewSnapshot(_ view: AnyView) -> Style { Style(kind: .viewSnapshot(view)) }
    }

    public var position: LatLngAltitude
    public var altitudeMode: AltitudeMode
    public var collisionBehavior: CollisionBehavior
    /// A line from the marker down to the ground (needs a non-clamped altitude mode). Default false.
    public var extruded: Bool
    /// Draw even where terrain hides it. Default false.
    public var drawsWhenOccluded: Bool
    /// False (default): the marker scales with camera distance (range / depth, 0.5…2);
    /// true: it keeps its screen size.
    public var sizePreserved: Bool
    public var zIndex: Int
    public var label: String
    public var style: Style
    public var popover: MarkerPopover?
    /// `.onTap`'s handler.
    public var tapAction: (() -> Void)?

    public init(position: LatLngAltitude, altitudeMode: AltitudeMode = .clampToGround, collisionBehavior: CollisionBehavior = .required,
                extruded: Bool = false, drawsWhenOccluded: Bool = false, sizePreserved: Bool = false, zIndex: Int = 0,
                label: String = "", style: Style = .default) {
        self.position = position
        self.altitudeMode = altitudeMode
        self.collisionBehavior = collisionBehavior
        self.extruded = extruded
        self.drawsWhenOccluded = drawsWhenOccluded
        self.sizePreserved = sizePreserved
        self.zIndex = zIndex
        self.label = label
        self.style = style
    }

    public var items: [MapItem] { [.marker(marker)] }

    /// The marker it draws: its style's content as a sprite, with the options kept.
    public var marker: Marker {
        let content: AnyView
        let key: String?
        switch style.kind {
        case .default: content = AnyView(Pin()); key = "pin:default"
        case .pin(let c):
            content = AnyView(Pin(configuration: c))
            key = c.glyph == nil ? "pin:\(c.backgroundColor.rgba)|\(c.borderColor.rgba)|\(c.glyphColor.rgba)|\(c.scale)" : nil
        case .image(let image): content = AnyView(image); key = image.spriteKey
        case .viewSnapshot(let view): content = AnyView(view); key = nil
        }
        // A tap handler rides on the content (the marker's hit shape is its content's).
        let tapped = tapAction.map { action in AnyView(content.onTapGesture(perform: action)) } ?? content
        var m = Marker(position: position, altitudeMode: altitudeMode, collisionBehavior: collisionBehavior, zIndex: zIndex) { tapped }
        m.popover = popover
        m.lightweight = LightweightOptions(extruded: extruded, drawsWhenOccluded: drawsWhenOccluded, sizePreserved: sizePreserved,
                                           label: label, spriteKey: key, style: style)
        return m
    }
}

public protocol MapContent {
    var items: [MapItem] { get }
}

@resultBuilder
public enum MapContentBuilder: ListBuilder {
    public typealias Element = MapItem
    public static func buildExpression(_ content: some MapContent) -> [MapItem] { content.items }
    /// The collected items as one piece of map content, so that helpers can be written
    /// `@MapContentBuilder var pins: some MapContent { … }`.
    public static func buildFinalResult(_ items: [MapItem]) -> MapItems { MapItems(items: items) }
}

extension ForEach: MapContent where Content: MapContent {
    public var items: [MapItem] { data.flatMap { content($0).items } }

    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @MapContentBuilder content: @escaping (Data.Element) -> MapItems) where Content == MapItems {
        self.init(data, id: id, elements: content)
    }
}

extension ForEach where Content == MapItems, Data.Element: Identifiable, ID == Data.Element.ID {
    public init(_ data: Data, @MapContentBuilder content: @escaping (Data.Element) -> MapItems) {
        self.init(data, id: \.id, content: content)
    }
}

extension ForEach where Content == MapItems, Data == Range<Int>, ID == Int {
    public init(_ data: Range<Int>, @MapContentBuilder content: @escaping (Int) -> MapItems) {
        self.init(data, id: \.self, content: content)
    }
}

/// A marker's popover behind a reference (never changed in place: setting a marker's popover
/// makes a new one, so markers keep value semantics).
final class PopoverStorage {
    let popover: MarkerPopover
    init(_ popover: MarkerPopover) { self.popover = popover }
}

/// One of two pieces of map content, as the SDK's `MapContentBuilder.buildEither` returns for
/// an `if`/`else`. Terrapin's builder gathers items into `MapItems` instead; this type is for
/// code that names it (a helper returning `EitherMapContent<Marker3D, Polyline>`).
public struct EitherMapContent<First: MapContent, Second: MapContent>: MapContent {
    enum Storage {
        case first(First)
        case second(Second)
    }
    let storage: Storage

    public init(first: First) { storage = .first(first) }
    public init(second: Second) { storage = .second(second) }

    public var items: [MapItem] {
        switch storage {
        case .first(let c): c.items
        case .second(let c): c.items
        }
    }
}

/// Map content built by a builder.
public struct MapItems: MapContent {
    public let items: [MapItem]
    public init(items: [MapItem]) { self.items = items }
}

/// A custom-view marker: a SwiftUI-style view anchored at a position.
public struct Marker: MapContent {
    public var position: LatLngAltitude
    /// Default `.clampToGround`.
    public var altitudeMode: AltitudeMode
    /// Default `.required`.
    public var collisionBehavior: CollisionBehavior
    /// Higher wins between optional markers; nil counts as 0.
    public var collisionPriority: Int?
    /// Higher draws in front and wins optional collisions after priority. Default 0.
    public var zIndex: Int
    /// The point of the content that sits on the position, in unit coordinates. Default
    /// `.bottom` (bottom centre: a pin's tail tip).
    public var anchor: UnitPoint
    public var content: AnyView
    /// Whether the content is the default pin (its own shape is its collision box).
    public let isDefaultPin: Bool
    /// The popover, held by reference: most markers have none, and a marker is kept for each
    /// in the map's items (inline, the optional popover was half of a marker's 296 bytes).
    public var popover: MarkerPopover? {
        get { popoverStorage?.popover }
        set { popoverStorage = newValue.map(PopoverStorage.init) }
    }
    private var popoverStorage: PopoverStorage?
    /// Set for markers made by `Marker3D`.
    public var lightweight: LightweightOptions?
    /// True for the anchor of a standalone `Popover`: a point with no content of its own, shown
    /// in no collision and no draw order; only its popover is drawn.
    public internal(set) var isPopoverAnchor = false

    public var items: [MapItem] { [.marker(self)] }

    public init<Content: View>(position: LatLngAltitude, altitudeMode: AltitudeMode = .clampToGround,
                               collisionBehavior: CollisionBehavior = .required, collisionPriority: Int? = nil,
                               zIndex: Int = 0, anchor: UnitPoint = .bottom, @ViewBuilder content: () -> Content) {
        self.position = position
        self.altitudeMode = altitudeMode
        self.collisionBehavior = collisionBehavior
        self.collisionPriority = collisionPriority
        self.zIndex = zIndex
        self.anchor = anchor
        self.content = AnyView(content())
        isDefaultPin = false
        lightweight = nil
    }

    /// A marker showing the default `Pin`.
    public init(position: LatLngAltitude, altitudeMode: AltitudeMode = .clampToGround,
                collisionBehavior: CollisionBehavior = .required, collisionPriority: Int? = nil, zIndex: Int = 0) {
        self.position = position
        self.altitudeMode = altitudeMode
        self.collisionBehavior = collisionBehavior
        self.collisionPriority = collisionPriority
        self.zIndex = zIndex
        anchor = .bottom
        content = AnyView(Pin())
        isDefaultPin = true
        lightweight = nil
    }

    /// Attaches a popover shown above the marker while `isOpen` is true.
    public func popover<Content: View>(isOpen: Binding<Bool>, autoClosedEnabled: Bool = true, autoPanEnabled: Bool = true,
                                       style: PopoverStyle = .default, @ViewBuilder content: () -> Content) -> Marker {
        var m = self
        m.popover = MarkerPopover(isOpen: isOpen, autoClosedEnabled: autoClosedEnabled, autoPanEnabled: autoPanEnabled,
                                  style: style, content: AnyView(content()))
        return m
    }
}

/// Map content a popover can be attached to (the SDK's `MapContentAnchorable`): `Marker`, `Marker3D`.
public protocol MapContentAnchorable {
    func popover<Content: View>(isOpen: Binding<Bool>, autoClosedEnabled: Bool, autoPanEnabled: Bool,
                                style: PopoverStyle, @ViewBuilder content: () -> Content) -> Self
}

extension Marker: MapContentAnchorable {}

extension Marker3D: MapContentAnchorable, MapContentTappable {
    /// Attaches a popover shown above the marker while `isOpen` is true.
    public func popover<Content: View>(isOpen: Binding<Bool>, autoClosedEnabled: Bool = true, autoPanEnabled: Bool = true,
                                       style: PopoverStyle = .default, @ViewBuilder content: () -> Content) -> Marker3D {
        var m = self
        m.popover = MarkerPopover(isOpen: isOpen, autoClosedEnabled: autoClosedEnabled, autoPanEnabled: autoPanEnabled,
                                  style: style, content: AnyView(content()))
        return m
    }

    public func onTap(_ action: @escaping () -> Void) -> Marker3D { var m = self; m.tapAction = action; return m }
}

extension Popover {
    /// The bubble's look.
    public func style(_ style: PopoverStyle) -> Popover { var p = self; p.style = style; return p }
}

/// The shadow of a popover (the SDK's top-level `Shadow(color:radius:x:y:)`).
public typealias Shadow = PopoverStyle.Shadow

extension PopoverStyle.Shadow {
    /// 25 % black, radius 4, 2 pt down.
    public static var `default`: Shadow { Shadow() }
}

/// A place name of the basemap (`.hybrid` and `.roadmap` modes): dark text with a white halo,
/// centred on its position. It takes part in collision as the lowest priority: a marker that
/// hides optionals (`requiredAndHidesOptional`, or a shown `optionalAndHidesLowerPriority`)
/// hides the labels it overlaps; between labels the more important wins, then the lower on
/// screen, then declaration order. `required` markers hide nothing, labels included.
public struct BasemapLabel: Sendable, Equatable {
    public var name: String
    public var position: LatLngAltitude
    /// 0 (a hamlet) … 3 (a region): the text size is 11 + 2 × importance points. Default 1.
    public var importance: Int
    /// How a vector basemap's style draws it; nil for labels a scene lists itself (drawn by
    /// importance, placed before the basemap's).
    public var style: LabelStyle?

    public init(_ name: String, position: LatLngAltitude, importance: Int = 1) {
        self.name = name
        self.position = position
        self.importance = max(0, min(3, importance))
    }

    /// A label of a vector basemap's symbol layer.
    public init(_ name: String, position: LatLngAltitude, style: LabelStyle) {
        self.name = name
        self.position = position
        importance = 1
        self.style = style
    }

    public static let maxCount = 10_000
}

/// Code points `start..<end` of a label's text, drawn in `color`.
public struct TextSection: Sendable, Equatable {
    public var start: Int
    public var end: Int
    public var color: RGBAColor
    public init(start: Int, end: Int, color: RGBAColor) {
        (self.start, self.end, self.color) = (start, end, color)
    }
}

/// How a label's text runs: in a line, or in columns read top to bottom (right to left).
public enum LabelWritingMode: String, Sendable, Equatable { case horizontal, vertical }

/// A basemap label's look and placement, from its style's symbol layer.
public struct LabelStyle: Sendable, Equatable, SymbolPlaced {
    /// How it is placed and its icon drawn: its fields read and written as this value's own
    /// (`SymbolPlaced`).
    public var placement = SymbolPlacement()

    /// The style at `k` times its size: the text, its wrap width, offset, letter spacing and
    /// padding, the icon and its fit padding (MapLibre's perspective scaling of labels that
    /// face the viewer; halos keep their width, as its shader keeps them).
    public func scaled(by k: Double) -> LabelStyle {
        var s = self
        s.font.size *= k
        s.maxWidth *= k
        s.offset = Size(width: offset.width * k, height: offset.height * k)
        s.letterSpacing *= k
        s.padding *= k
        s.iconRules?.iconPadding *= k
        s.iconScale *= k
        s.iconTextFitPadding = self.iconTextFitPadding.map { $0 * k }
        s.iconOffset = Size(width: iconOffset.width * k, height: iconOffset.height * k)
        s.mapTranslate = Size(width: mapTranslate.width * k, height: mapTranslate.height * k)
        s.iconMapTranslate = Size(width: iconMapTranslate.width * k, height: iconMapTranslate.height * k)
        s.variableAnchors = variableAnchors.map { VariableAnchor(anchor: $0.anchor, offset: Size(width: $0.offset.width * k, height: $0.offset.height * k), justify: $0.justify) }
        for i in s.inlineImages.indices { s.inlineImages[i].scale *= k }
        return s
    }

    public var font: FontSpec
    public var color: RGBAColor
    public var haloColor: RGBAColor
    /// Points.
    public var haloWidth: Double
    /// Points; 0 does not wrap.
    public var maxWidth: Double
    /// Points, x right and y down, from the anchor.
    public var offset: Size
    /// Where the anchor sits on the text: "center", "top", "bottom-left", …
    public var anchor: String
    /// A point's label that may sit on any of several sides of its point
    /// (`text-variable-anchor`): the places tried in order, the first that collides with
    /// nothing taken (the first, with `allowOverlap`). Empty: `anchor` and `offset` alone.
    public var variableAnchors: [VariableAnchor] = []
    /// A point label's text set vertically too (`text-writing-mode`): the ways tried, in order,
    /// the first whose place is free taken. Vertical applies to text with a character that
    /// stands upright in columns (CJK, kana, Hangul, …); empty: horizontal only.
    public var writingModes: [LabelWritingMode] = []
    /// Parts of the text drawn in their own colour (a style's `format` sections with a
    /// `text-color`), by code point; the rest is drawn in `color`.
    public var sections: [TextSection] = []
    /// Parts of the text set at their own multiple of the size (a style's `format` sections
    /// with a `font-scale`), by code point; the rest at 1.
    public var fontScales: [TextScale] = []
    /// Parts of the text in their own font (a style's `format` sections with a `text-font`),
    /// by code point; the rest in `font`.
    public var sectionFonts: [TextFont] = []
    /// For labels along a line: a second point along it (the label turns with the line on
    /// screen, kept upright).
    public var along: LatLngAltitude?
    /// For labels along a line: the line around the anchor, its glyphs set along its curve
    /// when it is long and straight enough on screen; `lineAnchor` is the anchor's index in it.
    public var line: [LatLngAltitude] = []
    /// Points between letters (`text-letter-spacing`, ems times the size).
    public var letterSpacing = 0.0
    /// Points around the collision box (`text-padding`); 0 for the scene's own labels.
    public var padding = 0.0
    /// Each line's height in ems, its glyphs centred in it (`text-line-height`); nil: the
    /// font's own line spacing. A style's labels get MapLibre's 1.2 unless it says otherwise.
    public var lineHeight: Double?
    /// Placement order, lower first. A style's labels: the layer's rank from the top of the
    /// style in millions, plus its `symbol-sort-key` (within ±100,000).
    public var priority: Double
    public var iconOffset = Size.zero
    /// The part of `offset` (and of each variable anchor's) that lies on the map (a style's
    /// `text-translate` with its anchor "map"): east and south as seen north up, turned with
    /// the camera's heading when resolved; and the part of `iconOffset` likewise
    /// (`icon-translate`).
    public var mapTranslate = Size.zero
    public var iconMapTranslate = Size.zero
    /// A point's text and icon placed each by its own rules and box (nil: placed together,
    /// by `allowOverlap`, `ignorePlacement` and `padding`).
    public var iconRules: IconRules?
    /// The style layer's id and the feature's id (for taps: `MapTapInfo` `.place`).
    public var layer: String
    public var featureID: UInt64?

    /// How the label is set: as MapLibre sets a style's labels — its glyph sheets' advances,
    /// no kerning, letter spacing, line height, and balanced lines within `maxWidth`.
    public var layoutOptions: TextLayoutOptions {
        var options = Self.layoutOptions(letterSpacing: letterSpacing, lineHeight: lineHeight)
        options.scales = fontScales
        options.fonts = sectionFonts
        options.images = self.inlineImages.map {
            TextImage(index: $0.index, width: Double($0.pixels.width) / $0.pixelRatio * $0.scale, height: Double($0.pixels.height) / $0.pixelRatio * $0.scale, scale: $0.scale,
                      align: TextVerticalAlign(rawValue: $0.align) ?? .bottom)
        }
        options.verticalAligns = self.sectionAligns.map { TextVerticalAlignSpan(start: $0.start, end: $0.end, TextVerticalAlign(rawValue: $0.align) ?? .bottom) }
        if maxWidth > 0 {
            options.maxWidth = maxWidth
            options.balanced = true
            options.alignment = self.justify == "left" ? .leading : self.justify == "right" ? .trailing : .center
        }
        return options
    }

    /// A style label's options on one line: `letterSpacing` points between letters.
    public static func layoutOptions(letterSpacing: Double, lineHeight: Double? = nil) -> TextLayoutOptions {
        var options = TextLayoutOptions()
        options.tracking = letterSpacing
        options.glyphSheetAdvances = true
        options.kerning = false
        options.lineHeight = lineHeight
        return options
    }

    /// `text-letter-spacing` (ems) at `size` points, in points, within −16…64.
    public static func letterSpacing(ems: Double, size: Double) -> Double {
        min(64, max(-16, ems.isFinite ? ems * size : 0))
    }

    public init(font: FontSpec, color: RGBAColor, haloColor: RGBAColor, haloWidth: Double, maxWidth: Double = 0,
                offset: Size = .zero, anchor: String = "center", along: LatLngAltitude? = nil, priority: Double = 0,
                layer: String = "", featureID: UInt64? = nil) {
        self.font = font
        self.color = color
        self.haloColor = haloColor
        self.haloWidth = haloWidth
        self.maxWidth = maxWidth
        self.offset = offset
        self.anchor = anchor
        self.along = along
        self.priority = priority
        self.layer = layer
        self.featureID = featureID
    }
}

/// One place a label's text may take about its point: where the point sits on the text
/// ("top-left", …), the text's offset from there in points (x right, y down), and how its
/// wrapped lines are justified ("left", "center", "right").
public struct VariableAnchor: Sendable, Equatable {
    public var anchor: String
    public var offset: Size
    public var justify: String

    public init(anchor: String, offset: Size, justify: String) {
        (self.anchor, self.offset, self.justify) = (anchor, offset, justify)
    }
}

/// How a marker the ground hides is drawn.
public enum OccludedMarkerStyle: Equatable, Sendable {
    /// Not drawn (the SDK's behaviour).
    case hidden
    /// Drawn at `opacity` (0…1), behind every visible marker; it takes no part in collision.
    case dimmed(opacity: Double)
}

public struct MarkerPopover {
    public var isOpen: Binding<Bool>
    public var autoClosedEnabled: Bool
    public var autoPanEnabled: Bool
    public var style: PopoverStyle
    public var content: AnyView
    /// Where the stem's tip sits relative to the anchor, in points (x right, y down); standalone
    /// popovers only. Default zero.
    public var offset = Size.zero
}

/// A popover at a position of its own, not on a marker (the SDK's standalone `Popover`): its
/// stem's tip sits on the projected `positionAnchor`, moved by `offset`. It is never hidden by
/// collision, is drawn above every marker, and closes on a tap elsewhere when
/// `autoClosedEnabled`; `autoPanEnabled` moves the camera so the open popover is fully visible.
public struct Popover: MapContent {
    public var positionAnchor: LatLngAltitude
    /// Default `.clampToGround`.
    public var altitudeMode: AltitudeMode
    public var isOpen: Binding<Bool>
    public var offset: Size
    public var autoClosedEnabled: Bool
    public var autoPanEnabled: Bool
    /// The bubble's look (Terrapin: the SDK styles standalone popovers with the defaults).
    public var style: PopoverStyle
    public var content: AnyView

    public init<Content: View>(positionAnchor: LatLngAltitude, altitudeMode: AltitudeMode = .clampToGround, isOpen: Binding<Bool>,
                               offset: Size = .zero, autoClosedEnabled: Bool = true, autoPanEnabled: Bool = true,
                               style: PopoverStyle = .default, @ViewBuilder content: () -> Content) {
        self.positionAnchor = positionAnchor
        self.altitudeMode = altitudeMode
        self.isOpen = isOpen
        self.offset = offset
        self.autoClosedEnabled = autoClosedEnabled
        self.autoPanEnabled = autoPanEnabled
        self.style = style
        self.content = AnyView(content())
    }

    public var items: [MapItem] {
        var anchor = Marker(position: positionAnchor, altitudeMode: altitudeMode, anchor: .center) { EmptyView() }
        anchor.popover = MarkerPopover(isOpen: isOpen, autoClosedEnabled: autoClosedEnabled, autoPanEnabled: autoPanEnabled,
                                       style: style, content: content, offset: offset)
        anchor.isPopoverAnchor = true
        return [.marker(anchor)]
    }
}

/// A popover's look. Defaults as in the SDK: padding 16, the system background (white),
/// corner radius 8, and a soft shadow.
public struct PopoverStyle {
    public struct Shadow {
        public var color: Color, radius: Double, x: Double, y: Double
        public init(color: Color = Color(white: 0, opacity: 0.25), radius: Double = 4, x: Double = 0, y: Double = 2) {
            self.color = color; self.radius = radius; self.x = x; self.y = y
        }
    }
    public var padding: Double
    public var backgroundColor: Color
    public var borderRadius: Double
    public var shadow: Shadow

    public init(padding: Double = 16, backgroundColor: Color = .white, borderRadius: Double = 8, shadow: Shadow = Shadow()) {
        (self.padding, self.backgroundColor, self.borderRadius, self.shadow) = (padding, backgroundColor, borderRadius, shadow)
    }

    public static var `default`: PopoverStyle { PopoverStyle() }
}

extension Marker: MapContentTappable {
    /// Runs `action` when the marker's content is tapped (as the SDK's sample taps a `Marker`).
    public func onTap(_ action: @escaping () -> Void) -> Marker {
        var m = self
        m.content = AnyView(content.onTapGesture(perform: action))
        return m
    }

    /// The lightweight marker's options on `Marker`, as one revision of the SDK's sample writes
    /// them (`Marker(position:…, label:, style: .pin(…))`): the same marker as `Marker3D`'s.
    public typealias Style = Marker3D.Style

    public init(position: LatLngAltitude, altitudeMode: AltitudeMode = .clampToGround, collisionBehavior: CollisionBehavior = .required,
                extruded: Bool = false, drawsWhenOccluded: Bool = false, sizePreserved: Bool = false, zIndex: Int = 0,
                label: String, style: Style) {
        self = Marker3D(position: position, altitudeMode: altitudeMode, collisionBehavior: collisionBehavior, extruded: extruded,
                        drawsWhenOccluded: drawsWhenOccluded, sizePreserved: sizePreserved, zIndex: zIndex, label: label, style: style).marker
    }
}
