// Rasterised glyphs, cached by face, glyph, pixel size and sub-pixel phase.
//
// Glyph outlines go through Terrapin's own rasterizer (the same exact-area coverage as every
// other shape), unhinted, at positions quantised to 1/4 pixel in x and y: four phases per
// axis keep text evenly spaced at any size. Memory is bounded: when the cached masks exceed
// `byteLimit`, the least recently used quarter is dropped. Safe to share between threads.
//
// Colour glyphs (emoji) are cached the same way: the face's strike bitmap is resampled to the
// pixel size and phase once (box-filtered down, then bilinear, as images are), kept as
// premultiplied RGBA with its alpha as the coverage mask (what a halo draws).
import TerrapinGeometry
import TerrapinIO
import TerrapinRaster

/// A glyph's coverage: `width × height` bytes, placed at (pen x + left, baseline y + top).
public struct GlyphMask: Sendable {
    public let left: Int
    public let top: Int
    public let width: Int
    public let height: Int
    public let coverage: [UInt8]
    /// The glyph's own colours (premultiplied, `width × height`) for colour glyphs; nil for
    /// outline glyphs, which take the text's colour.
    public var color: Pixmap? = nil
    /// The glyph is wider or taller than `GlyphCache.maxMaskSide` pixels: no mask was made,
    /// and the caller fills its outline instead.
    public var tooLarge = false
}

public final class GlyphCache: @unchecked Sendable {
    public static let shared = GlyphCache()
    public static let subpixelSteps = 4
    /// Largest mask side in pixels; bigger glyphs are filled from their outlines, uncached.
    public static let maxMaskSide = 4096

    struct Key: Hashable {
        let face: Int
        let glyph: UInt32
        let size64: Int   // pixel size × 64
        let phaseX: UInt8
        let phaseY: UInt8

        // Two words to hash instead of five fields: every drawn glyph looks itself up.
        func hash(into hasher: inout Hasher) {
            hasher.combine(UInt64(truncatingIfNeeded: face) << 32 | UInt64(glyph))
            hasher.combine(UInt64(truncatingIfNeeded: size64) << 16 | UInt64(phaseX) << 8 | UInt64(phaseY))
        }
    }

    /// A reference, so a hit updates its last use without hashing the key again.
    private final class Entry {
        let mask: GlyphMask
        var lastUse: UInt64
        init(mask: GlyphMask, lastUse: UInt64) {
            (self.mask, self.lastUse) = (mask, lastUse)
        }
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        var hits = 0
        var misses = 0
    }

    public let byteLimit: Int
    private let state = Locked(State())

    public init(byteLimit: Int = 16 * 1024 * 1024) {
        self.byteLimit = byteLimit
    }

    public struct Statistics: Equatable, Sendable {
        public var entries: Int
        public var bytes: Int
        public var hits: Int
        public var misses: Int
        public var hitRate: Double { hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses) }
    }

    public var statistics: Statistics {
        state.withLock { Statistics(entries: $0.entries.count, bytes: $0.bytes, hits: $0.hits, misses: $0.misses) }
    }

    public func resetStatistics() { state.withLock { $0.hits = 0; $0.misses = 0 } }

    /// The mask of `glyph` at `pixelSize`, for a pen position whose fractional parts are `fraction`.
    public func mask(face: FontFace, glyph: UInt32, pixelSize: Double, phaseX: Int, phaseY: Int) -> GlyphMask {
        let key = Key(face: face.id, glyph: glyph, size64: Int((pixelSize * 64).rounded()), phaseX: UInt8(phaseX), phaseY: UInt8(phaseY))
        if let mask = state.withLock({ s -> GlyphMask? in
            s.clock += 1
            guard let entry = s.entries[key] else { s.misses += 1; return nil }
            s.hits += 1
            entry.lastUse = s.clock
            return entry.mask
        }) { return mask }
        let mask = Self.render(face: face, glyph: glyph, pixelSize: Double(key.size64) / 64,
                               dx: Double(phaseX) / Double(Self.subpixelSteps), dy: Double(phaseY) / Double(Self.subpixelSteps))
        state.withLock { s in
            s.clock += 1
            if s.entries[key] == nil { s.bytes += Self.cost(mask) }
            s.entries[key] = Entry(mask: mask, lastUse: s.clock)
            if s.bytes > byteLimit {
                // Drop the least recently used quarter.
                let victims = s.entries.sorted { $0.value.lastUse < $1.value.lastUse }.prefix(max(1, s.entries.count / 4))
                for (k, e) in victims { s.entries[k] = nil; s.bytes -= Self.cost(e.mask) }
            }
        }
        return mask
    }

    static func cost(_ mask: GlyphMask) -> Int { mask.coverage.count + (mask.color?.data.count ?? 0) + 64 }

    static func render(face: FontFace, glyph: UInt32, pixelSize: Double, dx: Double, dy: Double) -> GlyphMask {
        if face.hasColorBitmaps { return renderColor(face: face, glyph: glyph, pixelSize: pixelSize, dx: dx, dy: dy) }
        let outline = face.outline(glyph)
        let scale = pixelSize / Double(face.unitsPerEm)
        let transform = Transform.scale(scale).concatenating(.translation(dx, dy))
        var polylines = Polylines()
        outline.flatten(transform: transform, into: &polylines)
        guard let e = polylines.extents, e.maxX > e.minX, e.maxY > e.minY else {
            return GlyphMask(left: 0, top: 0, width: 0, height: 0, coverage: [])
        }
        let left = Int(e.minX.rounded(.down)), top = Int(e.minY.rounded(.down))
        let width = Int(e.maxX.rounded(.up)) - left, height = Int(e.maxY.rounded(.up)) - top
        guard width > 0, height > 0 else { return GlyphMask(left: 0, top: 0, width: 0, height: 0, coverage: []) }
        guard width <= maxMaskSide, height <= maxMaskSide else { return GlyphMask(left: 0, top: 0, width: 0, height: 0, coverage: [], tooLarge: true) }
        polylines.transform(by: .translation(Double(-left), Double(-top)))
        var sink = MaskCollector(width: width, coverage: [UInt8](repeating: 0, count: width * height))
        let rasterizer = Rasterizer.reused()
        rasterizer.fill(polylines, rule: .nonZero, clip: IntRect(x0: 0, y0: 0, x1: width, y1: height), into: &sink)
        Rasterizer.recycle(rasterizer)
        return GlyphMask(left: left, top: top, width: width, height: height, coverage: sink.coverage)
    }
}

