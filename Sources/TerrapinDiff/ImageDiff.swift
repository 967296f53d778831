// Image comparison for golden tests and `terrapin diff`.
//
// Exact fast path: byte equality of the premultiplied pixels. Tolerant path: the perceptual
// colour distance of pixelmatch (squared YIQ difference, 35215 · threshold² being the
// largest allowed; threshold 0.1 by default) with its anti-aliasing detection: a pixel
// that differs only because an anti-aliased edge moved is reported separately and not
// counted. Alpha: pixelmatch composites over white only, which makes transparent and opaque
// white equal; Terrapin takes the larger distance of compositing over white and over black,
// so any alpha change counts while fully transparent pixels of any colour stay equal
// (`overWhiteOnly` gives pixelmatch's own rule, as MapLibre's render tests score with it).
#if canImport(Glibc)
import Glibc
#endif
import TerrapinGeometry
import TerrapinRaster

public struct ImageDiffOptions: Equatable, Sendable {
    /// Largest per-pixel colour distance (0…1, pixelmatch's scale) treated as equal. 0 = exact.
    /// Default 0.1, pixelmatch's default.
    public var threshold: Double
    /// When true (default), pixels that differ only by anti-aliasing are not counted.
    public var detectsAntialiasing: Bool
    /// The images still match with at most this many differing pixels. Default 0.
    public var maxDifferentPixels: Int
    /// … or at most this fraction of all pixels, whichever allows more. Default 0.
    public var maxDifferentRatio: Double
    /// Colours compared composited over white only, as pixelmatch compares them (transparent
    /// and opaque white are then equal). Default false: over white and over black.
    public var overWhiteOnly: Bool

    public init(threshold: Double = 0.1, detectsAntialiasing: Bool = true, maxDifferentPixels: Int = 0, maxDifferentRatio: Double = 0,
                overWhiteOnly: Bool = false) {
        (self.threshold, self.detectsAntialiasing, self.maxDifferentPixels, self.maxDifferentRatio, self.overWhiteOnly) =
            (threshold, detectsAntialiasing, maxDifferentPixels, maxDifferentRatio, overWhiteOnly)
    }

    /// Byte-exact comparison.
    public static let exact = ImageDiffOptions(threshold: 0, detectsAntialiasing: false)
    /// pixelmatch's defaults: threshold 0.1, anti-aliasing ignored, no differing pixels allowed.
    public static let tolerant = ImageDiffOptions()
}

public struct ImageDiffResult: Equatable, Sendable {
    public let expectedSize: (width: Int, height: Int)
    public let actualSize: (width: Int, height: Int)
    /// Pixels whose distance exceeds the threshold and are not anti-aliasing.
    public let differingPixels: Int
    /// Pixels that differ only by anti-aliasing (not counted).
    public let antialiasedPixels: Int
    /// Largest colour distance seen, on pixelmatch's 0…1 scale.
    public let maxDistance: Double
    /// Bounding boxes of connected regions of differing pixels, largest first.
    public let regions: [IntRect]
    public let totalPixels: Int
    /// Whether the images match under the options.
    public let matches: Bool

    public var sizesMatch: Bool { expectedSize == actualSize }
    public var differingRatio: Double { totalPixels == 0 ? 0 : Double(differingPixels) / Double(totalPixels) }

    public static func == (a: ImageDiffResult, b: ImageDiffResult) -> Bool {
        a.expectedSize == b.expectedSize && a.actualSize == b.actualSize && a.differingPixels == b.differingPixels
            && a.antialiasedPixels == b.antialiasedPixels && a.maxDistance == b.maxDistance && a.regions == b.regions && a.matches == b.matches
    }
}

public enum ImageDiff {
    /// Compares two images. `kinds` (when given) receives, per pixel, 0 same, 1 differing,
    /// 2 anti-aliasing, for drawing a diff image.
    public static func compare(expected: Pixmap, actual: Pixmap, options: ImageDiffOptions = .tolerant) -> ImageDiffResult {
        var kinds: [UInt8] = []
        return compare(expected: expected, actual: actual, options: options, kinds: &kinds)
    }

