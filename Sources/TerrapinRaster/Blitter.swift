// The blitter: turns rows of coverage into pixels, shading and compositing in one pass.
// It is the CoverageSink every canvas draw goes through.
import TerrapinGeometry

/// How images are sampled when drawn through a transform.
public enum ImageFilter: String, Sendable, CaseIterable {
    /// The nearest pixel: crisp, blocky when enlarged.
    case nearest
    /// Linear interpolation of the four nearest pixels.
    case bilinear
    /// Bilinear when enlarging; when shrinking by 2× or more, first averages k×k blocks
    /// (k = ⌊1/scale⌋, exact area averaging) so thumbnails do not alias. The default.
    case smooth
}

/// Per-draw shading state, resolved once before scan conversion.
enum Source {
    case solid(UInt32)
    case linear(GradientTable, SpreadMode, inverse: Transform, start: Point, delta: Point, lengthSquared: Double)
    case radial(GradientTable, SpreadMode, inverse: Transform, center: Point, radius: Double)
    case image(ImageSampler)
}

struct ImageSampler {
    let pixels: UnsafePointer<UInt32>
    let width: Int
    let height: Int
    /// Device → image coordinates.
    let inverse: Transform
    let bilinear: Bool

    @inline(__always) func sample(_ dx: Double, _ dy: Double) -> UInt32 {
        let p = inverse.apply(Point(dx, dy))
        if !bilinear {
            let x = Int(min(Double(width - 1), max(0, p.x.rounded(.down))))
            let y = Int(min(Double(height - 1), max(0, p.y.rounded(.down))))
            return pixels[y * width + x]
        }
        let u = p.x - 0.5, v = p.y - 0.5
        guard u.isFinite, v.isFinite else { return 0 }
        let fu = u.rounded(.down), fv = v.rounded(.down)
        let x0 = Int(max(-1, min(Double(width), fu))), y0 = Int(max(-1, min(Double(height), fv)))
        let wx = UInt32(max(0, min(256, ((u - fu) * 256).rounded()))), wy = UInt32(max(0, min(256, ((v - fv) * 256).rounded())))
        let xa = max(0, min(width - 1, x0)), xb = max(0, min(width - 1, x0 + 1))
        let ya = max(0, min(height - 1, y0)), yb = max(0, min(height - 1, y0 + 1))
        let top = Self.lerp(pixels[ya * width + xa], pixels[ya * width + xb], wx)
        let bottom = Self.lerp(pixels[yb * width + xa], pixels[yb * width + xb], wx)
        return Self.lerp(top, bottom, wy)
    }

    /// a + (b − a)·w/256 per channel, w in 0...256, rounded. (Two channels at a time, each in
    /// 16 bits of a word; the constants typed, as the type checker took a second over them.)
    @inline(__always) static func lerp(_ a: UInt32, _ b: UInt32, _ w: UInt32) -> UInt32 {
        let low: UInt32 = 0x00FF_00FF, high: UInt32 = 0xFF00_FF00, half: UInt32 = 0x0080_0080
        let iw: UInt32 = 256 - w
        let rb: UInt32 = (((a & low) &* iw &+ (b & low) &* w &+ half) >> 8) & low
        let ag: UInt32 = (((a >> 8) & low) &* iw &+ ((b >> 8) & low) &* w &+ half) & high
        return rb | ag
    }
}

struct PaintSink: CoverageSink {
    let pixels: UnsafeMutablePointer<UInt32>
    let width: Int
    let source: Source
    let mode: BlendMode
    /// Canvas-sized clip coverage, or nil.
    let clip: UnsafePointer<UInt8>?
    /// Extra coverage factor (image opacity), 255 = none.
    let coverageScale: UInt32
    let span: UnsafeMutablePointer<UInt32>

    mutating func blit(y: Int, x: Int, coverage: UnsafeMutableBufferPointer<UInt8>) {
        let count = coverage.count
        if let clip {
            let clipRow = clip + y * width + x
            for i in 0..<count where coverage[i] != 0 { coverage[i] = UInt8(Pixel.mul(UInt32(coverage[i]), UInt32(clipRow[i]))) }
        }
        if coverageScale != 255 {
            for i in 0..<count where coverage[i] != 0 { coverage[i] = UInt8(Pixel.mul(UInt32(coverage[i]), coverageScale)) }
        }
        var first = 0
        while first < count && coverage[first] == 0 { first += 1 }
        guard first < count else { return }
        var last = count - 1
        while coverage[last] == 0 { last -= 1 }
        let row = pixels + y * width + x
        switch source {
        case .solid(let color):
            if mode == .sourceOver && color >> 24 == 255 {
                // Fully covered runs (a fill's inside) are stored eight pixels a test.
                let cover = coverage.baseAddress!
                var i = first
                while i <= last {
                    let c = UInt32(cover[i])
                    if c == 255 {
                        var end = i + 1
                        while end + 8 <= last + 1 && UnsafeRawPointer(cover + end).loadUnaligned(as: UInt64.self) == ~0 { end += 8 }
                        while end <= last && cover[end] == 255 { end += 1 }
                        (row + i).update(repeating: color, count: end - i)
                        i = end
                        continue
                    }
                    if c != 0 { row[i] = Pixel.blend(color, into: row[i], coverage: c, mode: .sourceOver) }
                    i += 1
                }
            } else {
                for i in first...last where coverage[i] != 0 {
                    row[i] = Pixel.blend(color, into: row[i], coverage: UInt32(coverage[i]), mode: mode)
                }
            }
            return
        case .linear(let table, let spread, let inverse, let start, let delta, let lengthSquared):
            let cy = Double(y) + 0.5
            for i in first...last where coverage[i] != 0 {
                let p = inverse.apply(Point(Double(x + i) + 0.5, cy)) - start
                span[i] = table.lookup(p.dot(delta) / lengthSquared, spread: spread)
            }
        case .radial(let table, let spread, let inverse, let center, let radius):
            let cy = Double(y) + 0.5
            for i in first...last where coverage[i] != 0 {
                let p = inverse.apply(Point(Double(x + i) + 0.5, cy)) - center
                span[i] = table.lookup(p.length / radius, spread: spread)
            }
        case .image(let sampler):
            let cy = Double(y) + 0.5
            for i in first...last where coverage[i] != 0 {
                span[i] = sampler.sample(Double(x + i) + 0.5, cy)
            }
        }
        for i in first...last where coverage[i] != 0 {
            row[i] = Pixel.blend(span[i], into: row[i], coverage: UInt32(coverage[i]), mode: mode)
        }
    }
}
