// Text benchmarks: shape and draw 10,000 labels "Marker 1" … "Marker 10000", DejaVu Sans 13 px;
// then the same labels each with one colour emoji (cycling through 24, a ZWJ family and a flag
// among them) shaped with Noto Color Emoji and composited from the glyph cache.
import Terrapin

func textBenchmarks() throws -> [(String, Timing, String)] {
    let canvas = Canvas(width: 1024, height: 768)!
    let markers = specMarkers(10_000)
    let font = FontSpec.system(size: 13)
    _ = try TextLayout.make("Marker 0", font: font)  // load the face outside the timing
    var glyphs = 0
    let cache = GlyphCache()
    let timing = try measure("labels") {
        canvas.clear(.white)
        glyphs = 0
        for (k, m) in markers.enumerated() {
            let layout = try TextLayout.make("Marker \(k + 1)", font: font)
            layout.draw(in: canvas, at: Point(m.x - layout.width / 2, m.y - 68), color: RGBAColor(red: 0.125, green: 0.129, blue: 0.141), cache: cache)
            glyphs += layout.lines.reduce(0) { $0 + $1.glyphs.count }
        }
    }
    let stats = cache.statistics
    let rate = Double(glyphs) / (timing.median / 1000) / 1e6

    let emoji = ["🍕", "☕", "🏔️", "🚉", "🏨", "⛽", "🅿️", "🚻", "🏥", "🛒", "🎭", "⛪", "🕌", "🏫", "🌊", "🏖️",
                 "🚲", "🚌", "✈️", "⚠️", "ℹ️", "👨‍👩‍👧‍👦", "🇫🇷", "1️⃣"]
    _ = try TextLayout.make("🍕 Marker 0", font: font)
    let emojiCache = GlyphCache()
    var emojiGlyphs = 0
    let emojiTiming = try measure("emoji labels") {
        canvas.clear(.white)
        emojiGlyphs = 0
        for (k, m) in markers.enumerated() {
            let layout = try TextLayout.make("\(emoji[k % emoji.count]) Marker \(k + 1)", font: font)
            layout.draw(in: canvas, at: Point(m.x - layout.width / 2, m.y - 68), color: RGBAColor(red: 0.125, green: 0.129, blue: 0.141), cache: emojiCache)
            emojiGlyphs += layout.glyphCount
        }
    }
    let emojiStats = emojiCache.statistics
    let emojiRate = Double(emojiGlyphs) / (emojiTiming.median / 1000) / 1e6
    return [("10,000 labels shaped + drawn", timing,
             "\(format(rate, 2)) Mglyph/s, cache hit \(format(stats.hitRate * 100, 1)) %"),
            ("10,000 labels with one emoji each", emojiTiming,
             "\(format(emojiRate, 2)) Mglyph/s, cache hit \(format(emojiStats.hitRate * 100, 1)) %, \(emojiStats.entries) glyphs, \(emojiStats.bytes / 1024) KiB cached")]
}