/// One render's view of a shared `GlyphCache`: the masks it has looked up, kept without the
/// shared cache's lock and recency bookkeeping (every drawn glyph looks itself up, and a
/// render draws a few dozen distinct glyphs many times). Not thread-safe: one per render.
/// Holds at most `limit` masks (it forgets them all past that; the shared cache keeps them).
public final class GlyphFrontCache {
    public let back: GlyphCache
    let limit: Int
    /// Open addressing with linear probing, in memory the cache owns (a lookup is a few integer
    /// compares: hashing a dictionary key and checking exclusive access per glyph showed in a
    /// 10,000-label paint). A power of two slots, at least twice the masks held; it starts at
    /// 64 and doubles as masks arrive.
    private var slots: Int
    private var keys: UnsafeMutablePointer<GlyphCache.Key>
    /// Which slots hold a mask (the others hold `empty`). Kept apart from the masks, so a
    /// held mask is read in place, never copied out of an optional.
    private var used: UnsafeMutablePointer<Bool>
    private var masks: UnsafeMutablePointer<GlyphMask>
    private var count = 0
    private static let empty = GlyphMask(left: 0, top: 0, width: 0, height: 0, coverage: [])

    public init(_ back: GlyphCache = .shared, limit: Int = 4096) {
        self.back = back
        self.limit = max(1, min(1 << 20, limit))
        (keys, used, masks) = Self.table(64)
        slots = 64
    }

    deinit { Self.free(keys, used, masks, slots) }

    private static func table(_ n: Int) -> (UnsafeMutablePointer<GlyphCache.Key>, UnsafeMutablePointer<Bool>, UnsafeMutablePointer<GlyphMask>) {
        let keys = UnsafeMutablePointer<GlyphCache.Key>.allocate(capacity: n)
        keys.initialize(repeating: GlyphCache.Key(face: 0, glyph: 0, size64: 0, phaseX: 0, phaseY: 0), count: n)
        let used = UnsafeMutablePointer<Bool>.allocate(capacity: n)
        used.initialize(repeating: false, count: n)
        let masks = UnsafeMutablePointer<GlyphMask>.allocate(capacity: n)
        masks.initialize(repeating: empty, count: n)
        return (keys, used, masks)
    }

    private static func free(_ keys: UnsafeMutablePointer<GlyphCache.Key>, _ used: UnsafeMutablePointer<Bool>, _ masks: UnsafeMutablePointer<GlyphMask>, _ n: Int) {
        keys.deinitialize(count: n)
        keys.deallocate()
        used.deinitialize(count: n)
        used.deallocate()
        masks.deinitialize(count: n)
        masks.deallocate()
    }

    private func slot(_ key: GlyphCache.Key) -> Int {
        var h = (UInt64(truncatingIfNeeded: key.face) << 32 | UInt64(key.glyph)) &* 0x9E37_79B9_7F4A_7C15
        h = (h ^ (UInt64(truncatingIfNeeded: key.size64) << 16 | UInt64(key.phaseX) << 8 | UInt64(key.phaseY))) &* 0xBF58_476D_1CE4_E5B9
        var i = Int(truncatingIfNeeded: h >> 32) & (slots - 1)
        while used[i], keys[i] != key { i = (i + 1) & (slots - 1) }
        return i
    }

