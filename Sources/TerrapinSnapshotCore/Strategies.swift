// The strategies that need no map: pixmaps compared as images, and text compared as lines.
import TerrapinDiff
import TerrapinPNG
import TerrapinRaster

extension Diffing where Format == Pixmap {
    /// PNG storage; comparison with `options` (exact by default). On failure attaches
    /// actual, expected, diff and an expected | diff | actual strip.
    public static func image(_ options: ImageDiffOptions = .exact) -> Diffing {
        Diffing(
            toData: { try PNGEncoder.encode($0) },
            fromData: { try PNGDecoder.decode($0, source: "reference snapshot") },
            diff: { expected, actual in
                var kinds: [UInt8] = []
                let result = ImageDiff.compare(expected: expected, actual: actual, options: options, kinds: &kinds)
                guard !result.matches else { return nil }
                let diffImage = DiffImages.diff(expected: expected, kinds: kinds)
                var attachments: [SnapshotAttachment] = []
                func add(_ name: String, _ pixmap: Pixmap?) {
                    if let pixmap, let bytes = try? PNGEncoder.encode(pixmap, options: PNGEncodingOptions(compression: .fast)) {
                        attachments.append(SnapshotAttachment(name: name, bytes: bytes))
                    }
                }
                add("actual.png", actual)
                add("expected.png", expected)
                add("diff.png", diffImage)
                add("strip.png", DiffImages.strip(expected: expected, diff: diffImage, actual: actual))
                return (result.summary(threshold: options.threshold), attachments)
            })
    }
}

extension Snapshotting where Value == Pixmap, Format == Pixmap {
    /// A pixmap, compared byte for byte.
    public static var image: Snapshotting { .image(.exact) }

    /// A pixmap, compared with tolerance: `ImageDiffOptions(threshold:detectsAntialiasing:maxDifferentPixels:maxDifferentRatio:)`.
    public static func image(_ options: ImageDiffOptions) -> Snapshotting {
        Snapshotting(pathExtension: "png", diffing: .image(options)) { $0 }
    }
}

extension Diffing where Format == String {
    /// UTF-8 text; a failure shows a line diff.
    public static var lines: Diffing {
        Diffing(
            toData: { Array($0.utf8) },
            fromData: { String(decoding: $0, as: UTF8.self) },
            diff: { expected, actual in
                expected == actual ? nil : (LineDiff.describe(expected: expected, actual: actual), [SnapshotAttachment(name: "actual.txt", bytes: Array(actual.utf8))])
            })
    }
}

extension Snapshotting where Value == String, Format == String {
    /// Text compared line by line, stored as .txt.
    public static var lines: Snapshotting { Snapshotting(pathExtension: "txt", diffing: .lines) { $0 } }
}

/// A minimal line diff (longest common subsequence) for failure messages.
enum LineDiff {
    static func describe(expected: String, actual: String, context: Int = 2, maxLines: Int = 40) -> String {
        let a = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard a.count * b.count <= 4_000_000 else { return "the texts differ (\(a.count) and \(b.count) lines, too long to diff)" }
        // lcs[i][j] = length of the LCS of a[i...] and b[j...]
        var lcs = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        var out: [String] = []
        var i = 0, j = 0
        while i < a.count || j < b.count {
            if i < a.count && j < b.count && a[i] == b[j] { out.append("  " + a[i]); i += 1; j += 1 }
            else if j < b.count && (i == a.count || lcs[i][j + 1] > lcs[i + 1][j]) { out.append("+ " + b[j]); j += 1 }
            else { out.append("- " + a[i]); i += 1 }
        }
        // Keep changed lines and a little context.
        let changed = out.indices.filter { !out[$0].hasPrefix("  ") }
        let keep = Set(changed.flatMap { max(0, $0 - context)...min(out.count - 1, $0 + context) })
        var lines: [String] = []
        var last = -2
        for k in keep.sorted() {
            if k != last + 1 && !lines.isEmpty { lines.append("  …") }
            lines.append(out[k])
            last = k
        }
        let shown = lines.prefix(maxLines)
        return "text differs (- expected, + actual):\n" + shown.joined(separator: "\n") + (lines.count > maxLines ? "\n  … (\(lines.count - maxLines) more lines)" : "")
    }
}
