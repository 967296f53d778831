// Finding fonts: by family, weight and slant through fontconfig, or by file path; and the
// fallback font for characters the requested font lacks. Faces are loaded once per process
// and shared. fontconfig is not used concurrently: every call goes through one lock.
//
// The fallback order is Terrapin's own, not the machine's fontconfig preferences, so that the
// same installed packages give the same glyphs everywhere (docs/drawing.md, "Fallback order"):
//  1. the requested face (before it, a cluster shown as emoji takes `emojiFace()`: Shaper);
//  2. for a script of `preferredFamilies`, its Noto families (Sans before Serif); for Han, the
//     Noto Sans CJK face of the text's language (ja, ko, zh-Hans, zh-Hant, zh-HK), then IPAGothic;
//  3. for symbols and punctuation, DejaVu Sans, Noto Sans, Noto Sans Symbols, Symbols2, Math,
//     then Noto Color Emoji (Latin, Greek and Cyrillic: DejaVu Sans, Noto Sans);
//  4. fontconfig's sorted list for the character, icon fonts excluded.
// Private-use code points never fall back: they mean something only in the font that chose them.
import CFontconfig
import TerrapinIO

/// Font weights as SwiftUI names them, with fontconfig's values.
public enum FontWeight: String, Sendable, CaseIterable, Hashable {
    case ultraLight, thin, light, regular, medium, semibold, bold, heavy, black

    var fontconfigWeight: Int32 {
        switch self {
        case .ultraLight: 40   // FC_WEIGHT_EXTRALIGHT
        case .thin: 0          // FC_WEIGHT_THIN
        case .light: 50
        case .regular: 80
        case .medium: 100
        case .semibold: 180
        case .bold: 200
        case .heavy: 205
        case .black: 210
        }
    }
}

/// A font wanted by family, weight and slant (no size: faces are size-independent).
public struct FontRequest: Hashable, Sendable {
    public var family: String
    public var weight: FontWeight
    public var italic: Bool
    /// A font file to use instead of looking the family up (scenes may ship their own).
    public var path: String?
    /// The text's language as a BCP 47 tag ("ja", "zh-Hant", "ko"…), which picks the regional
    /// forms of Han characters and HarfBuzz's language. Default nil: inferred from the text
    /// (kana: Japanese, Hangul: Korean, otherwise Simplified Chinese for Han).
    public var language: String?

    public init(family: String = FontLibrary.defaultFamily, weight: FontWeight = .regular, italic: Bool = false, path: String? = nil,
                language: String? = nil) {
        (self.family, self.weight, self.italic, self.path, self.language) = (family, weight, italic, path, language)
    }
}

public final class FontLibrary: @unchecked Sendable {
    /// The default UI face (Debian `fonts-dejavu-core`).
    public static let defaultFamily = "DejaVu Sans"
    public static let shared = FontLibrary()

    /// Generic names that fontconfig resolves itself; any match is accepted for them.
    static let genericFamilies: Set<String> = ["sans-serif", "serif", "monospace", "system-ui", "sans", "mono"]

    private struct State {
        var faces: [String: FontFace] = [:]              // "path#index"
        var files: [String: FontFile] = [:]              // by path, shared by a collection's faces
        var matches: [FontRequest: FontFace] = [:]
        /// Families fontconfig does not have, with the error each gives: asked again per label
        /// (a style naming a font the machine lacks), a fontconfig match each time cost 0.27 s
        /// of a 0.5 s render.
        var unknown: [FontRequest: TypographyError] = [:]
        var fallbacks: [FallbackKey: FontFace?] = [:]
        var emoji: FontFace?? = nil
    }

    private struct FallbackKey: Hashable {
        let weight: FontWeight
        let italic: Bool
        let scalar: UInt32
        let language: String?
    }

    private let state = Locked(State())

    public init() {
        _ = Self.fontconfigReady
    }

