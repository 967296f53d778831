// One font file (and face index): FreeType for outlines and colour bitmaps, HarfBuzz for
// shaping and metrics.
//
// Outline fonts are the rule. Colour bitmap fonts (CBDT/CBLC, as Noto Color Emoji) are
// accepted too: they have no outlines, only fixed-size BGRA strikes, which `colorGlyph` reads
// from the largest strike; the glyph cache scales them to the text size.
//
// Thread safety: HarfBuzz fonts are immutable once made, so shaping runs concurrently.
// FreeType faces are not thread-safe; every FreeType call goes through `lock`, and outlines
// are cached so each glyph is loaded once.
import CFreeType
import Synchronization
import TerrapinIO
import TerrapinGeometry

public final class FontFace: @unchecked Sendable, Hashable, CustomStringConvertible {
    public let path: String
    public let index: Int
    public let familyName: String
    public let styleName: String
    /// Design units per em.
    public let unitsPerEm: Int
    /// Typographic ascender, descender (negative) and line gap in font units (OS/2 or hhea).
    public let ascender: Int, descender: Int, lineGap: Int
    /// A small process-wide number, for cache keys.
    public let id: Int

    /// The face draws colour bitmaps (emoji), not outlines: its glyphs keep their own colours.
    public let hasColorBitmaps: Bool
    /// The pixels per em of the strike colour glyphs are read from (0 for outline faces).
    public let strikePixelsPerEm: Int

    let hbFont: OpaquePointer
    private let ftFace: FT_Face
    private let ftLibrary: FT_Library
    /// The file's bytes, shared by every face of a collection (a .ttc's regional faces).
    private let file: FontFile
    private let lock = Locked<[UInt32: Path]>([:])
    private let colorLock = Locked<[UInt32: ColorGlyph?]>([:])

    private static let counter = Atomic<Int>(0)

    init(file: FontFile, index: Int = 0) throws(TypographyError) {
        self.path = file.path
        self.index = index
        self.file = file
        let path = file.path, buffer = file.buffer, count = file.count
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw TypographyError.unreadableFont(path: path, reason: "FreeType could not start")
        }
        var face: FT_Face?
        let error = FT_New_Memory_Face(library, buffer.baseAddress!.assumingMemoryBound(to: FT_Byte.self), FT_Long(count), FT_Long(index), &face)
        guard error == 0, let face else {
            FT_Done_FreeType(library)
            throw TypographyError.unreadableFont(path: path, reason: "FreeType error \(error)")
        }
        let flags = face.pointee.face_flags
        let scalable = (flags & FT_Long(FT_FACE_FLAG_SCALABLE)) != 0
        let colorStrikes = (flags & FT_Long(FT_FACE_FLAG_COLOR)) != 0 && (flags & FT_Long(FT_FACE_FLAG_FIXED_SIZES)) != 0
            && face.pointee.num_fixed_sizes > 0
        guard scalable || colorStrikes else {
            FT_Done_Face(face)
            FT_Done_FreeType(library)
            throw TypographyError.unreadableFont(path: path, reason: "neither a scalable (outline) font nor a colour bitmap font")
        }
        // The largest strike: colour glyphs are only ever scaled down from it, or up a little.
        var strike = 0, strikeIndex: Int32 = 0
        if !scalable {
            for i in 0..<Int(face.pointee.num_fixed_sizes) {
                let ppem = Int(face.pointee.available_sizes[i].y_ppem >> 6)
                if ppem > strike { strike = ppem; strikeIndex = Int32(i) }
            }
            guard strike > 0, FT_Select_Size(face, strikeIndex) == 0 else {
                FT_Done_Face(face)
                FT_Done_FreeType(library)
                    throw TypographyError.unreadableFont(path: path, reason: "its colour bitmap strikes cannot be selected")
            }
        }
        hasColorBitmaps = !scalable
        strikePixelsPerEm = strike
        ftLibrary = library
        ftFace = face
        familyName = face.pointee.family_name.map { String(cString: $0) } ?? "?"
        styleName = face.pointee.style_name.map { String(cString: $0) } ?? "?"
        let made = HarfBuzzFont.make(bytes: UnsafeRawPointer(buffer.baseAddress!), count: count, index: index,
                                     fallbackUnitsPerEm: max(1, Int(face.pointee.units_per_EM)))
        unitsPerEm = made.unitsPerEm
        hbFont = made.font
        ascender = made.ascender
        descender = made.descender
        lineGap = made.lineGap
        id = Self.counter.add(1, ordering: .relaxed).newValue
    }

    deinit {
        HarfBuzzFont.destroy(hbFont)
        FT_Done_Face(ftFace)
        FT_Done_FreeType(ftLibrary)
    }

    public var description: String { "\(familyName) \(styleName) (\(path))" }

    public static func == (a: FontFace, b: FontFace) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The glyph for a code point, or nil when the font has none.
    public func glyph(for scalar: Unicode.Scalar) -> UInt32? {
        HarfBuzzFont.nominalGlyph(hbFont, scalar)
    }

    public func covers(_ scalar: Unicode.Scalar) -> Bool { glyph(for: scalar) != nil }

    /// The glyph's outline in font units, y down (baseline at 0), cached.
    public func outline(_ glyph: UInt32) -> Path {
        lock.withLock { cache in
            if let path = cache[glyph] { return path }
            let path = loadOutline(glyph)
            cache[glyph] = path
            return path
        }
    }

    /// A colour glyph's bitmap at `strikePixelsPerEm`, premultiplied RGBA; nil for outline
    /// faces and glyphs without a bitmap. Cached: each glyph is decoded once.
    public func colorGlyph(_ glyph: UInt32) -> ColorGlyph? {
        guard hasColorBitmaps else { return nil }
        return colorLock.withLock { cache in
            if let found = cache[glyph] { return found }
            let loaded = lock.withLock { _ in loadColorGlyph(glyph) }
            cache[glyph] = loaded
            return loaded
        }
    }

    /// Largest colour bitmap accepted from a font file (a strike is ~136 × 128 for emoji).
    static let maxColorGlyphSide = 1024

    private func loadColorGlyph(_ glyph: UInt32) -> ColorGlyph? {
        guard FT_Load_Glyph(ftFace, glyph, Int32(FT_LOAD_COLOR)) == 0 else { return nil }
        let slot = ftFace.pointee.glyph.pointee
        let bitmap = slot.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows)
        guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue), width > 0, height > 0,
              width <= Self.maxColorGlyphSide, height <= Self.maxColorGlyphSide, let buffer = bitmap.buffer else { return nil }
        let pitch = Int(bitmap.pitch)
        guard abs(pitch) >= width * 4 else { return nil }
        // FreeType's BGRA is premultiplied, like Pixmap; only the byte order changes.
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let row = pitch >= 0 ? buffer + y * pitch : buffer + (height - 1 - y) * -pitch
            for x in 0..<width {
                let o = (y * width + x) * 4
                rgba[o] = row[x * 4 + 2]; rgba[o + 1] = row[x * 4 + 1]; rgba[o + 2] = row[x * 4]; rgba[o + 3] = row[x * 4 + 3]
            }
        }
        return ColorGlyph(left: Int(slot.bitmap_left), top: -Int(slot.bitmap_top), width: width, height: height, rgba: rgba)
    }

    private func loadOutline(_ glyph: UInt32) -> Path {
        guard FT_Load_Glyph(ftFace, glyph, Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0,
              ftFace.pointee.glyph.pointee.format == FT_GLYPH_FORMAT_OUTLINE else { return Path() }
        var collector = OutlineCollector()
        var funcs = FT_Outline_Funcs(
            move_to: { to, user in
                user!.assumingMemoryBound(to: OutlineCollector.self).pointee.move(to!.pointee)
                return 0
            },
            line_to: { to, user in
                user!.assumingMemoryBound(to: OutlineCollector.self).pointee.line(to!.pointee)
                return 0
            },
            conic_to: { control, to, user in
                user!.assumingMemoryBound(to: OutlineCollector.self).pointee.conic(control!.pointee, to!.pointee)
                return 0
            },
            cubic_to: { c1, c2, to, user in
                user!.assumingMemoryBound(to: OutlineCollector.self).pointee.cubic(c1!.pointee, c2!.pointee, to!.pointee)
                return 0
            },
            shift: 0, delta: 0)
        _ = withUnsafeMutablePointer(to: &collector) { pointer in
            FT_Outline_Decompose(&ftFace.pointee.glyph.pointee.outline, &funcs, pointer)
        }
        collector.builder.close()
        return collector.builder.build()
    }
}

