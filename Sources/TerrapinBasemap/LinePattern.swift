// `line-pattern`: a sprite image repeated along a line, as MapLibre draws it. The image runs
// along the line from each part's start, at its own size (image pixels over the sprite's pixel
// ratio); across the line it is centred, at its own size where the line is no wider than the
// image (plus a pixel each side), stretched to the line's edges where it is wider
// (MapLibre's y = ½ + n · min(w/2, (h + 2)/2) / h, n from −1 to 1 across the line). Its top row
// is on the left of the line's direction.
//
// A layer's lines of one pattern are stroked into a coverage mask (caps, joins, offsets and
// anti-aliasing as every line), while each pixel near them learns its place along and across
// the nearest segment of the latest feature over it; the pattern is then sampled (bilinear,
// repeating along, clamped across) through the mask once.
//
// `line-gradient` goes the same way: each pixel learns how far along its piece of line it lies,
// and takes the gradient's colour from a ramp of `resolution` texels made for that piece, as
// MapLibre's gradient texture holds one row per piece: texel i is the gradient at
// start + (end − start) · i / (resolution − 1), the piece's start and end along its whole line
// coming from the source's line metrics; read linearly between texels, or at the nearest for a
// `step` expression; not premultiplied, times the coverage, as its line-gradient shader does.
import TerrapinGeometry
import TerrapinRaster

final class LinePattern {
    let size: Int
    let cell: (width: Int, height: Int, texels: [Float])
    let mask: Canvas
    /// Per tile pixel: the pattern's coordinates there (pattern pixels: along the line, wrapped
    /// into the image's width; across it, from the image's top), the feature that set them (0:
    /// none) and that pixel's distance from the feature's line.
    private var u: [Float], v: [Float], owner: [Int32], distance: [Float]
    /// Pixel visits left: a layer's lines of one pattern may visit each tile pixel
    /// `visitsPerPixel` times (wide lines of many segments would otherwise cost their count
    /// times the tile).
    private(set) var budget: Int
    static let visitsPerPixel = 64
    /// A gradient instead of a pattern: its colour (0…1, not premultiplied) at a place along the
    /// line, its ramps' texels, and whether they are read at the nearest.
    let gradient: ((Double) -> SIMD4<Float>)?
    let resolution: Int
    let nearest: Bool
    /// The pieces' starts and ends along their lines, in the order added (a pixel's `v` is its
    /// piece's index here).
    private var spans: [SIMD2<Double>] = []

    /// A gradient along lines: `colour` at each place (0…1) along a line, read through ramps of
    /// `resolution` texels.
    init?(tileSize: Int, gradient colour: @escaping (Double) -> SIMD4<Float>, resolution: Int, nearest: Bool) {
        guard resolution >= 2, let mask = Canvas(width: tileSize, height: tileSize) else { return nil }
        size = tileSize
        cell = (1, 1, [0, 0, 0, 0])
        self.mask = mask
        gradient = colour
        self.resolution = resolution
        self.nearest = nearest
        u = [Float](repeating: 0, count: tileSize * tileSize)
        v = u
        distance = u
        owner = [Int32](repeating: 0, count: tileSize * tileSize)
        budget = Self.visitsPerPixel * tileSize * tileSize
    }

    init?(tileSize: Int, image: Pixmap, ratio: Double) {
        guard let cell = Basemap.patternCell(image, ratio: ratio), let mask = Canvas(width: tileSize, height: tileSize) else { return nil }
        size = tileSize
        self.cell = cell
        self.mask = mask
        gradient = nil
        resolution = 0
        nearest = false
        u = [Float](repeating: 0, count: tileSize * tileSize)
        v = u
        distance = u
        owner = [Int32](repeating: 0, count: tileSize * tileSize)
        budget = Self.visitsPerPixel * tileSize * tileSize
    }