    private static let fontconfigReady: Bool = FcInit() != 0
    /// fontconfig's default configuration is global and not thread-safe: every call into it,
    /// from any `FontLibrary`, holds this one lock (an instance's own lock let two libraries
    /// match at once, which corrupted the heap).
    private static let fontconfig = Locked(())

    /// The face for a request: its file when `path` is given, else fontconfig's best match,
    /// which must really be the family asked for (or a generic name): an unknown family is an
    /// error naming the package that provides it, never a silent substitute.
    public func face(for request: FontRequest) throws(TypographyError) -> FontFace {
        if let path = request.path { return try face(path: path, index: 0) }
        if let cached = state.withLock({ s -> Result<FontFace, TypographyError>? in
            s.matches[request].map { .success($0) } ?? s.unknown[request].map { .failure($0) }
        }) { return try cached.get() }
        let (path, index, families) = try Self.fontconfig.withLock { (_) throws(TypographyError) -> (String, Int, [String]) in
            try Self.match(family: request.family, weight: request.weight, italic: request.italic)
        }
        let wanted = request.family.lowercased()
        guard Self.genericFamilies.contains(wanted) || families.contains(where: { $0.lowercased() == wanted }) else {
            let error = TypographyError.unknownFamily(request.family, closest: families.first ?? "?", package: TypographyError.package(for: request.family))
            state.withLock { $0.unknown[request] = error }
            throw error
        }
        let face = try face(path: path, index: index)
        state.withLock { $0.matches[request] = face }
        return face
    }

    /// A face by file path (and index within a collection), loaded once.
    public func face(path: String, index: Int = 0) throws(TypographyError) -> FontFace {
        let key = "\(path)#\(index)"
        if let cached = state.withLock({ $0.faces[key] }) { return cached }
        let face = try FontFace(file: try file(path), index: index)
        return state.withLock { s in
            if let existing = s.faces[key] { return existing }
            s.faces[key] = face
            return face
        }
    }

    /// A font file's bytes, read once and shared by its faces. Read outside the lock (a CJK
    /// collection is 19 MB); when two threads read it at once, the first copy kept is used.
    private func file(_ path: String) throws(TypographyError) -> FontFile {
        if let cached = state.withLock({ $0.files[path] }) { return cached }
        let read = try FontFile(path: path)
        return state.withLock { s in
            if let existing = s.files[path] { return existing }
            s.files[path] = read
            return read
        }
    }

    /// The first font in Terrapin's fallback order (see the file's head) that has a glyph for
    /// `scalar`; nil when no installed font covers it. Cached per code point and language.
    public func fallback(for scalar: Unicode.Scalar, weight: FontWeight, italic: Bool, language: String? = nil) -> FontFace? {
        if Self.isPrivateUse(scalar) { return nil }
        let key = FallbackKey(weight: weight, italic: italic, scalar: scalar.value, language: Self.hanLanguage(language))
        if let cached = state.withLock({ $0.fallbacks[key] }) { return cached }
        var found: FontFace? = nil
        for family in Self.preferredFamilies(for: scalar, language: key.language) {
            if let face = try? face(for: FontRequest(family: family, weight: weight, italic: italic)), face.covers(scalar) { found = face; break }
        }
        if found == nil {
            let candidates = Self.fontconfig.withLock { _ in Self.sortedCandidates(for: scalar, weight: weight, italic: italic) }
            for (path, index) in candidates {
                if let face = try? face(path: path, index: index), face.covers(scalar) { found = face; break }
            }
        }
        state.withLock { $0.fallbacks[key] = found }
        return found
    }

    /// The colour emoji face (Debian `fonts-noto-color-emoji`), nil when it is not installed.
    public func emojiFace() -> FontFace? {
        if let cached = state.withLock({ $0.emoji }) { return cached }
        let face = try? face(for: FontRequest(family: Self.emojiFamily))
        let found = face?.hasColorBitmaps == true ? face : nil
        state.withLock { $0.emoji = .some(found) }
        return found
    }

    public static let emojiFamily = "Noto Color Emoji"

