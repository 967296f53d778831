// How a label is placed and its icon drawn: what a style's symbol layer says of one label
// (`BasemapSymbol`) and what the map then places (`LabelStyle`), one set of fields for both.
import TerrapinRaster

public struct SymbolPlacement: Sendable, Equatable {
    /// What the place is (the feature's `class`, else `kind`, else `subclass`: OpenMapTiles',
    /// Protomaps' and Shortbread's words), for its card.
    public var kind: String?
    /// Placed whatever it overlaps (`text-allow-overlap`, and `icon-allow-overlap` for its
    /// icon); it still hides later labels.
    public var allowOverlap = false
    /// Keeps no space from later labels (`text-ignore-placement`, and `icon-ignore-placement`
    /// for its icon): they may overlap it.
    public var ignorePlacement = false
    /// The icon's opacity (`icon-opacity`).
    public var iconOpacity = 1.0
    /// Degrees clockwise the icon is turned about its centre (`icon-rotate`).
    public var iconRotate = 0.0
    /// An icon along a line kept upright (`icon-keep-upright`): the line's direction there,
    /// degrees clockwise from east on the map; where it runs leftwards on screen the icon is
    /// turned half round. Nil: never turned so.
    public var iconLineTurn: Double?
    /// The icon lies flat on the map under pitch, foreshortened with the ground
    /// (`icon-pitch-alignment` "map", or "auto" where the icon turns with the map), rather than
    /// standing upright; it collides by its upright box.
    public var iconFlat = false
    /// An icon centred on the anchor (`icon-image` from the style's sprite), drawn `iconScale`
    /// points per pixel.
    public var icon: Pixmap?
    public var iconScale = 1.0
    /// Where the anchor sits on the icon (`icon-anchor`: "center", "bottom", …).
    public var iconAnchor = "center"
    /// Drawn, within its layer, from the top of the view down rather than in placement order
    /// (`symbol-z-order`: "viewport-y", or "auto" without a sort key where the layer's symbols
    /// may overlap: an allow-overlap or ignore-placement property is true).
    public var sortsByY = false
    /// Degrees clockwise a point's text turns about its point (`text-rotate`); its collision
    /// box is the turned text's bounding box.
    public var textRotate = 0.0
    /// A point's text turns with the map (`text-rotation-alignment: map`): by the camera's
    /// heading as well as `textRotate`. Default false (it stays level on the screen).
    public var rotatesWithMap = false
    /// A point's icon turns with the map (`icon-rotation-alignment: map`): by the camera's
    /// heading as well as `iconRotate`. Default false.
    public var iconRotatesWithMap = false
    /// `icon-text-fit` ("none", "width", "height", "both"): the icon stretched over the text's
    /// box in those directions (centred on it in the others), `iconTextFitPadding` beyond it
    /// (top, right, bottom, left: `icon-text-fit-padding`).
    public var iconTextFit = "none"
    public var iconTextFitPadding = [0.0, 0.0, 0.0, 0.0]
    /// Which parts of the icon stretch when it is fitted (the sprite's `stretchX`, `stretchY`,
    /// `content`; nil: all of it, evenly).
    public var iconStretch: IconStretch?
    /// For labels along lines: the index of the anchor among the line's points.
    public var lineAnchor = 0
    /// Points over which the halo's outer edge fades (`text-halo-blur`); 0: a sharp edge.
    public var haloBlur = 0.0
    /// Most the text turns between neighbouring glyphs along the line (degrees,
    /// `text-max-angle`); past it the label is set straight.
    public var maxAngle = 45.0
    /// The glyphs lie flat on the map under pitch, foreshortened with the ground
    /// (`text-pitch-alignment` "map", MapLibre's default for line labels), rather than standing
    /// upright: a line's label along its curve, a point's about its anchor (colliding by its
    /// upright box, as MapLibre's point labels do).
    public var flat = false
    /// How wrapped lines align: "left", "center" (the default) or "right" (`text-justify`; a
    /// style's "auto" resolved by the anchor).
    public var justify = "center"
    /// Images set in the text (a `format` text-field's `["image", …]` sections), each in the
    /// place of its code point.
    public var inlineImages: [InlineImage] = []
    /// Sections of the text aligned in their line on their own (a `format` text-field's
    /// `vertical-align`), as code point ranges of the text.
    public var sectionAligns: [SectionAlign] = []

    public init() {}
}

/// An image set in a label's text (a `format` section's `["image", name]` from the sprite).
public struct InlineImage: Sendable, Equatable {
    /// Its code point in the label's text (U+FFFC there).
    public var index: Int
    public var pixels: Pixmap
    /// Its sprite's pixels to one of its display pixels (2 in an @2x sprite).
    public var pixelRatio: Double
    /// Points each of its display pixels is drawn: the text's size over the size the tile laid
    /// it out at, as MapLibre scales an image in text (an image section's `font-scale` is not
    /// read, as MapLibre reads none).
    public var scale: Double
    /// `vertical-align`: "bottom" (the default), "center" or "top".
    public var align = "bottom"
    /// `text-opacity`.
    public var opacity = 1.0
    /// Sampled smoothly even where the view is at rest (the text's size follows the zoom, as
    /// MapLibre then samples its image atlas linearly); else its nearest pixels, unless the
    /// label is turned or scaled.
    public var smooth = false

    public init(index: Int, pixels: Pixmap, pixelRatio: Double = 1, scale: Double, align: String = "bottom", opacity: Double = 1) {
        self.index = index
        self.pixels = pixels
        self.pixelRatio = pixelRatio.isFinite ? max(1e-3, pixelRatio) : 1
        self.scale = scale
        self.align = align
        self.opacity = opacity
    }
}

/// Code points `start..<end` of a label's text aligned in their line as `align` says
/// ("bottom", "center", "top").
public struct SectionAlign: Sendable, Equatable {
    public var start: Int, end: Int
    public var align: String

    public init(start: Int, end: Int, align: String) {
        (self.start, self.end, self.align) = (start, end, align)
    }
}

/// A value placed as a style's symbol is (a style's symbol, the map's label): its
/// `placement`'s fields read and written as its own (`style.allowOverlap`, `\.iconRotate`).
@dynamicMemberLookup
public protocol SymbolPlaced {
    var placement: SymbolPlacement { get set }
}

extension SymbolPlaced {
    /// (Inlinable: a label's fields are read in the resolver's loops, where a key path applied
    /// at run time would cost a call each.)
    @inlinable
    public subscript<T>(dynamicMember path: WritableKeyPath<SymbolPlacement, T>) -> T {
        get { placement[keyPath: path] }
        set { placement[keyPath: path] = newValue }
    }
}