    /// One feature: `path` (its parts, `parts` as points, in tile pixels) stroked with `style`
    /// at `opacity`; `feature` numbers it (from 1, increasing: a later feature's pixels win).
    /// For a gradient, `progress` gives each part's start and end along its whole line (nil:
    /// each part is a whole line, 0 to 1). False, with nothing drawn, once the visits are spent.
    func add(_ parts: [[Point]], path: Path, style: StrokeStyle, opacity: Double, feature: Int32, progress: [SIMD2<Double>]? = nil) -> Bool {
        guard budget > 0 else { return false }
        mask.stroke(path, style: style, paint: Paint(color: RGBAColor(red: 1, green: 1, blue: 1, alpha: Float(min(1, max(0, opacity))))))
        let half = style.width / 2
        let pw = Double(cell.width), ph = Double(cell.height)
        let across = half > 0 ? min(half, (ph + 2) / 2) / half : 1
        // Every pixel the stroke can reach: miter joins and square caps reach past the width.
        let reach = half * max(1, style.join == .miter ? style.miterLimit : 1, style.cap == .square ? 2.squareRoot() : 1) + 1.5
        // The per-pixel arrays taken out of the object while the pixels are visited (and put
        // back after): a stored property of a class written in the loop was an exclusivity
        // check per access, 1.5 million calls into the runtime for one tile of patterned paths.
        var owner = self.owner, distance = self.distance, u = self.u, v = self.v, budget = self.budget
        self.owner = []; self.distance = []; self.u = []; self.v = []
        defer { self.owner = owner; self.distance = distance; self.u = u; self.v = v; self.budget = budget }
        let gradient = self.gradient, size = self.size
        for (index, part) in parts.enumerated() where part.count >= 2 {
            var along = 0.0
            // A gradient's mapping from the part's length to its place along the whole line.
            var partLength = 0.0
            if gradient != nil { for i in 0..<(part.count - 1) { let ex = part[i + 1].x - part[i].x, ey = part[i + 1].y - part[i].y; partLength += (ex * ex + ey * ey).squareRoot() } }
            if gradient != nil { spans.append(progress.flatMap { index < $0.count ? $0[index] : nil } ?? SIMD2(0, 1)) }
            let piece = Float(spans.count - 1)
            for i in 0..<(part.count - 1) {
                let a = part[i], b = part[i + 1]
                let dx = b.x - a.x, dy = b.y - a.y, length = (dx * dx + dy * dy).squareRoot()
                guard length > 1e-9, length.isFinite else { continue }
                defer { along += length }
                let tx = dx / length, ty = dy / length
                let left = max(0, Int((min(a.x, b.x) - reach).rounded(.down))), right = min(size - 1, Int((max(a.x, b.x) + reach).rounded(.down)))
                let top = max(0, Int((min(a.y, b.y) - reach).rounded(.down))), bottom = min(size - 1, Int((max(a.y, b.y) + reach).rounded(.down)))
                guard left <= right, top <= bottom else { continue }
                // A row meets the band within `reach` of the segment's line over at most
                // 2 · reach / |sin| pixels: a long slanted segment costs its length, not its box.
                let halfSpan = abs(ty) > 1e-6 ? reach / abs(ty) : Double.infinity
                for y in top...bottom {
                    let py = Double(y) + 0.5 - a.y
                    var x0 = left, x1 = right
                    if halfSpan.isFinite {
                        let centre = a.x + py * tx / ty
                        x0 = max(left, Int((centre - halfSpan).rounded(.down)))
                        x1 = min(right, Int((centre + halfSpan).rounded(.down)))
                        if x0 > x1 { continue }
                    }
                    budget -= x1 - x0 + 1
                    for x in x0...x1 {
                        let px = Double(x) + 0.5 - a.x
                        let t = px * tx + py * ty, n = py * tx - px * ty
                        let d = t < 0 ? (px * px + py * py).squareRoot() : t > length ? ((px - dx) * (px - dx) + (py - dy) * (py - dy)).squareRoot() : abs(n)
                        guard d <= reach else { continue }
                        let k = y * size + x
                        if owner[k] == feature && Double(distance[k]) <= d { continue }
                        owner[k] = feature
                        distance[k] = Float(d)
                        let s = along + min(length, max(0, t))
                        if gradient != nil {
                            u[k] = Float(partLength > 0 ? s / partLength : 0)
                            v[k] = piece
                            continue
                        }
                        u[k] = Float(s - (s / pw).rounded(.down) * pw)
                        v[k] = Float(ph / 2 + n * across)
                    }
                }
            }
        }
        return true
    }

