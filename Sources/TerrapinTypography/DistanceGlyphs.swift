// Signed-distance glyphs, drawn as MapLibre draws a style's labels.
//
// MapLibre does not rasterise label glyphs at their size: its glyph sheets hold each glyph once,
// at 24 px, as a signed distance field (a 3-texel border; 8 px of distance over the byte's
// range, the outline at 192), and its shader turns the bilinearly sampled distance into
// coverage with a smoothstep whose width shrinks as the text grows. Edges come out softer
// than exact-area coverage (about ±0.8 px at 16 px), halos are a second threshold of the same
// field, and a blur widens the threshold. A style's labels drawn any other way differ from
// the maps their styles were made on by a grey level or two at every glyph edge.
//
// Fields are made here from the font's own outlines: the distance from each texel centre to
// the nearest outline segment, negative inside (non-zero winding), quantised as the sheets
// quantise it. Placement is unchanged: the field's texels land exactly where the outline lies.
import TerrapinGeometry
import TerrapinIO
import TerrapinRaster

/// One glyph's distance field at `DistanceGlyph.emPixels`, its border included.
public struct DistanceGlyph: Sendable {
    /// The field's top-left corner from the pen (baseline), in field texels, y down.
    public let left: Int
    public let top: Int
    /// Texels, border included; 0 × 0 for a glyph with no outline (a space).
    public let width: Int
    public let height: Int
    /// `width × height` bytes, rows top down: 255 − clamp(32·d + 64) for d the signed distance
    /// in texels (negative inside), so the outline is at 192 and 0 is 6 texels out.
    public let field: [UInt8]

    /// The field's pixel size, MapLibre's `ONE_EM`.
    public static let emPixels = 24.0
    /// Texels of border around the outline's box.
    public static let border = 3
    /// Texels of distance over the byte's range.
    public static let radius = 8.0
    /// The byte's share below the outline.
    public static let cutoff = 0.25
    /// Largest field side in texels; a glyph wider or taller at 24 px is drawn from its mask.
    public static let maxSide = 512
    /// Most texel × outline segment distance tests for one field (about 40 ms); a glyph whose
    /// outline needs more (a hostile font's thousands of segments) is drawn from its mask.
    public static let maxWork = 20_000_000

    static let empty = DistanceGlyph(left: 0, top: 0, width: 0, height: 0, field: [])

    /// The field of `outline` (font units, y down) at `emPixels`, `unitsPerEm` units to the em.
    /// Nil when the glyph is too large for a field (`maxSide`) or too costly (`maxWork`).
    static func make(outline: Path, unitsPerEm: Int) -> DistanceGlyph? {
        var polylines = Polylines()
        outline.flatten(transform: .scale(emPixels / Double(max(1, unitsPerEm))), tolerance: 1.0 / 32, into: &polylines)
        guard let e = polylines.extents else { return .empty }
        let x0 = Int(e.minX.rounded()), x1 = Int(e.maxX.rounded())
        let y0 = Int(e.minY.rounded()), y1 = Int(e.maxY.rounded())
        guard x1 > x0, y1 > y0 else { return .empty }
        let width = x1 - x0 + 2 * border, height = y1 - y0 + 2 * border
        guard width <= maxSide, height <= maxSide else { return nil }
        // Segments of the closed contours, in field texels.
        var segments: [(Point, Point)] = []
        for contour in polylines.contours where contour.range.count >= 2 {
            let pts = polylines.points[contour.range]
            var previous = pts.last!
            for p in pts {
                segments.append((Point(previous.x - Double(x0 - border), previous.y - Double(y0 - border)),
                                 Point(p.x - Double(x0 - border), p.y - Double(y0 - border))))
                previous = p
            }
        }
        guard width * height * segments.count <= maxWork else { return nil }
        var field = [UInt8](repeating: 0, count: width * height)
        // Beyond this distance every texel is 0 outside (and 255 inside is never that deep).
        let reach = radius * (1 - cutoff)
        for row in 0..<height {
            let y = Double(row) + 0.5
            for col in 0..<width {
                let x = Double(col) + 0.5
                var best = reach * reach
                var winding = 0
                for (a, b) in segments {
                    // Non-zero winding by a ray to the right.
                    if a.y <= y {
                        if b.y > y, (b.x - a.x) * (y - a.y) - (x - a.x) * (b.y - a.y) > 0 { winding += 1 }
                    } else if b.y <= y, (b.x - a.x) * (y - a.y) - (x - a.x) * (b.y - a.y) < 0 {
                        winding -= 1
                    }
                    // Squared distance to the segment, skipped when its box is farther.
                    let dxBox = max(min(a.x, b.x) - x, 0, x - max(a.x, b.x))
                    let dyBox = max(min(a.y, b.y) - y, 0, y - max(a.y, b.y))
                    if dxBox * dxBox + dyBox * dyBox >= best { continue }
                    let ex = b.x - a.x, ey = b.y - a.y
                    let length2 = ex * ex + ey * ey
                    var t = length2 > 0 ? ((x - a.x) * ex + (y - a.y) * ey) / length2 : 0
                    t = min(1, max(0, t))
                    let dx = a.x + t * ex - x, dy = a.y + t * ey - y
                    best = min(best, dx * dx + dy * dy)
                }
                var d = best.squareRoot() * (256 / radius)
                if winding != 0 { d = -d }
                d += cutoff * 256
                let n = d > 255 ? 255 : max(0, Int(d))
                field[row * width + col] = UInt8(255 - n)
            }
        }
        return DistanceGlyph(left: x0 - border, top: y0 - border, width: width, height: height, field: field)
    }