    public static func compare(expected: Pixmap, actual: Pixmap, options: ImageDiffOptions, kinds: inout [UInt8]) -> ImageDiffResult {
        let total = expected.width * expected.height
        guard expected.width == actual.width && expected.height == actual.height else {
            kinds = []
            return ImageDiffResult(expectedSize: (expected.width, expected.height), actualSize: (actual.width, actual.height),
                                   differingPixels: max(total, actual.width * actual.height), antialiasedPixels: 0, maxDistance: 1,
                                   regions: [], totalPixels: total, matches: false)
        }
        let size = (expected.width, expected.height)
        if bytesEqual(expected.data, actual.data) {
            kinds = [UInt8](repeating: 0, count: total)
            return ImageDiffResult(expectedSize: size, actualSize: size, differingPixels: 0, antialiasedPixels: 0, maxDistance: 0,
                                   regions: [], totalPixels: total, matches: true)
        }
        let width = expected.width, height = expected.height
        let maxDelta = 35215 * options.threshold * options.threshold
        kinds = [UInt8](repeating: 0, count: total)
        var differing = 0, antialiased = 0
        var maxDistance = 0.0
        expected.data.withUnsafeBytes { e in
            actual.data.withUnsafeBytes { a in
                let ep = e.bindMemory(to: UInt32.self).baseAddress!, ap = a.bindMemory(to: UInt32.self).baseAddress!
                let images = Images(a: ep, b: ap, width: width, height: height, overWhiteOnly: options.overWhiteOnly)
                for i in 0..<total where ep[i] != ap[i] {
                    let delta = abs(images.distance(ep[i], ap[i]))
                    maxDistance = max(maxDistance, (delta / 35215).squareRoot())
                    guard delta > maxDelta else { continue }
                    let x = i % width, y = i / width
                    if options.detectsAntialiasing && (images.antialiased(ep, ap, x, y) || images.antialiased(ap, ep, x, y)) {
                        kinds[i] = 2
                        antialiased += 1
                    } else {
                        kinds[i] = 1
                        differing += 1
                    }
                }
            }
        }
        let allowed = max(options.maxDifferentPixels, Int((options.maxDifferentRatio * Double(total)).rounded(.down)))
        return ImageDiffResult(expectedSize: size, actualSize: size, differingPixels: differing, antialiasedPixels: antialiased,
                               maxDistance: min(1, maxDistance), regions: regions(kinds, width: width, height: height),
                               totalPixels: total, matches: differing <= allowed)
    }

    /// Bounding boxes of 8-connected groups of differing pixels, largest area first, at most 20.
    static func regions(_ kinds: [UInt8], width: Int, height: Int) -> [IntRect] {
        var seen = [Bool](repeating: false, count: kinds.count)
        var boxes: [IntRect] = []
        var stack: [Int] = []
        for start in kinds.indices where kinds[start] == 1 && !seen[start] {
            var box = IntRect(x0: start % width, y0: start / width, x1: start % width + 1, y1: start / width + 1)
            seen[start] = true
            stack.append(start)
            while let i = stack.popLast() {
                let x = i % width, y = i / width
                box = IntRect(x0: min(box.x0, x), y0: min(box.y0, y), x1: max(box.x1, x + 1), y1: max(box.y1, y + 1))
                for ny in max(0, y - 1)...min(height - 1, y + 1) {
                    for nx in max(0, x - 1)...min(width - 1, x + 1) {
                        let j = ny * width + nx
                        if kinds[j] == 1 && !seen[j] { seen[j] = true; stack.append(j) }
                    }
                }
            }
            boxes.append(box)
        }
        return Array(boxes.sorted { ($0.width * $0.height, $1.y0, $1.x0) > ($1.width * $1.height, $0.y0, $0.x0) }.prefix(20))
    }
}

/// memcmp: the exact fast path (Array's == compares element by element).
func bytesEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { pa in b.withUnsafeBytes { pb in memcmp(pa.baseAddress!, pb.baseAddress!, a.count) == 0 } }
}

