// Text benchmarks: shape and draw 10,000 labels "Marker 1" … "Marker 10000", DejaVu Sans 13 px;
// then the same labels each with one colour emoji (cycling through 24, a ZWJ family and a flag
// among them) shaped with Noto Color Emoji and composited from the glyph cache.
import Terrapin

func textBenchmarks() throws -> [(String, Timing, String)] {
    let emoji = ["🍕", "☕", "🏔️", "🚉", "🏨", "⛽", "🅿️", "🚻", "🏥", "🛒", "🎭", "⛪", "🕌", "🏫", "🌊", "🏖️",
                 "🚲", "🚌", "✈️", "⚠️", "ℹ️", "👨‍👩‍👧‍👦", "🇫🇷", "1️⃣"]
    let (plain, plainNote) = try drawLabels { "Marker \($0 + 1)" }
    let (withEmoji, emojiNote) = try drawLabels { "\(emoji[$0 % emoji.count]) Marker \($0 + 1)" }
    return [("10,000 labels shaped + drawn", plain, plainNote), ("10,000 labels with one emoji each", withEmoji, emojiNote)]
}

/// Lays out and draws `text(k)` above each of 10,000 spec markers with a fresh glyph cache.
private func drawLabels(_ text: (Int) -> String) throws -> (Timing, String) {
    let canvas = Canvas(width: 1024, height: 768)!
    let markers = specMarkers(10_000)
    let font = FontSpec.system(size: 13)
    _ = try TextLayout.make(text(0), font: font)  // load the faces outside the timing
    let cache = GlyphCache()
    var glyphs = 0
    let timing = try measure("labels") {
        canvas.clear(.white)
        glyphs = 0
        for (k, m) in markers.enumerated() {
            let layout = try TextLayout.make(text(k), font: font)
            layout.draw(in: canvas, at: Point(m.x - layout.width / 2, m.y - 68), color: RGBAColor(red: 0.125, green: 0.129, blue: 0.141), cache: cache)
            glyphs += layout.glyphCount
        }
    }
    let stats = cache.statistics
    let rate = Double(glyphs) / (timing.median / 1000) / 1e6
    return (timing, "\(format(rate, 2)) Mglyph/s, cache hit \(format(stats.hitRate * 100, 1)) %, \(stats.entries) glyphs, \(stats.bytes / 1024) KiB cached")
}
