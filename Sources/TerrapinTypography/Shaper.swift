// Itemisation and shaping of one paragraph; the only Swift file that calls HarfBuzz (the font
// a face shapes with, its metrics and cmap, and scripts are made here too: `HarfBuzzFont`).
//
// The paragraph's code points are split into runs of one bidi level, one script and one
// font. The font is chosen per grapheme cluster: a cluster shown as emoji (Unicode's
// Emoji_Presentation, a VS16 selector, a skin tone; not with VS15) takes the colour emoji face
// when it has every glyph; otherwise the requested face if it has every glyph of the cluster,
// otherwise the first fallback face (FontLibrary's order) that has them all, so a base letter
// and its marks never come from different fonts, and a ZWJ sequence, flag or keycap reaches
// HarfBuzz whole, to become one glyph. Each run is shaped by HarfBuzz with its direction,
// script and a language fixed per script (Han: the request's language, else inferred from the
// paragraph; never the process locale, so output does not depend on the environment).
// Kerning and ligatures are on (HarfBuzz's defaults). Positions stay in font units; layout
// scales them to a size.
import CHarfBuzz

/// One shaped glyph. `cluster` is the index of the first code point it belongs to.
public struct ShapedGlyph: Equatable, Sendable {
    public var glyph: UInt32
    public var cluster: Int
    /// In font units of the run's face.
    public var advance: Int32
    public var xOffset: Int32
    public var yOffset: Int32
}

public struct ShapedRun: Sendable {
    public var face: FontFace
    /// Code point indices (logical order) covered by the run.
    public var range: Range<Int>
    public var level: UInt8
    public var isRightToLeft: Bool { level % 2 == 1 }
    /// Glyphs in visual order within the run (HarfBuzz reverses right-to-left runs).
    public var glyphs: [ShapedGlyph]
}

public struct ShapedParagraph: Sendable {
    public var scalars: [Unicode.Scalar]
    public var runs: [ShapedRun]
    public var paragraphLevel: UInt8
    /// Characters no installed font covers (drawn as the primary font's .notdef box).
    public var missing: [Character]
    /// Grapheme cluster boundaries as code point indices (0 and scalars.count included).
    public var graphemeBoundaries: [Int]
    /// Code points before the paragraph in the text it was cut from (line breaks included).
    public var offset = 0
}

public enum Shaper {
    /// Code points of a paragraph (`range`, from its start) shaped with their own primary font.
    public struct FontSection: Sendable {
        public var range: Range<Int>
        public var face: FontFace
        public var request: FontRequest
        public init(range: Range<Int>, face: FontFace, request: FontRequest) {
            (self.range, self.face, self.request) = (range, face, request)
        }
    }

    /// Shapes one paragraph (no line breaks inside) with `primary` and fallbacks; a cluster
    /// starting in one of `sections` with that section's font first (the last section holding
    /// it wins).
    public static func shape(_ text: Substring, primary textPrimary: FontFace, request textRequest: FontRequest, library: FontLibrary = .shared,
                             direction: BaseDirection = .auto, kerning: Bool = true, sections: [FontSection] = []) -> ShapedParagraph {
        let scalars = Array(text.unicodeScalars)
        let language = paragraphLanguage(scalars, requested: textRequest.language)
        var boundaries = [0]
        var faces: [FontFace] = []
        faces.reserveCapacity(scalars.count)
        var missing: [Character] = []
        for character in text {
            let clusterScalars = character.unicodeScalars
            var primary = textPrimary, request = textRequest
            if !sections.isEmpty, let own = sections.last(where: { $0.range.contains(boundaries.last!) }) {
                primary = own.face
                request = own.request
            }
            let face: FontFace?
            if isEmojiCluster(character), let emoji = library.emojiFace(), clusterScalars.allSatisfy({ emoji.covers($0) || isIgnorable($0) }) {
                face = emoji
            } else if clusterScalars.allSatisfy({ primary.covers($0) || isIgnorable($0) }) {
                face = primary   // the fast path: the primary font has every glyph of the cluster
            } else {
                face = chooseFace(Array(clusterScalars), primary: primary, request: request, language: language, library: library)
            }
            // (U+FFFC stands for an inline object, an image, and is never drawn itself.)
            if face == nil, character != "\u{FFFC}" { missing.append(character) }
            let count = clusterScalars.count
            for _ in 0..<count { faces.append(face ?? primary) }
            boundaries.append(boundaries.last! + count)
        }
        let (levels, paragraphLevel) = Bidi.levels(scalars, base: direction)
        let scripts = resolvedScripts(scalars)

        var runs: [ShapedRun] = []
        var start = 0
        while start < scalars.count {
            var end = start + 1
            while end < scalars.count && levels[end] == levels[start] && scripts[end] == scripts[start] && faces[end] === faces[start] { end += 1 }
            var glyphs = shapeRun(scalars, start..<end, face: faces[start], script: scripts[start], rightToLeft: levels[start] % 2 == 1,
                                  kerning: kerning, language: language)
            // Control characters other than blanks (U+001C, …) have no glyph: not a .notdef box,
            // and no advance (as MapLibre, whose glyph sheets hold none, sets them).
            if scalars[start..<end].contains(where: isInvisibleControl) {
                glyphs.removeAll { scalars.indices.contains($0.cluster) && isInvisibleControl(scalars[$0.cluster]) }
            }
            runs.append(ShapedRun(face: faces[start], range: start..<end, level: levels[start], glyphs: glyphs))
            start = end
        }
        return ShapedParagraph(scalars: scalars, runs: runs, paragraphLevel: paragraphLevel, missing: missing, graphemeBoundaries: boundaries)
    }