/// pixelmatch's colour arithmetic on premultiplied pixels.
struct Images {
    let a: UnsafePointer<UInt32>
    let b: UnsafePointer<UInt32>
    let width: Int
    let height: Int
    /// pixelmatch's rule: over white only.
    var overWhiteOnly = false

    @inline(__always) static func channels(_ p: UInt32) -> (Double, Double, Double, Double) {
        (Double(p & 0xFF), Double((p >> 8) & 0xFF), Double((p >> 16) & 0xFF), Double(p >> 24))
    }

    @inline(__always) static func y(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.29889531 + g * 0.58662247 + b * 0.11448223 }
    @inline(__always) static func i(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.59597799 - g * 0.27417610 - b * 0.32180189 }
    @inline(__always) static func q(_ r: Double, _ g: Double, _ b: Double) -> Double { r * 0.21147017 - g * 0.52261711 + b * 0.31114694 }

    /// Signed squared YIQ distance (negative when the first pixel is brighter), the larger of
    /// compositing both over white and both over black.
    @inline(__always) func distance(_ p1: UInt32, _ p2: UInt32, yOnly: Bool = false) -> Double {
        if p1 == p2 { return 0 }
        let (r1, g1, b1, a1) = Self.channels(p1), (r2, g2, b2, a2) = Self.channels(p2)
        // Premultiplied over black is the pixel itself; over white adds 255 − alpha.
        let w1 = 255 - a1, w2 = 255 - a2
        let overWhite = Self.delta(r1 + w1, g1 + w1, b1 + w1, r2 + w2, g2 + w2, b2 + w2, yOnly: yOnly)
        if (a1 == 255 && a2 == 255) || overWhiteOnly { return overWhite }
        let overBlack = Self.delta(r1, g1, b1, r2, g2, b2, yOnly: yOnly)
        return abs(overBlack) > abs(overWhite) ? overBlack : overWhite
    }

    @inline(__always) static func delta(_ r1: Double, _ g1: Double, _ b1: Double, _ r2: Double, _ g2: Double, _ b2: Double, yOnly: Bool) -> Double {
        let y1 = y(r1, g1, b1), y2 = y(r2, g2, b2)
        let dy = y1 - y2
        if yOnly { return dy }
        let di = i(r1, g1, b1) - i(r2, g2, b2), dq = q(r1, g1, b1) - q(r2, g2, b2)
        let d = 0.5053 * dy * dy + 0.299 * di * di + 0.1957 * dq * dq
        return y1 > y2 ? -d : d
    }

    /// pixelmatch's test: is (x, y) in `img` on an anti-aliased edge, judged by its
    /// neighbourhood in both images?
    func antialiased(_ img: UnsafePointer<UInt32>, _ other: UnsafePointer<UInt32>, _ x1: Int, _ y1: Int) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0), x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let centre = img[y1 * width + x1]
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        var minDelta = 0.0, maxDelta = 0.0
        var minX = 0, minY = 0, maxX = 0, maxY = 0
        for x in x0...x2 {
            for y in y0...y2 where !(x == x1 && y == y1) {
                let delta = distance(centre, img[y * width + x], yOnly: true)
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < minDelta {
                    minDelta = delta; minX = x; minY = y
                } else if delta > maxDelta {
                    maxDelta = delta; maxX = x; maxY = y
                }
            }
        }
        if minDelta == 0 || maxDelta == 0 { return false }
        return (manySiblings(img, minX, minY) && manySiblings(other, minX, minY))
            || (manySiblings(img, maxX, maxY) && manySiblings(other, maxX, maxY))
    }

    /// More than two neighbours of exactly the same colour.
    func manySiblings(_ img: UnsafePointer<UInt32>, _ x1: Int, _ y1: Int) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0), x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let centre = img[y1 * width + x1]
        var zeroes = (x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2) ? 1 : 0
        for x in x0...x2 {
            for y in y0...y2 where !(x == x1 && y == y1) {
                if img[y * width + x] == centre {
                    zeroes += 1
                    if zeroes > 2 { return true }
                }
            }
        }
        return false
    }
}