    /// Fonts whose glyphs are pictures under private or borrowed code points: never a fallback.
    static let iconFamilies: Set<String> = ["material icons", "material icons outlined", "material icons round", "material icons sharp",
                                           "material icons two tone", "fontawesome", "font awesome 5 free", "font awesome 6 free"]

    static func isPrivateUse(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0xE000...0xF8FF, 0xF0000...0xFFFFD, 0x100000...0x10FFFD: true
        default: false
        }
    }

    /// Noto family name suffixes by ISO 15924 script tag, for the scripts of the world's most
    /// spoken languages and their neighbours (each family is in fonts-noto-core).
    static let notoScripts: [String: String] = [
        "Arab": "Arabic", "Hebr": "Hebrew", "Deva": "Devanagari", "Beng": "Bengali", "Guru": "Gurmukhi", "Gujr": "Gujarati",
        "Orya": "Oriya", "Taml": "Tamil", "Telu": "Telugu", "Knda": "Kannada", "Mlym": "Malayalam", "Sinh": "Sinhala",
        "Thai": "Thai", "Laoo": "Lao", "Khmr": "Khmer", "Mymr": "Myanmar", "Tibt": "Tibetan", "Ethi": "Ethiopic",
        "Geor": "Georgian", "Armn": "Armenian", "Thaa": "Thaana", "Syrc": "Syriac", "Mong": "Mongolian", "Cher": "Cherokee",
        "Tfng": "Tifinagh", "Yiii": "Yi", "Java": "Javanese", "Sund": "Sundanese", "Bali": "Balinese", "Cans": "Canadian Aboriginal",
        "Olck": "Ol Chiki", "Nkoo": "NKo", "Vaii": "Vai", "Adlm": "Adlam", "Tale": "Tai Le", "Talu": "New Tai Lue",
        "Lana": "Tai Tham", "Tavt": "Tai Viet", "Bugi": "Buginese", "Cham": "Cham", "Lisu": "Lisu", "Limb": "Limbu",
        "Lepc": "Lepcha", "Mtei": "Meetei Mayek", "Sora": "Sora Sompeng", "Kali": "Kayah Li", "Copt": "Coptic",
        "Grek": "", "Latn": "", "Cyrl": "",
    ]

    /// The language that picks Han forms: "ja", "ko", "zh-Hant", "zh-HK" or "zh-Hans" (nil: none given).
    static func hanLanguage(_ language: String?) -> String? {
        guard let language, !language.isEmpty else { return nil }
        let l = String(language.lowercased().map { $0 == "_" ? "-" : $0 })
        if l.hasPrefix("ja") { return "ja" }
        if l.hasPrefix("ko") { return "ko" }
        if l.hasPrefix("zh") || l.hasPrefix("yue") || l.hasPrefix("cmn") {
            if l.contains("-hk") || l.contains("-mo") || l.hasPrefix("yue") { return "zh-HK" }
            if l.contains("hant") || l.contains("-tw") { return "zh-Hant" }
            return "zh-Hans"
        }
        return nil
    }

    /// The CJK families for a language, in order.
    static func cjkFamilies(_ language: String?) -> [String] {
        switch language {
        case "ja": ["Noto Sans CJK JP", "IPAGothic"]
        case "ko": ["Noto Sans CJK KR"]
        case "zh-Hant": ["Noto Sans CJK TC"]
        case "zh-HK": ["Noto Sans CJK HK", "Noto Sans CJK TC"]
        default: ["Noto Sans CJK SC"]
        }
    }

    /// Step 2 and 3 of the fallback order for one code point.
    public static func preferredFamilies(for scalar: Unicode.Scalar, language: String?) -> [String] {
        let tag = HarfBuzzFont.scriptTag(scalar)
        let name = String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: tag >> $0) }, as: UTF8.self)
        switch name {
        case "Hira", "Kana": return cjkFamilies("ja")
        case "Hang": return cjkFamilies("ko")
        case "Bopo": return cjkFamilies("zh-Hant")
        case "Hani": return cjkFamilies(hanLanguage(language))
        case "Zyyy", "Zinh", "Zzzz":
            if (0x3000...0x30FF).contains(scalar.value) || (0xFF00...0xFFEF).contains(scalar.value) {
                return cjkFamilies(hanLanguage(language) ?? "ja")   // CJK punctuation and full-width forms
            }
            return [defaultFamily, "Noto Sans", "Noto Sans Symbols", "Noto Sans Symbols2", "Noto Sans Math", emojiFamily]
        default:
            guard let suffix = notoScripts[name] else { return [] }
            if suffix.isEmpty { return [defaultFamily, "Noto Sans"] }
            return name == "Arab" ? ["Noto Sans Arabic", "Noto Naskh Arabic"] : ["Noto Sans \(suffix)", "Noto Serif \(suffix)"]
        }
    }

    // MARK: - fontconfig (called with the lock held)

    private static func pattern(family: String?, weight: FontWeight, italic: Bool) -> OpaquePointer {
        let pattern = FcPatternCreate()!
        if let family { _ = FcPatternAddString(pattern, FC_FAMILY, family) }
        _ = FcPatternAddInteger(pattern, FC_WEIGHT, weight.fontconfigWeight)
        _ = FcPatternAddInteger(pattern, FC_SLANT, italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN)
        _ = FcPatternAddBool(pattern, FC_SCALABLE, FcTrue)
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        return pattern
    }

    private static func match(family: String, weight: FontWeight, italic: Bool) throws(TypographyError) -> (String, Int, [String]) {
        let pattern = pattern(family: family, weight: weight, italic: italic)
        defer { FcPatternDestroy(pattern) }
        var result = FcResultMatch
        // No match at all (not even a fallback) means no fonts are installed.
        guard let match = FcFontMatch(nil, pattern, &result) else { throw TypographyError.noFonts }
        defer { FcPatternDestroy(match) }
        guard let file = string(match, FC_FILE, 0) else { throw TypographyError.noFonts }
        var index: Int32 = 0
        _ = FcPatternGetInteger(match, FC_INDEX, 0, &index)
        var families: [String] = []
        var n: Int32 = 0
        while let name = string(match, FC_FAMILY, n) { families.append(name); n += 1 }
        return (file, Int(index), families)
    }

    private static func sortedCandidates(for scalar: Unicode.Scalar, weight: FontWeight, italic: Bool) -> [(String, Int)] {
        let pattern = pattern(family: nil, weight: weight, italic: italic)
        defer { FcPatternDestroy(pattern) }
        let charset = FcCharSetCreate()
        _ = FcCharSetAddChar(charset, scalar.value)
        _ = FcPatternAddCharSet(pattern, FC_CHARSET, charset)
        FcCharSetDestroy(charset)
        var result = FcResultMatch
        guard let set = FcFontSort(nil, pattern, FcFalse, nil, &result) else { return [] }
        defer { FcFontSetDestroy(set) }
        var candidates: [(String, Int)] = []
        for i in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[i] else { continue }
            var fontCharset: OpaquePointer? = nil
            if FcPatternGetCharSet(font, FC_CHARSET, 0, &fontCharset) == FcResultMatch, let fontCharset,
               FcCharSetHasChar(fontCharset, scalar.value) == 0 { continue }
            guard let file = string(font, FC_FILE, 0) else { continue }
            if let family = string(font, FC_FAMILY, 0), iconFamilies.contains(family.lowercased()) { continue }
            var index: Int32 = 0
            _ = FcPatternGetInteger(font, FC_INDEX, 0, &index)
            candidates.append((file, Int(index)))
            if candidates.count >= 4 { break }
        }
        return candidates
    }

    private static func string(_ pattern: OpaquePointer, _ object: String, _ n: Int32) -> String? {
        var value: UnsafeMutablePointer<FcChar8>? = nil
        guard FcPatternGetString(pattern, object, n, &value) == FcResultMatch, let value else { return nil }
        return String(cString: value)
    }
}
