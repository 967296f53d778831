// SVG documents rasterised through librsvg (CTerrapinSVG), for icons: `Image(contentsOfFile:)`
// with an .svg file, SVG images in scene files, Marker3D images. A document is parsed once
// and drawn at the pixel size each use needs (its points times the device scale), so icons
// stay sharp at 1×, 2× and 3×.
//
// Hostile input: the file size is checked before reading, the output size before allocating,
// and the document is parsed from memory without a base file, so librsvg loads nothing beyond
// it (external images, stylesheets). librsvg's own limits bound the element count and nesting.
import CTerrapinSVG
import TerrapinIO
import TerrapinRaster

public struct SVGLimits: Sendable, Equatable {
    /// Largest SVG file read. Default 4 MiB.
    public var maxFileBytes: Int
    /// Largest side of a rasterisation, in pixels. Default 4096.
    public var maxSide: Int
    /// Most pixels of one rasterisation. Default 4096 × 4096.
    public var maxPixels: Int
    /// Most pixels all a rasterisation's filtered elements may cover together (each element
    /// drawn through a filter — a blur, a morphology — is a pass over its region, and librsvg's
    /// blurs cost what their radius asks). Default 16,777,216: a document using filters is
    /// rasterised at most at 16 Mi pixels divided by its filtered elements, and scaled up.
    public var maxFilterPixels: Int
    /// Largest own size (width and height, else the viewBox) of a document, in points.
    public static let maxDocumentSide = 16_384.0

    public init(maxFileBytes: Int = 4 << 20, maxSide: Int = 4096, maxPixels: Int = 4096 * 4096, maxFilterPixels: Int = 4096 * 4096) {
        (self.maxFileBytes, self.maxSide, self.maxPixels, self.maxFilterPixels) = (maxFileBytes, maxSide, maxPixels, maxFilterPixels)
    }

    public static let `default` = SVGLimits()
}

public final class SVGDocument: @unchecked Sendable {
    /// The document's own size in CSS pixels (points): its width and height, else its viewBox.
    public let width: Double
    public let height: Double
    public let source: String
    public let limits: SVGLimits
    /// How many elements name a filter (`filter="…"` or `filter: …` in a style) in a document
    /// that defines one: each is a pass of its own when drawn.
    public let filterUses: Int
    private let handle: OpaquePointer
    /// librsvg handles are not for concurrent use: one rasterisation at a time.
    private let lock = Locked(())

