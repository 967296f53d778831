// Finding fonts: by family, weight and slant through fontconfig, or by file path; and the
// fallback font for characters the requested font lacks. Faces are loaded once per process
// and shared. fontconfig is not used concurrently: every call goes through one lock.
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

    public init(family: String = FontLibrary.defaultFamily, weight: FontWeight = .regular, italic: Bool = false, path: String? = nil) {
        self.family = family
        self.weight = weight
        self.italic = italic
        self.path = path
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
        var matches: [FontRequest: FontFace] = [:]
        var fallbacks: [FallbackKey: FontFace?] = [:]
    }

    private struct FallbackKey: Hashable {
        let weight: FontWeight
        let italic: Bool
        let scalar: UInt32
    }

    private let state = Locked(State())

    public init() {
        _ = Self.fontconfigReady
    }

    private static let fontconfigReady: Bool = FcInit() != 0

    /// The face for a request: its file when `path` is given, else fontconfig's best match,
    /// which must really be the family asked for (or a generic name): an unknown family is an
    /// error naming the package that provides it, never a silent substitute.
    public func face(for request: FontRequest) throws(TypographyError) -> FontFace {
        if let path = request.path { return try face(path: path, index: 0) }
        if let cached = state.withLock({ $0.matches[request] }) { return cached }
        let (path, index, families) = try state.withLock { (_) throws(TypographyError) -> (String, Int, [String]) in
            try Self.match(family: request.family, weight: request.weight, italic: request.italic)
        }
        let wanted = request.family.lowercased()
        guard Self.genericFamilies.contains(wanted) || families.contains(where: { $0.lowercased() == wanted }) else {
            throw TypographyError.unknownFamily(request.family, closest: families.first ?? "?", package: TypographyError.package(for: request.family))
        }
        let face = try face(path: path, index: index)
        state.withLock { $0.matches[request] = face }
        return face
    }

    /// A face by file path (and index within a collection), loaded once.
    public func face(path: String, index: Int = 0) throws(TypographyError) -> FontFace {
        let key = "\(path)#\(index)"
        if let cached = state.withLock({ $0.faces[key] }) { return cached }
        let face = try FontFace(path: path, index: index)
        return state.withLock { s in
            if let existing = s.faces[key] { return existing }
            s.faces[key] = face
            return face
        }
    }

    /// The first font (in fontconfig's preference order for this weight and slant) that has a
    /// glyph for `scalar`; nil when no installed font covers it. Cached per code point.
    public func fallback(for scalar: Unicode.Scalar, weight: FontWeight, italic: Bool) -> FontFace? {
        let key = FallbackKey(weight: weight, italic: italic, scalar: scalar.value)
        if let cached = state.withLock({ $0.fallbacks[key] }) { return cached }
        let candidates = state.withLock { _ in Self.sortedCandidates(for: scalar, weight: weight, italic: italic) }
        var found: FontFace? = nil
        for (path, index) in candidates {
            if let face = try? face(path: path, index: index), face.covers(scalar) { found = face; break }
        }
        state.withLock { $0.fallbacks[key] = found }
        return found
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
