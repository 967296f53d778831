// The built-in strategies: images, scenes, and text.
import Terrapin
import TerrapinDiff

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

extension Snapshotting where Value == SceneFile, Format == Pixmap {
    /// A scene rendered by Terrapin; `size` (points) and `scale` override the scene's output.
    public static func scene(size: (width: Int, height: Int)? = nil, scale: Int? = nil, _ options: ImageDiffOptions = .exact) -> Snapshotting {
        Snapshotting<Pixmap, Pixmap>.image(options).pullback { (scene: SceneFile) in
            var scene = scene
            if let size { scene.output.width = size.width; scene.output.height = size.height }
            if let scale { scene.output.scale = scale }
            return try SceneRenderer.render(scene)
        }
    }
}

extension Snapshotting where Value: View, Format == Pixmap {
    /// Any view — a marker design, or a `Map` — rendered by `ViewRenderer` at `scale` pixels per
    /// point over `background` at `time`: framed to `size` points when given (a `Map` offered no
    /// size is 512 × 384), else at its ideal size.
    public static func image(size: (width: Double, height: Double)? = nil, scale: Int = 1, background: Color = .clear, time: Double = 0,
                             _ options: ImageDiffOptions = .exact) -> Snapshotting {
        Snapshotting<Pixmap, Pixmap>.image(options).pullback { (view: Value) in
            guard let size else { return try ViewRenderer.render(view, scale: scale, background: background, time: time) }
            return try ViewRenderer.render(view.frame(width: size.width, height: size.height), scale: scale, background: background, time: time)
        }
    }
}

extension Snapshotting where Format == Pixmap {
    /// A hosted view (`ViewHost`: the state under its root lasts from tap to tap) rendered at
    /// its size for `size` points when given, else at its ideal size.
    public static func image<Content: View>(size: (width: Double, height: Double)? = nil, scale: Int = 1, background: Color = .clear, time: Double = 0,
                                            _ options: ImageDiffOptions = .exact) -> Snapshotting where Value == ViewHost<Content> {
        Snapshotting<Pixmap, Pixmap>.image(options).pullback { (host: ViewHost<Content>) in
            try host.render(proposal: size.map { ProposedSize(width: $0.width, height: $0.height) } ?? .unspecified, scale: scale, background: background, time: time)
        }
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

extension Snapshotting where Value == SceneFile, Format == String {
    /// A scene's map resolved, as text: where each marker lands, shown or hidden and why, the
    /// draw order and popovers, then the display list layer by layer — the placement and
    /// collision a test usually means, compared as lines. `size` (points) overrides the scene's.
    public static func resolved(size: (width: Int, height: Int)? = nil) -> Snapshotting {
        Snapshotting<String, String>.lines.pullback { (scene: SceneFile) in
            var scene = scene
            if let size { scene.output.width = size.width; scene.output.height = size.height }
            guard let resolved = try PreparedScene(scene).resolve() else { return "no map\n" }
            return resolved.description + "\n" + resolved.displayList + "\n"
        }
    }
}

extension Snapshotting where Value == Map, Format == String {
    /// A map resolved for `width` × `height` points, as text (see `SceneFile`'s `.resolved`).
    public static func resolved(width: Double = 512, height: Double = 384) -> Snapshotting {
        Snapshotting<String, String>.lines.pullback { (map: Map) in
            let resolved = try MapResolver.resolve(map, width: width, height: height)
            return resolved.description + "\n" + resolved.displayList + "\n"
        }
    }
}