    /// The pattern through the mask: premultiplied, ready to lay on the tile.
    func image() -> Pixmap? {
        let coverage = mask.pixmap
        if let colourAt = gradient {
            var out = [UInt8](repeating: 0, count: size * size * 4)
            // Each piece's ramp texels, made as pixels ask for them.
            var texels: [SIMD2<Int>: SIMD4<Float>] = [:]
            let n = resolution
            func texel(_ piece: Int, _ i: Int) -> SIMD4<Float> {
                let key = SIMD2(piece, i)
                if let known = texels[key] { return known }
                let span = spans[piece]
                let made = colourAt(span.x + (span.y - span.x) * Double(i) / Double(n - 1))
                texels[key] = made
                return made
            }
            for k in 0..<(size * size) where owner[k] != 0 {
                let alpha = Float(coverage.data[k * 4 + 3]) / 255
                guard alpha > 0 else { continue }
                let piece = Int(v[k])
                guard spans.indices.contains(piece) else { continue }
                // The piece's ramp, its texels' centres at (i + ½) / n of its width, as a GPU
                // samples it.
                let x = Double(min(1, max(0, u[k]))) * Double(n) - 0.5
                let colour: SIMD4<Float>
                if nearest {
                    colour = texel(piece, min(n - 1, max(0, Int((x + 0.5).rounded(.down)))))
                } else {
                    let i0 = min(n - 1, max(0, Int(x.rounded(.down)))), i1 = min(n - 1, i0 + 1)
                    let f = Float(min(1, max(0, x - Double(i0))))
                    let c0 = texel(piece, i0), c1 = texel(piece, i1)
                    colour = c0 + (c1 - c0) * f
                }
                // MapLibre multiplies the ramp's (unpremultiplied) colour by the coverage.
                for c in 0..<4 { out[k * 4 + c] = Basemap.roundedByte(Double(colour[c] * alpha * 255)) }
                // Kept a valid premultiplied pixel: no channel above alpha.
                let a = out[k * 4 + 3]
                for c in 0..<3 where out[k * 4 + c] > a { out[k * 4 + c] = a }
            }
            return Pixmap(width: size, height: size, premultipliedData: out)
        }
        let w = cell.width, h = cell.height
        var out = [UInt8](repeating: 0, count: size * size * 4)
        cell.texels.withUnsafeBufferPointer { texels in
            out.withUnsafeMutableBufferPointer { out in
                coverage.data.withUnsafeBufferPointer { coverage in
                    u.withUnsafeBufferPointer { u in
                        v.withUnsafeBufferPointer { v in
                            owner.withUnsafeBufferPointer { owner in
                                for k in 0..<(size * size) where owner[k] != 0 {
                                    let alpha = Float(coverage[k * 4 + 3]) / 255
                                    guard alpha > 0 else { continue }
                                    // Bilinear between texel centres; repeating along, clamped across.
                                    let fu = u[k] - 0.5, fv = min(Float(h) - 0.5, max(0, v[k] - 0.5))
                                    let iu = fu.rounded(.down), iv = fv.rounded(.down)
                                    let su = fu - iu, sv = fv - iv
                                    let x0 = (Int(iu) % w + w) % w, x1 = (x0 + 1) % w
                                    let y0 = Int(iv), y1 = min(h - 1, y0 + 1)
                                    for c in 0..<4 {
                                        let top = texels[(y0 * w + x0) * 4 + c] * (1 - su) + texels[(y0 * w + x1) * 4 + c] * su
                                        let bottom = texels[(y1 * w + x0) * 4 + c] * (1 - su) + texels[(y1 * w + x1) * 4 + c] * su
                                        out[k * 4 + c] = Basemap.roundedByte(Double((top * (1 - sv) + bottom * sv) * alpha))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return Pixmap(width: size, height: size, premultipliedData: out)
    }
}