    /// Whether bytes look like an SVG document (an `<svg` element near the start).
    public static func sniff(_ bytes: [UInt8]) -> Bool {
        let head = bytes.prefix(4096)
        guard let first = head.firstIndex(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }),
              head[first] == UInt8(ascii: "<") else { return false }
        let svg = Array("<svg".utf8)
        return head.indices.contains { i in i + 4 <= head.endIndex && head[i..<(i + 4)].elementsEqual(svg) }
    }

    public init(_ bytes: [UInt8], source: String = "SVG data", limits: SVGLimits = .default) throws(CodecError) {
        self.source = source
        self.limits = limits
        guard bytes.count <= limits.maxFileBytes else {
            throw .corrupt(source: source, format: "SVG", reason: "it is \(bytes.count) bytes, over the limit of \(limits.maxFileBytes)")
        }
        guard Self.sniff(bytes) else { throw .unknownFormat(source: source, detail: "no <svg> element at its start") }
        var message = [CChar](repeating: 0, count: Int(TP_SVG_MESSAGE_SIZE))
        // librsvg is loaded with the first SVG (CTerrapinSVG), not linked.
        guard message.withUnsafeMutableBufferPointer({ m in tp_svg_load(m.baseAddress, m.count) }) == 1 else {
            throw .unsupported(source: source, what: "an SVG, and " + String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        var w = 0.0, h = 0.0
        let opened = bytes.withUnsafeBufferPointer { b in
            message.withUnsafeMutableBufferPointer { m in tp_svg_open(b.baseAddress, b.count, &w, &h, m.baseAddress, m.count) }
        }
        guard let opened else {
            throw .corrupt(source: source, format: "SVG", reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard w.isFinite, h.isFinite, w > 0, h > 0 else {
            tp_svg_close(opened)
            throw .corrupt(source: source, format: "SVG", reason: "it has no size: give the <svg> element width and height, or a viewBox")
        }
        guard w <= SVGLimits.maxDocumentSide, h <= SVGLimits.maxDocumentSide else {
            tp_svg_close(opened)
            // Said as whole points, clamped: a viewBox may declare more than Int holds.
            func points(_ v: Double) -> Int { Int(min(v, 1e15).rounded(.up)) }
            throw .tooLarge(source: source, width: points(w), height: points(h),
                            limit: "at most \(Int(SVGLimits.maxDocumentSide)) points a side for an SVG's own size")
        }
        handle = opened
        width = w
        height = h
        filterUses = Self.count("<filter", in: bytes) == 0 ? 0 : Self.count("filter=", in: bytes) + Self.count("filter:", in: bytes)
    }

    /// Occurrences of `word` in `bytes` (a linear scan).
    static func count(_ word: String, in bytes: [UInt8]) -> Int {
        let w = Array(word.utf8)
        guard let first = w.first, bytes.count >= w.count else { return 0 }
        var n = 0, i = 0
        while i <= bytes.count - w.count {
            if bytes[i] == first, bytes[i..<(i + w.count)].elementsEqual(w) { n += 1; i += w.count } else { i += 1 }
        }
        return n
    }

    /// Reads and parses a file (through `files`, so `--root` confines it).
    public convenience init(file path: String, limits: SVGLimits = .default, files: FileAccess = .unrestricted) throws(CodecError) {
        let bytes: [UInt8]
        do { bytes = try files.read(path, limit: limits.maxFileBytes) } catch { throw .file(error) }
        try self.init(bytes, source: "'\(path)'", limits: limits)
    }

    deinit { tp_svg_close(handle) }

    /// The largest size within the limits with the proportions of `width` × `height` (for a
    /// document with filters, its filtered elements' passes within `maxFilterPixels`).
    public func fitted(width: Int, height: Int) -> (width: Int, height: Int) {
        let side = Double(limits.maxSide)
        let area = Double(filterUses > 0 ? min(limits.maxPixels, max(64 * 64, limits.maxFilterPixels / filterUses)) : limits.maxPixels)
        let w = Double(max(1, width)), h = Double(max(1, height))
        let k = min(1, side / w, side / h, (area / (w * h)).squareRoot())
        return (max(1, min(limits.maxSide, Int((w * k).rounded(.down)))), max(1, min(limits.maxSide, Int((h * k).rounded(.down)))))
    }

    /// The document drawn to fit `width` × `height` pixels (aspect ratio kept, centred).
    public func rasterize(width: Int, height: Int) throws(CodecError) -> Pixmap {
        guard width > 0, height > 0, width <= limits.maxSide, height <= limits.maxSide, width * height <= limits.maxPixels else {
            throw .tooLarge(source: source, width: width, height: height,
                            limit: "at most \(limits.maxSide) pixels a side and \(limits.maxPixels) pixels")
        }
        var data = [UInt8](repeating: 0, count: width * height * 4)
        var message = [CChar](repeating: 0, count: Int(TP_SVG_MESSAGE_SIZE))
        let ok = lock.withLock { _ in
            data.withUnsafeMutableBufferPointer { d in
                message.withUnsafeMutableBufferPointer { m in tp_svg_render(handle, Int32(width), Int32(height), d.baseAddress, m.baseAddress, m.count) }
            }
        }
        guard ok == 1 else {
            throw .corrupt(source: source, format: "SVG", reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard let pixmap = Pixmap(width: width, height: height, premultipliedData: data) else {
            throw .tooLarge(source: source, width: width, height: height, limit: "the image limits")
        }
        return pixmap
    }
}