    /// A control character that is not a blank (tab, line feed, …): drawn as nothing.
    static func isInvisibleControl(_ s: Unicode.Scalar) -> Bool {
        s.properties.generalCategory == .control && !s.properties.isWhitespace
    }

    /// Joiners and selectors need no glyph of their own for a font to cover a cluster.
    static func isIgnorable(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x200C, 0x200D, 0xFE00...0xFE0F, 0xE0100...0xE01EF, 0x200E, 0x200F, 0x2060...0x2064: true
        default: false
        }
    }

    /// Whether a grapheme cluster is shown as emoji: VS15 (U+FE0E) asks for text; VS16 (U+FE0F)
    /// for emoji when a scalar is an emoji; otherwise a scalar with Emoji_Presentation or a
    /// skin-tone modifier decides. Plain letters and digits never are (checked first, cheaply).
    public static func isEmojiCluster(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return false }
        if first.value < 0x2000 && scalars.count == 1 { return false }
        var selector16 = false
        for s in scalars {
            if s.value == 0xFE0E { return false }
            if s.value == 0xFE0F { selector16 = true }
        }
        if selector16 { return scalars.contains { $0.properties.isEmoji } }
        return scalars.contains { $0.properties.isEmojiPresentation || $0.properties.isEmojiModifier }
    }

    /// The language for Han characters: the request's, else Japanese when the paragraph has
    /// kana, Korean when it has Hangul, else nil (Simplified Chinese forms).
    static func paragraphLanguage(_ scalars: [Unicode.Scalar], requested: String?) -> String? {
        if let requested = FontLibrary.hanLanguage(requested) { return requested }
        var hangul = false
        for s in scalars {
            switch s.value {
            case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: return "ja"
            case 0xAC00...0xD7AF, 0x1100...0x11FF, 0x3130...0x318F: hangul = true
            default: break
            }
        }
        return hangul ? "ko" : nil
    }

    static func chooseFace(_ cluster: [Unicode.Scalar], primary: FontFace, request: FontRequest, language: String?, library: FontLibrary) -> FontFace? {
        // Joiners, selectors, spaces and controls do not decide the font: spaces take the
        // primary font's advance even between words of another script, as in browsers.
        let needed = cluster.filter { !isIgnorable($0) && !$0.properties.isWhitespace && $0.properties.generalCategory != .control }
        guard let first = needed.first(where: { !primary.covers($0) }) else { return primary }
        if let face = library.fallback(for: first, weight: request.weight, italic: request.italic, language: language), needed.allSatisfy(face.covers) {
            return face
        }
        return nil
    }

    /// HarfBuzz's script per code point; Common and Inherited take their neighbour's script.
    static func resolvedScripts(_ scalars: [Unicode.Scalar]) -> [hb_script_t] {
        let funcs = hb_unicode_funcs_get_default()
        var scripts = scalars.map { hb_unicode_script(funcs, $0.value) }
        let neutral: Set<UInt32> = [HB_SCRIPT_COMMON.rawValue, HB_SCRIPT_INHERITED.rawValue, HB_SCRIPT_UNKNOWN.rawValue]
        var last: hb_script_t? = nil
        for i in scripts.indices {
            if neutral.contains(scripts[i].rawValue) { if let last { scripts[i] = last } } else { last = scripts[i] }
        }
        // Leading neutrals take the first real script; a text with none (emoji, digits,
        // punctuation, joiners) is all Common, so a ZWJ sequence stays one run.
        let firstReal = scripts.first(where: { !neutral.contains($0.rawValue) }) ?? HB_SCRIPT_COMMON
        for i in scripts.indices where neutral.contains(scripts[i].rawValue) { scripts[i] = firstReal }
        return scripts
    }

    static func language(for script: hb_script_t, han: String? = nil) -> String {
        switch script.rawValue {
        case HB_SCRIPT_ARABIC.rawValue: "ar"
        case HB_SCRIPT_HEBREW.rawValue: "he"
        case HB_SCRIPT_DEVANAGARI.rawValue: "hi"
        case HB_SCRIPT_HAN.rawValue: han ?? "zh-Hans"
        case HB_SCRIPT_HIRAGANA.rawValue, HB_SCRIPT_KATAKANA.rawValue: "ja"
        case HB_SCRIPT_HANGUL.rawValue: "ko"
        case HB_SCRIPT_CYRILLIC.rawValue: "ru"
        case HB_SCRIPT_GREEK.rawValue: "el"
        case HB_SCRIPT_THAI.rawValue: "th"
        default: "en"
        }
    }

    static func shapeRun(_ scalars: [Unicode.Scalar], _ range: Range<Int>, face: FontFace, script: hb_script_t, rightToLeft: Bool,
                         kerning: Bool = true, language han: String? = nil) -> [ShapedGlyph] {
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        let codepoints = scalars.map { $0.value }
        codepoints.withUnsafeBufferPointer { hb_buffer_add_codepoints(buffer, $0.baseAddress, Int32($0.count), UInt32(range.lowerBound), Int32(range.count)) }
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, script)
        hb_buffer_set_language(buffer, hb_language_from_string(language(for: script, han: han), -1))
        hb_buffer_set_cluster_level(buffer, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_GRAPHEMES)
        if kerning {
            hb_shape(face.hbFont, buffer, nil, 0)
        } else {
            var feature = hb_feature_t()
            _ = hb_feature_from_string("-kern", -1, &feature)
            hb_shape(face.hbFont, buffer, &feature, 1)
        }
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)
        let positions = hb_buffer_get_glyph_positions(buffer, &count)
        guard let infos, let positions else { return [] }
        return (0..<Int(count)).map { i in
            ShapedGlyph(glyph: infos[i].codepoint, cluster: Int(infos[i].cluster), advance: positions[i].x_advance,
                        xOffset: positions[i].x_offset, yOffset: positions[i].y_offset)
        }
    }
}