    /// The same mask `back.mask(...)` gives.
    public func mask(face: FontFace, glyph: UInt32, pixelSize: Double, phaseX: Int, phaseY: Int) -> GlyphMask {
        withMask(face: face, glyph: glyph, pixelSize: pixelSize, phaseX: phaseX, phaseY: phaseY) { copy $0 }
    }

    /// Calls `body` (which must not use this cache) with the mask `mask(...)` gives, read from
    /// its slot. Every drawn glyph comes through here. Returned by value, a mask was copied out of
    /// its optional slot and again into the caller, each copy retaining and releasing its arrays,
    /// atomics shared with the threads compositing them; the optimiser may still copy it once for
    /// `body` (it cannot see that `body` leaves the cache alone), and perf counts about a third
    /// of the copies there were (3 % of a 10,000-label paint).
    @inline(__always)
    public func withMask<R>(face: FontFace, glyph: UInt32, pixelSize: Double, phaseX: Int, phaseY: Int,
                            _ body: (borrowing GlyphMask) -> R) -> R {
        let key = GlyphCache.Key(face: face.id, glyph: glyph, size64: Int((pixelSize * 64).rounded()), phaseX: UInt8(phaseX), phaseY: UInt8(phaseY))
        var i = slot(key)
        if !used[i] { i = insert(key, face: face, glyph: glyph, pixelSize: pixelSize, phaseX: phaseX, phaseY: phaseY) }
        return body(masks[i])
    }

    /// Makes (through `back`) and holds the mask for `key`; returns its slot.
    private func insert(_ key: GlyphCache.Key, face: FontFace, glyph: UInt32, pixelSize: Double, phaseX: Int, phaseY: Int) -> Int {
        let mask = back.mask(face: face, glyph: glyph, pixelSize: pixelSize, phaseX: phaseX, phaseY: phaseY)
        if count >= limit {
            // Full: forget them all (the shared cache keeps them).
            for k in 0..<slots where used[k] { used[k] = false; masks[k] = Self.empty }
            count = 0
        } else if (count + 1) * 2 > slots {
            let (oldKeys, oldUsed, oldMasks, oldSlots) = (keys, used, masks, slots)
            (keys, used, masks) = Self.table(slots * 2)
            slots *= 2
            for k in 0..<oldSlots where oldUsed[k] {
                let i = slot(oldKeys[k])
                keys[i] = oldKeys[k]
                used[i] = true
                masks[i] = oldMasks[k]
            }
            Self.free(oldKeys, oldUsed, oldMasks, oldSlots)
        }
        let i = slot(key)
        keys[i] = key
        used[i] = true
        masks[i] = mask
        count += 1
        return i
    }
}

extension GlyphCache {
    /// A colour glyph's strike bitmap as a Pixmap (nil when the glyph has none).
    public static func strikePixmap(_ glyph: ColorGlyph) -> Pixmap? {
        Pixmap(width: glyph.width, height: glyph.height, premultipliedData: glyph.rgba)
    }

    static func renderColor(face: FontFace, glyph: UInt32, pixelSize: Double, dx: Double, dy: Double) -> GlyphMask {
        let empty = GlyphMask(left: 0, top: 0, width: 0, height: 0, coverage: [])
        guard let bitmap = face.colorGlyph(glyph), let strike = strikePixmap(bitmap), face.strikePixelsPerEm > 0 else { return empty }
        let s = pixelSize / Double(face.strikePixelsPerEm)
        let x0 = Double(bitmap.left) * s + dx, y0 = Double(bitmap.top) * s + dy
        let x1 = x0 + Double(bitmap.width) * s, y1 = y0 + Double(bitmap.height) * s
        guard x0.isFinite, y1.isFinite, x1 > x0, y1 > y0 else { return empty }
        let left = Int(x0.rounded(.down)), top = Int(y0.rounded(.down))
        let width = Int(x1.rounded(.up)) - left, height = Int(y1.rounded(.up)) - top
        guard width > 0, height > 0 else { return empty }
        guard width <= maxMaskSide, height <= maxMaskSide else { return GlyphMask(left: 0, top: 0, width: 0, height: 0, coverage: [], tooLarge: true) }
        guard let target = Pixmap(width: width, height: height) else { return empty }
        let canvas = Canvas(pixmap: target)
        canvas.drawImage(strike, transform: Transform.scale(s).concatenating(.translation(x0 - Double(left), y0 - Double(top))), filter: .smooth)
        return GlyphMask(left: left, top: top, width: width, height: height, coverage: canvas.pixmap.alphaMask, color: canvas.pixmap)
    }
}

struct MaskCollector: CoverageSink {
    let width: Int
    var coverage: [UInt8]
    mutating func blit(y: Int, x: Int, coverage row: UnsafeMutableBufferPointer<UInt8>) {
        let start = y * width + x
        for i in 0..<row.count { coverage[start + i] = row[i] }
    }
}