/// A font file read whole into memory, once, for FreeType and HarfBuzz; every face of the file
/// (the faces of a collection) points into it for the life of the process.
final class FontFile: @unchecked Sendable {
    let path: String
    let buffer: UnsafeMutableRawBufferPointer
    let count: Int

    init(path: String) throws(TypographyError) {
        let data = try readFile(path, limit: 64 * 1024 * 1024)
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
        data.withUnsafeBytes { copy.copyMemory(from: $0) }
        buffer = copy
        count = data.count
        self.path = path
    }

    deinit { buffer.deallocate() }
}

/// A colour glyph at its face's strike size: `width × height` premultiplied RGBA pixels placed
/// at (pen x + left, baseline y + top), y down.
public struct ColorGlyph: Sendable {
    public let left: Int
    public let top: Int
    public let width: Int
    public let height: Int
    public let rgba: [UInt8]
}

/// Turns FreeType's outline callbacks into a Path, flipping y (font units are y up).
private struct OutlineCollector {
    var builder = PathBuilder()
    var open = false

    static func point(_ v: FT_Vector) -> Point { Point(Double(v.x), -Double(v.y)) }

    mutating func move(_ to: FT_Vector) {
        if open { builder.close() }
        builder.move(to: Self.point(to))
        open = true
    }
    mutating func line(_ to: FT_Vector) { builder.line(to: Self.point(to)) }
    mutating func conic(_ control: FT_Vector, _ to: FT_Vector) { builder.quad(to: Self.point(to), control: Self.point(control)) }
    mutating func cubic(_ c1: FT_Vector, _ c2: FT_Vector, _ to: FT_Vector) {
        builder.cubic(to: Self.point(to), control1: Self.point(c1), control2: Self.point(c2))
    }
}

/// Reads a font file (Typography does not depend on TerrapinIO's types in its API).
func readFile(_ path: String, limit: Int) throws(TypographyError) -> [UInt8] {
    guard let file = fopen(path, "rb") else {
        throw TypographyError.unreadableFont(path: path, reason: String(cString: strerror(errno)))
    }
    defer { fclose(file) }
    var data: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        if n == 0 { break }
        data.append(contentsOf: chunk[0..<n])
        if data.count > limit { throw TypographyError.unreadableFont(path: path, reason: "larger than \(limit) bytes") }
    }
    guard !data.isEmpty else { throw TypographyError.unreadableFont(path: path, reason: "the file is empty") }
    return data
}

#if canImport(Glibc)
import Glibc
#endif
