// Pictures that explain a failed comparison.
import TerrapinGeometry
import TerrapinRaster

public enum DiffImages {
    /// Changed pixels red over a faded grey copy of `expected`; anti-aliasing-only pixels yellow.
    /// `kinds` comes from `ImageDiff.compare`. Nil when the sizes differ.
    public static func diff(expected: Pixmap, kinds: [UInt8]) -> Pixmap? {
        guard kinds.count == expected.width * expected.height, var out = Pixmap(width: expected.width, height: expected.height) else { return nil }
        let red = PremultipliedRGBA8(red: 255, green: 0, blue: 0, alpha: 255)
        let yellow = PremultipliedRGBA8(red: 255, green: 255, blue: 0, alpha: 255)
        for y in 0..<expected.height {
            for x in 0..<expected.width {
                let i = y * expected.width + x
                switch kinds[i] {
                case 1: out[x, y] = red
                case 2: out[x, y] = yellow
                default:
                    // pixelmatch's faded pixel: luma over white, at 10 % strength.
                    let p = expected[x, y]
                    let white = 255 - Double(p.alpha)
                    let luma = (Double(p.red) + white) * 0.29889531 + (Double(p.green) + white) * 0.58662247 + (Double(p.blue) + white) * 0.11448223
                    let v = UInt8(max(0, min(255, (255 + (luma - 255) * 0.1).rounded())))
                    out[x, y] = PremultipliedRGBA8(red: v, green: v, blue: v, alpha: 255)
                }
            }
        }
        return out
    }

    /// expected | diff | actual side by side on a grey backdrop (expected | actual when the
    /// sizes differ). Nil only if the strip would exceed the image limits.
    public static func strip(expected: Pixmap, diff: Pixmap?, actual: Pixmap) -> Pixmap? {
        let gap = 4
        let panels = [expected] + (diff.map { [$0] } ?? []) + [actual]
        let width = panels.reduce(0) { $0 + $1.width } + gap * (panels.count + 1)
        let height = panels.map(\.height).max()! + 2 * gap
        guard let canvas = Canvas(width: width, height: height) else { return nil }
        canvas.clear(RGBAColor(red: 0.5, green: 0.5, blue: 0.5))
        var x = gap
        for panel in panels {
            canvas.drawImage(panel, transform: .translation(Double(x), Double(gap)))
            x += panel.width + gap
        }
        return canvas.pixmap
    }
}

extension ImageDiffResult {
    /// A human summary: counts, ratio, largest distance, regions.
    public func summary(threshold: Double) -> String {
        if !sizesMatch {
            return "sizes differ: expected \(expectedSize.width)x\(expectedSize.height), actual \(actualSize.width)x\(actualSize.height)"
        }
        var text = "\(differingPixels) of \(totalPixels) pixels differ (\(percent(differingRatio)))"
        if antialiasedPixels > 0 { text += ", plus \(antialiasedPixels) that differ only by anti-aliasing (not counted)" }
        text += "; largest colour distance \(fixed(maxDistance, 3)) (threshold \(fixed(threshold, 3)))"
        if !regions.isEmpty {
            let shown = regions.prefix(5).map { "x \($0.x0)…\($0.x1 - 1), y \($0.y0)…\($0.y1 - 1) (\($0.width)x\($0.height))" }
            text += "\nchanged regions: " + shown.joined(separator: "; ") + (regions.count > 5 ? "; … \(regions.count - 5) more" : "")
        }
        return text
    }

    private func percent(_ ratio: Double) -> String { fixed(ratio * 100, 3) + "%" }
}

/// Fixed-point formatting without Foundation.
func fixed(_ value: Double, _ decimals: Int) -> String {
    let scale = Double((0..<decimals).reduce(1) { a, _ in a * 10 })
    let scaled = Int((value * scale).rounded())
    let whole = scaled / Int(scale), fraction = abs(scaled % Int(scale))
    var digits = String(fraction)
    while digits.count < decimals { digits = "0" + digits }
    return decimals == 0 ? String(whole) : "\(whole).\(digits)"
}
