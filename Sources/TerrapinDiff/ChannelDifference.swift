// The plainest comparison: per channel, in stored (premultiplied) values. For checking that two
// ways of drawing the same thing agree to a few levels, where `ImageDiff`'s perceptual distance
// and anti-aliasing detection would hide what is being measured.
import TerrapinRaster

public struct ChannelDifference: Equatable, Sendable {
    /// Pixels with any compared channel different.
    public var differingPixels = 0
    /// The largest difference of any compared channel, in levels (0–255).
    public var largest = 0

    /// Compares `a` and `b` (of one size; a size mismatch counts every pixel at 255) channel by
    /// channel; `alpha: false` leaves the alpha channel out.
    public init(_ a: Pixmap, _ b: Pixmap, alpha: Bool = true) {
        guard a.width == b.width, a.height == b.height else {
            differingPixels = max(a.width * a.height, b.width * b.height)
            largest = 255
            return
        }
        let channels = alpha ? 4 : 3
        for i in stride(from: 0, to: a.data.count, by: 4) {
            var d = 0
            for k in 0..<channels { d = max(d, abs(Int(a.data[i + k]) - Int(b.data[i + k]))) }
            if d > 0 { differingPixels += 1 }
            largest = max(largest, d)
        }
    }
}