    /// The field at texel coordinates (`u`, `v`) (texel centres at half-integers), bilinear,
    /// 0 beyond the border, as a GPU samples it: 0…1.
    @inline(__always)
    func sample(_ u: Double, _ v: Double) -> Double {
        let fu = u - 0.5, fv = v - 0.5
        let i = Int((fu + 1).rounded(.down)) - 1, j = Int((fv + 1).rounded(.down)) - 1
        let tx = fu - Double(i), ty = fv - Double(j)
        func at(_ c: Int, _ r: Int) -> Double {
            c >= 0 && r >= 0 && c < width && r < height ? Double(field[r * width + c]) : 0
        }
        let top = at(i, j) * (1 - tx) + at(i + 1, j) * tx
        let bottom = at(i, j + 1) * (1 - tx) + at(i + 1, j + 1) * tx
        return (top * (1 - ty) + bottom * ty) / 255
    }
}

/// Distance fields by face and glyph, made once each. Bounded: past `byteLimit` the cache
/// forgets every field (they are remade the same, so renders do not depend on it). Safe to
/// share between threads.
public final class DistanceGlyphCache: @unchecked Sendable {
    public static let shared = DistanceGlyphCache()

    struct Key: Hashable {
        let face: Int
        let glyph: UInt32
    }

    private struct State {
        var fields: [Key: DistanceGlyph?] = [:]
        var bytes = 0
    }

    public let byteLimit: Int
    private let state = Locked(State())

    public init(byteLimit: Int = 8 * 1024 * 1024) {
        self.byteLimit = byteLimit
    }

    /// The field of `glyph` in `face`; nil when it is too large for one.
    public func field(face: FontFace, glyph: UInt32) -> DistanceGlyph? {
        let key = Key(face: face.id, glyph: glyph)
        if let found = state.withLock({ $0.fields[key] }) { return found }
        let made = DistanceGlyph.make(outline: face.outline(glyph), unitsPerEm: face.unitsPerEm)
        state.withLock { s in
            if s.bytes > byteLimit { s.fields.removeAll(); s.bytes = 0 }
            if s.fields[key] == nil { s.bytes += (made?.field.count ?? 0) + 64 }
            s.fields[key] = made
        }
        return made
    }
}

/// How a style's label is drawn from distance fields: its fill, or its halo (MapLibre's
/// `text-halo-width` and `text-halo-blur`), in points.
public enum DistanceTextPass: Sendable {
    case fill
    case halo(width: Double, blur: Double)
}