/// HarfBuzz's side of a `FontFace`: its font, metrics and cmap, and scripts of code points.
enum HarfBuzzFont {
    /// A font over the face's `count` bytes at `bytes` (face `index` of a collection; the bytes
    /// must outlive it), scaled so positions come back in font units; its units per em
    /// (HarfBuzz reads the head table itself; FreeType reports 0 for bitmap-only faces, so
    /// `fallbackUnitsPerEm` where HarfBuzz finds none) and horizontal extents.
    static func make(bytes: UnsafeRawPointer, count: Int, index: Int, fallbackUnitsPerEm: Int)
        -> (font: OpaquePointer, unitsPerEm: Int, ascender: Int, descender: Int, lineGap: Int) {
        let blob = hb_blob_create(bytes.assumingMemoryBound(to: CChar.self), UInt32(count), HB_MEMORY_MODE_READONLY, nil, nil)
        let face = hb_face_create(blob, UInt32(index))
        hb_blob_destroy(blob)
        let upem = Int(hb_face_get_upem(face))
        let unitsPerEm = upem > 0 ? upem : fallbackUnitsPerEm
        let font = hb_font_create(face)!
        hb_face_destroy(face)
        hb_font_set_scale(font, Int32(unitsPerEm), Int32(unitsPerEm))
        var extents = hb_font_extents_t()
        hb_font_get_h_extents(font, &extents)
        return (font, unitsPerEm, Int(extents.ascender), Int(extents.descender), Int(extents.line_gap))
    }

    static func destroy(_ font: OpaquePointer) { hb_font_destroy(font) }

    /// The glyph the font's cmap maps `scalar` to, or nil.
    static func nominalGlyph(_ font: OpaquePointer, _ scalar: Unicode.Scalar) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0 ? glyph : nil
    }

    /// The ISO 15924 tag of `scalar`'s script (as HarfBuzz's `hb_script_t` value).
    static func scriptTag(_ scalar: Unicode.Scalar) -> UInt32 {
        hb_unicode_script(hb_unicode_funcs_get_default(), scalar.value).rawValue
    }
}