extension TextLayout {
    /// Draws the text with its box's top-left at `origin` (user space of `canvas`, any affine
    /// transform) from distance fields, as MapLibre draws a style's labels: `.fill` is the
    /// text, `.halo` the ring around it (the text's inside left clear, as MapLibre leaves it,
    /// so a translucent text does not show its halo through). Colour glyphs (emoji), and glyphs
    /// too large or costly for a field, are drawn as `draw` draws them, in the fill pass only
    /// (they get no halo).
    public func drawDistanceField(in canvas: Canvas, at origin: Point, color: RGBAColor, pass: DistanceTextPass,
                                  fields: DistanceGlyphCache = .shared) {
        let t = canvas.transform
        let det = t.determinant
        guard det != 0, det.isFinite, fontSize > 0, color.alpha > 0 else { return }
        // MapLibre's gamma: 0.105 over the text's device size in ems of 24 px.
        let deviceScale = abs(det).squareRoot()
        let fontScale = fontSize / DistanceGlyph.emPixels
        let edgeGamma = 0.105 / deviceScale
        var gamma = edgeGamma / fontScale
        var inner = 0.75
        var haloEdge = 0.0
        if case .halo(let width, let blur) = pass {
            guard width > 0 || blur > 0 else { return }
            gamma = (max(0, blur) * 1.19 / DistanceGlyph.radius + edgeGamma) / fontScale
            inner += gamma
            haloEdge = (6 - max(0, width) / fontScale) / DistanceGlyph.radius
        }
        let clip = canvas.clipBounds
        let k = fontScale
        /// A glyph without a field, drawn as `draw` draws it (in the fill pass).
        func drawExactly(_ g: LaidOutGlyph) {
            guard case .fill = pass else { return }
            var one = self
            one.fontSize = fontSize * g.scale
            var g = g
            g.scale = 1
            one.lines = [TextLine(text: "", width: 0, x: 0, baseline: 0, ascent: 0, descent: 0, isTruncated: false, glyphs: [g])]
            one.draw(in: canvas, at: origin, color: color)
        }
        for line in lines {
            for g in line.glyphs {
                guard !g.face.hasColorBitmaps, let field = fields.field(face: g.face, glyph: g.glyph) else {
                    drawExactly(g)
                    continue
                }
                guard field.width > 0 else { continue }
                // Field texel (u, v) → user space → device. (A glyph of a `format` section with a
                // `font-scale` is drawn that much larger, its edge and halo kept the label's, as
                // MapLibre's shader keeps them.)
                let k = g.scale == 1 ? k : k * g.scale
                let gx = origin.x + g.x + Double(field.left) * k, gy = origin.y + g.y + Double(field.top) * k
                let toDevice = Transform(a: k, b: 0, c: 0, d: k, tx: gx, ty: gy).concatenating(t)
                let box = toDevice.apply(Rect(x: 0, y: 0, width: Double(field.width), height: Double(field.height)))
                guard box.minX.isFinite, box.maxX.isFinite, box.minY.isFinite, box.maxY.isFinite,
                      abs(box.minX) < 1e8, abs(box.minY) < 1e8, abs(box.maxX) < 1e8, abs(box.maxY) < 1e8 else { continue }
                let x0 = max(clip.x0, Int(box.minX.rounded(.down))), x1 = min(clip.x1, Int(box.maxX.rounded(.up)))
                let y0 = max(clip.y0, Int(box.minY.rounded(.down))), y1 = min(clip.y1, Int(box.maxY.rounded(.up)))
                guard x0 < x1, y0 < y1 else { continue }
                guard let fromDevice = toDevice.inverted else { continue }
                let w = x1 - x0
                var mask = [UInt8](repeating: 0, count: w * (y1 - y0))
                for y in y0..<y1 {
                    let py = Double(y) + 0.5
                    for x in x0..<x1 {
                        let p = fromDevice.apply(Point(Double(x) + 0.5, py))
                        guard p.x > -1, p.y > -1, p.x < Double(field.width) + 1, p.y < Double(field.height) + 1 else { continue }
                        let dist = field.sample(p.x, p.y)
                        var alpha = smoothstep(inner - gamma, inner + gamma, dist)
                        if case .halo = pass {
                            alpha = min(smoothstep(haloEdge - gamma, haloEdge + gamma, dist), 1 - alpha)
                        }
                        if alpha > 0 { mask[(y - y0) * w + (x - x0)] = UInt8((alpha * 255).rounded()) }
                    }
                }
                canvas.fillMask(mask, width: w, at: (x0, y0), color: color)
            }
        }
    }
}
