import Foundation
import Testing
import TerrapinGeometry
@testable import TerrapinRaster

@Suite struct CompositingTests {
    let opaqueBlue = PremultipliedRGBA8(red: 0, green: 0, blue: 255, alpha: 255)
    let halfRed = PremultipliedRGBA8(red: 128, green: 0, blue: 0, alpha: 128)

    func blend(_ s: PremultipliedRGBA8, _ d: PremultipliedRGBA8, coverage: UInt32 = 255, _ mode: BlendMode) -> PremultipliedRGBA8 {
        Pixel.unpack(Pixel.blend(Pixel.pack(s), into: Pixel.pack(d), coverage: coverage, mode: mode))
    }

    @Test func sourceOverByHand() {
        // s + d·(255 − 128)/255: blue 255·127/255 = 127, alpha 128 + 127 = 255.
        #expect(blend(halfRed, opaqueBlue, .sourceOver) == PremultipliedRGBA8(red: 128, green: 0, blue: 127, alpha: 255))
        // Coverage 128 first scales the source to (64, 0, 0, 64); d·191/255 = 191.
        #expect(blend(halfRed, opaqueBlue, coverage: 128, .sourceOver) == PremultipliedRGBA8(red: 64, green: 0, blue: 191, alpha: 255))
        // Over transparent, the source itself.
        #expect(blend(halfRed, .transparent, .sourceOver) == halfRed)
        // Translucent over translucent: (40,0,0,100) over (0,60,0,60): 40 + 0, 60·155/255 = 36.47 → 36, alpha 100 + 36.47 → 136.
        #expect(blend(PremultipliedRGBA8(red: 40, green: 0, blue: 0, alpha: 100), PremultipliedRGBA8(red: 0, green: 60, blue: 0, alpha: 60), .sourceOver)
                == PremultipliedRGBA8(red: 40, green: 36, blue: 0, alpha: 136))
    }

    @Test func otherModesByHand() {
        let d = PremultipliedRGBA8(red: 200, green: 100, blue: 50, alpha: 255)
        #expect(blend(halfRed, d, .source) == halfRed)
        // Half coverage: s·128/255 + d·127/255 = (64 + 100, 0 + 50, 0 + 25, 64 + 127).
        #expect(blend(halfRed, d, coverage: 128, .source) == PremultipliedRGBA8(red: 164, green: 50, blue: 25, alpha: 191))
        // d · 128/255: 100.39 → 100, 50.2 → 50, 25.1 → 25, 128.
        #expect(blend(halfRed, d, .destinationIn) == PremultipliedRGBA8(red: 100, green: 50, blue: 25, alpha: 128))
        // d · 127/255: 99.6 → 100, 49.8 → 50, 24.9 → 25, 127.
        #expect(blend(halfRed, d, .destinationOut) == PremultipliedRGBA8(red: 100, green: 50, blue: 25, alpha: 127))
        // Zero coverage leaves the destination alone in every mode.
        for mode in BlendMode.allCases { #expect(blend(halfRed, d, coverage: 0, mode) == d) }
    }

    @Test func scaleIsExactForEveryInput() {
        for v in 0...255 {
            for s in stride(from: 0, through: 255, by: 5) {
                let packed = UInt32(v) | UInt32(255 - v) << 8 | UInt32(v / 2) << 16 | UInt32(v) << 24
                let got = Pixel.unpack(Pixel.scale(packed, UInt32(s)))
                #expect(got.red == mul255(UInt8(v), UInt8(s)) && got.green == mul255(UInt8(255 - v), UInt8(s))
                        && got.blue == mul255(UInt8(v / 2), UInt8(s)) && got.alpha == mul255(UInt8(v), UInt8(s)))
            }
        }
    }

    @Test func solidFillOfAPixelAlignedRectIsExact() {
        let c = Canvas(width: 4, height: 4)!
        c.fill(PathBuilder.rect(Rect(x: 1, y: 1, width: 2, height: 2)), paint: Paint(shader: .solid(RGBAColor(red: 1, green: 0, blue: 0, alpha: 0.5))))
        #expect(c.pixmap[1, 1] == PremultipliedRGBA8(red: 128, green: 0, blue: 0, alpha: 128))
        #expect(c.pixmap[0, 0] == .transparent && c.pixmap[3, 3] == .transparent)
        // Opacity multiplies alpha: 0.5 · 0.5 → 64.
        c.clear()
        c.fill(PathBuilder.rect(Rect(x: 0, y: 0, width: 4, height: 4)), paint: Paint(shader: .solid(RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.5)), opacity: 0.5))
        #expect(c.pixmap[2, 2] == PremultipliedRGBA8(red: 64, green: 64, blue: 64, alpha: 64))
    }

    @Test func thickStrokesHaveNoSeams() {
        // Every pixel well inside a thick curved stroke is fully covered: joins between
        // flattened segments must not leave cracks.
        let c = Canvas(width: 80, height: 80)!
        c.stroke(PathBuilder.circle(center: Point(40, 40), radius: 25), style: StrokeStyle(width: 10), paint: Paint(color: .black))
        for k in 0..<360 {
            let a = Double(k) * Double.pi / 180
            let x = Int(40 + 25 * cos(a)), y = Int(40 + 25 * sin(a))
            #expect(c.pixmap[x, y].alpha == 255, "crack at \(x), \(y)")
        }
        #expect(c.pixmap[40, 40] == .transparent)
    }
}

@Suite struct DegenerateInputTests {
    @Test func nothingIsDrawnAndNothingTraps() {
        let c = Canvas(width: 16, height: 16)!
        c.clear(.white)
        let before = c.pixmap
        var nan = PathBuilder()
        nan.move(to: Point(.nan, 1)); nan.line(to: Point(5, 5)); nan.line(to: Point(1, 9)); nan.close()
        var huge = PathBuilder()
        huge.move(to: Point(-1e300, 0)); huge.line(to: Point(1e300, 3)); huge.line(to: Point(0, 1e300)); huge.close()
        let paths = [Path(), nan.build(), PathBuilder.rect(Rect(x: 3, y: 3, width: 0, height: 5)), PathBuilder.circle(center: Point(8, 8), radius: 0),
                     PathBuilder.circle(center: Point(8, 8), radius: .infinity)]
        let black = Paint(color: .black)
        for path in paths {
            c.fill(path, paint: black)
            c.stroke(path, style: StrokeStyle(width: 0), paint: black)
            c.drawShadow(of: path, color: .black, radius: 3)
            c.clip(to: path)
            c.fill(PathBuilder.rect(Rect(x: 0, y: 0, width: 16, height: 16)), paint: black)
            c.restore()
        }
        // Huge finite coordinates must not trap either (whatever they cover).
        c.fill(huge.build(), paint: Paint(color: .white))
        let square = PathBuilder.rect(Rect(x: 2, y: 2, width: 8, height: 8))
        c.stroke(square, style: StrokeStyle(width: .nan), paint: black)
        c.stroke(square, style: StrokeStyle(width: -3), paint: black)
        c.fill(square, paint: Paint(shader: .solid(RGBAColor(red: .nan, green: 0, blue: 0, alpha: .nan))))
        c.fill(square, paint: Paint(shader: .solid(.black), opacity: .nan))
        c.fill(square, paint: Paint(shader: .linearGradient(LinearGradient(start: Point(.nan, 0), end: Point(1, 1), stops: []))))
        c.drawShadow(of: square, color: .black, radius: .nan)
        c.drawShadow(of: square, color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0), radius: 1e300)
        c.drawImage(Pixmap(width: 2, height: 2)!, transform: .scale(0))
        c.drawImage(Pixmap(width: 2, height: 2)!, transform: Transform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0))
        c.transform = .scale(0)
        c.fill(square, paint: black)
        c.stroke(square, style: StrokeStyle(width: 2), paint: black)
        #expect(c.pixmap == before)
    }

    @Test func clipToEmptyHidesEverythingUntilRestore() {
        let c = Canvas(width: 8, height: 8)!
        c.save()
        c.clip(to: Path())
        c.fill(PathBuilder.rect(Rect(x: 0, y: 0, width: 8, height: 8)), paint: Paint(color: .black))
        #expect(c.pixmap[4, 4] == .transparent)
        c.restore()
        c.fill(PathBuilder.rect(Rect(x: 0, y: 0, width: 8, height: 8)), paint: Paint(color: .black))
        #expect(c.pixmap[4, 4].alpha == 255)
    }

    /// Clips one after another (a buffer dropped by one is kept for the next), within a
    /// canvas-wide clip and replaced without a restore, cover what each would on a fresh
    /// canvas: nothing one clip let through shows in the next.
    @Test func clipsAfterClipsCoverAsOnAFreshCanvas() {
        let shapes: [Path] = [PathBuilder.circle(center: Point(20, 16), radius: 14), PathBuilder.rect(Rect(x: 30, y: 2, width: 25, height: 9)),
                              PathBuilder.circle(center: Point(45.5, 24.3), radius: 7.2), PathBuilder.rect(Rect(x: 3, y: 20, width: 50, height: 8)), Path()]
        let outer = PathBuilder.circle(center: Point(32, 16), radius: 26)
        func coverage(_ c: Canvas) -> [UInt8] { (0..<32).flatMap { y in (0..<64).map { x in c.clipCoverage(x: x, y: y) } } }
        let reused = Canvas(width: 64, height: 32)!
        reused.clip(to: outer)
        var compared = 0
        for round in 0..<3 {
            for (i, shape) in shapes.enumerated() {
                let fresh = Canvas(width: 64, height: 32)!
                fresh.clip(to: outer)
                for c in [reused, fresh] {
                    c.save()
                    c.clip(to: shape)
                    if round == 2 { c.clip(to: shapes[(i + 1) % shapes.count]) }  // replaced in place
                }
                #expect(coverage(reused) == coverage(fresh), "round \(round), shape \(i)")
                compared += coverage(fresh).filter { $0 > 0 }.count
                reused.restore()
            }
        }
        #expect(compared > 1000)
        #expect(coverage(reused) == { let c = Canvas(width: 64, height: 32)!; c.clip(to: outer); return coverage(c) }())
    }
}

@Suite struct BlurAndImageTests {
    /// The blurred value of a unit step at x = 32 over pixel x: ∫ Φ((t − 32)/σ) dt over [x, x+1].
    func exactStep(_ x: Int, sigma: Double) -> Double {
        let n = 64
        var sum = 0.0
        for k in 0..<n {
            let t = Double(x) + (Double(k) + 0.5) / Double(n)
            sum += 0.5 * (1 + erf((t - 32) / (sigma * 2.0.squareRoot())))
        }
        return sum / Double(n)
    }

    @Test(arguments: [1.0, 2.0, 5.0, 10.0])
    func boxBlurApproximatesTheGaussian(sigma: Double) {
        // A vertical edge at x = 32, tall enough that the middle row sees no top or bottom.
        let margin = Int((6 * sigma).rounded(.up))
        let width = 64 + margin, height = 2 * margin + 1
        var mask = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height { for x in 32..<width { mask[y * width + x] = 255 } }
        Blur.gaussian(&mask, width: width, height: height, sigma: sigma)
        var worst = 0.0
        for x in 0..<64 { worst = max(worst, abs(Double(mask[margin * width + x]) / 255 - exactStep(x, sigma: sigma))) }
        print(String(format: "three-box blur, sigma %.0f: max error %.2f%% (%.1f/255) on a blurred edge", sigma, worst * 100, worst * 255))
        #expect(worst < 0.03)
    }

    /// The blur written the plain way (each axis line by line, dividing), which the fast one
    /// (reciprocals, columns a row at a time) must match exactly.
    func plainBlur(_ mask: [UInt8], width: Int, height: Int, sigma: Double) -> [UInt8] {
        var m = mask
        func box(_ line: [UInt32], size: Int, offset: Int) -> [UInt8] {
            let lo = size / 2 - offset, hi = size - 1 - lo
            return line.indices.map { i in
                var sum: UInt32 = 0
                for k in max(0, i - lo)...min(line.count - 1, i + hi) { sum += line[k] }
                return UInt8((sum + UInt32(size / 2)) / UInt32(size))
            }
        }
        let passes = Blur.boxes(sigma: sigma)
        for y in 0..<height {
            for p in passes {
                let out = box((0..<width).map { UInt32(m[y * width + $0]) }, size: p.size, offset: p.offset)
                for x in 0..<width { m[y * width + x] = out[x] }
            }
        }
        for x in 0..<width {
            for p in passes {
                let out = box((0..<height).map { UInt32(m[$0 * width + x]) }, size: p.size, offset: p.offset)
                for y in 0..<height { m[y * width + x] = out[y] }
            }
        }
        return m
    }

    @Test(arguments: [0.7, 1.3, 2.0, 3.7, 8.0, 25.0, 256.0])
    func fastBlurMatchesThePlainOneExactly(sigma: Double) {
        var state: UInt32 = 12_345
        for (width, height) in [(1, 1), (3, 40), (37, 5), (61, 53)] {
            var mask = (0..<(width * height)).map { _ in state = state &* 1_664_525 &+ 1_013_904_223; return UInt8(truncatingIfNeeded: state >> 24) }
            if width == 61 { for i in mask.indices where i % 7 != 0 { mask[i] = 255 } }
            let expected = plainBlur(mask, width: width, height: height, sigma: sigma)
            Blur.gaussian(&mask, width: width, height: height, sigma: sigma)
            #expect(mask == expected, "\(width)×\(height), σ \(sigma)")
        }
    }

    @Test func blurReciprocalsDivideExactly() {
        for d in [1, 2, 3, 7, 255, 481, 482, 1_881, 4_095] {
            let r = Blur.reciprocal(d)
            for n in stride(from: 0, to: 255 * d + d, by: max(1, d / 7)) {
                #expect((UInt64(n) * r) >> 40 == UInt64(n / d), "\(n) / \(d)")
            }
        }
    }

    @Test func blurConservesMass() {
        var mask = [UInt8](repeating: 0, count: 61 * 61)
        for y in 25..<36 { for x in 22..<39 { mask[y * 61 + x] = 255 } }
        let before = mask.reduce(0) { $0 + Int($1) }
        Blur.gaussian(&mask, width: 61, height: 61, sigma: 3)
        let after = mask.reduce(0) { $0 + Int($1) }
        #expect(abs(after - before) < before / 100, "\(before) → \(after)")
    }

    @Test func smoothDownscalingAveragesAreas() {
        // A 1-px checkerboard shrunk 4×: area averaging gives the mean everywhere.
        var board = Pixmap(width: 64, height: 64)!
        for y in 0..<64 { for x in 0..<64 { board[x, y] = (x + y) % 2 == 0 ? PremultipliedRGBA8(red: 255, green: 255, blue: 255, alpha: 255) : PremultipliedRGBA8(red: 0, green: 0, blue: 0, alpha: 255) } }
        let c = Canvas(width: 16, height: 16)!
        c.drawImage(board, transform: .scale(0.25), filter: .smooth)
        let values = Set((0..<16).flatMap { y in (0..<16).map { x in c.pixmap[x, y].red } })
        #expect(values.allSatisfy { abs(Int($0) - 128) <= 1 }, "\(values)")
        let nearest = Canvas(width: 16, height: 16)!
        nearest.drawImage(board, transform: .scale(0.25), filter: .nearest)
        #expect(Set((0..<16).map { nearest.pixmap[$0, 3].red }).isSubset(of: [0, 255]), "nearest picks single pixels")
    }

    @Test func imagesPlacedOnPixelsAreCopiedExactly() {
        var image = Pixmap(width: 3, height: 2)!
        for y in 0..<2 { for x in 0..<3 { image[x, y] = RGBA8(red: UInt8(x * 80), green: UInt8(y * 200), blue: 7, alpha: 200).premultiplied } }
        for filter in ImageFilter.allCases {
            let c = Canvas(width: 6, height: 5)!
            c.drawImage(image, transform: .translation(2, 1), filter: filter)
            for y in 0..<2 { for x in 0..<3 { #expect(c.pixmap[x + 2, y + 1] == image[x, y], "\(filter)") } }
            #expect(c.pixmap[1, 1] == .transparent && c.pixmap[5, 1] == .transparent)
        }
    }
}

/// drawImage's whole-pixel scaling fast path gives the general (scan-converted) path's bytes.
@Suite struct ScaledImageFastPathTests {
    func image() -> Pixmap {
        var p = Pixmap(width: 7, height: 5)!
        for y in 0..<5 { for x in 0..<7 {
            let a = UInt8((x * 37 + y * 53) % 256)
            p[x, y] = PremultipliedRGBA8(red: UInt8(Int(a) * x / 7), green: UInt8(Int(a) * y / 5), blue: a / 2, alpha: a)
        } }
        return p
    }

    @Test(arguments: [ImageFilter.bilinear, .nearest, .smooth], [Transform.scale(2, 1.5), Transform.scale(3).concatenating(.translation(-4, 2)),
                                                                Transform.scale(1, 4).concatenating(.translation(5, -3)),
                                                                Transform.scale(3, 0.6).concatenating(.translation(-2, 1))])
    func fastEqualsGeneral(filter: ImageFilter, transform: Transform) {
        let fast = Canvas(width: 24, height: 20)!, general = Canvas(width: 24, height: 20)!
        for c in [fast, general] { c.clear(RGBAColor(red: 0.2, green: 0.5, blue: 0.3, alpha: 1)) }
        general.clip(to: PathBuilder.rect(Rect(x: -100, y: -100, width: 400, height: 400)))   // a clip forces the general path
        fast.drawImage(image(), transform: transform, filter: filter)
        general.drawImage(image(), transform: transform, filter: filter)
        #expect(fast.pixmap == general.pixmap)
    }
}

@Suite struct SpriteTests {
    /// A sprite with transparent, translucent and opaque runs draws the bytes `drawImage` draws
    /// at the same whole-pixel offsets — inside, across every edge, off the canvas, and clipped.
    @Test func drawsWhatDrawImageDraws() throws {
        let layer = try #require(Canvas(width: 23, height: 17))
        layer.fill(PathBuilder.circle(center: Point(11.3, 8.2), radius: 7.6), paint: Paint(color: RGBAColor(red: 0.9, green: 0.3, blue: 0.1)))
        layer.fill(PathBuilder.rect(Rect(x: 2, y: 2, width: 6, height: 3)), paint: Paint(color: RGBAColor(red: 0.1, green: 0.4, blue: 0.9, alpha: 0.5)))
        let sprite = Sprite(layer.pixmap)
        for (x, y) in [(10, 10), (-5, 3), (30, -6), (45, 40), (-30, 0), (0, 100), (3, 44)] {
            for clipped in [false, true] {
                func background() throws -> Canvas {
                    let c = try #require(Canvas(width: 50, height: 50))
                    c.clear(RGBAColor(red: 0.2, green: 0.7, blue: 0.3, alpha: 0.8))
                    if clipped { c.clip(to: PathBuilder.circle(center: Point(25, 25), radius: 20)) }
                    return c
                }
                let a = try background(), b = try background()
                a.drawSprite(sprite, x: x, y: y)
                b.drawImage(layer.pixmap, transform: .translation(Double(x), Double(y)))
                #expect(a.pixmap == b.pixmap, "at (\(x), \(y))\(clipped ? ", clipped" : "")")
            }
        }
        // Runs: fully transparent corners are skipped, opaque middles copied.
        #expect(sprite.runs.contains { $0.full } && sprite.runs.contains { !$0.full })
    }

    /// A coverage sprite draws the bytes `fillMask` draws with its mask (itself checked against
    /// `Pixel.blend` one pixel at a time): full and partial runs of lengths 1 to 9, in translucent
    /// and opaque colours, inside and across every edge.
    @Test func coverageSpriteDrawsWhatFillMaskDraws() throws {
        var state: UInt32 = 777
        func next() -> UInt32 { state = 1664525 &* state &+ 1013904223; return state >> 8 }
        let w = 21, h = 13
        // Rows of runs: 0s, 255s and partial coverage of lengths 1 to 9.
        var mask: [UInt8] = []
        for _ in 0..<h {
            var row: [UInt8] = []
            while row.count < w {
                let length = Int(next() % 9) + 1
                let kind = next() % 3
                for _ in 0..<length { row.append(kind == 0 ? 0 : kind == 1 ? 255 : UInt8(1 + next() % 254)) }
            }
            mask += row.prefix(w)
        }
        let sprite = try #require(CoverageSprite(mask: mask, width: w))
        for color in [RGBAColor(red: 0.9, green: 0.2, blue: 0.4, alpha: 0.6), .white, RGBAColor(red: 0.1, green: 0.5, blue: 0.3)] {
            for (x, y) in [(4, 3), (-7, 2), (25, -5), (30, 28), (0, 0)] {
                func background() throws -> Canvas {
                    let c = try #require(Canvas(width: 40, height: 36))
                    c.clear(RGBAColor(red: 0.2, green: 0.7, blue: 0.3, alpha: 0.8))
                    return c
                }
                let a = try background(), b = try background()
                a.fill(sprite, at: (x, y), color: color)
                b.fillMask(mask, width: w, at: (x, y), color: color)
                #expect(a.pixmap == b.pixmap, "\(color) at (\(x), \(y))")
            }
        }
    }
}

@Suite struct GlyphMaskBlendTests {
    /// Glyphs of different colours in turn on one canvas each take their own colour (the canvas
    /// keeps the last colour's source), and a transparent one draws nothing.
    @Test func colourChangesBetweenGlyphs() throws {
        let canvas = try #require(Canvas(width: 8, height: 1))
        let colors = [RGBAColor(red: 1, green: 0, blue: 0), RGBAColor(red: 0, green: 0, blue: 1, alpha: 0.5), RGBAColor(red: 1, green: 0, blue: 0),
                      RGBAColor(red: 0, green: 1, blue: 0, alpha: 0), RGBAColor(red: 0, green: 1, blue: 0), .white, .transparent, .black]
        for (x, color) in colors.enumerated() { canvas.fillMask([255], width: 1, at: (x, 0), color: color) }
        let expected = colors.map { c -> UInt32 in Pixel.pack(RGBAColor(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha).premultiplied) }
        let got = canvas.pixmap.data.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
        #expect(got == expected)
    }

    /// fillMask's four-at-a-time path gives, pixel for pixel, what `Pixel.blend` gives one at a
    /// time: every coverage 0…255, translucent and opaque colours, over varied backgrounds, at
    /// offsets that leave ragged ends and cross the canvas edges.
    @Test func vectorPathEqualsTheScalarBlend() throws {
        var state: UInt32 = 12345
        func next() -> UInt32 { state = 1664525 &* state &+ 1013904223; return state >> 8 }
        for (colorIndex, color) in [RGBAColor(red: 0.13, green: 0.13, blue: 0.14), RGBAColor(red: 0.9, green: 0.2, blue: 0.4, alpha: 0.6), .white].enumerated() {
            for (ox, oy) in [(3, 2), (-2, 5), (28, -1), (0, 0)] {
                var background = [UInt8](repeating: 0, count: 33 * 17 * 4)
                for i in stride(from: 0, to: background.count, by: 4) {
                    let a = UInt8(next() % 256)
                    background[i + 3] = a
                    for c in 0..<3 { background[i + c] = UInt8(Int(next() % 256) * Int(a) / 255) }
                }
                let canvas = Canvas(pixmap: try #require(Pixmap(width: 33, height: 17, premultipliedData: background)))
                let w = 11 + colorIndex, h = 9
                // Runs of 255 and of 0 among mixed values, as glyph masks have.
                let mask = (0..<(w * h)).map { k in
                    k % 19 < 6 ? UInt8(255) : k % 17 < 5 ? UInt8(0) : k % 7 == 0 ? UInt8(0) : k % 5 == 0 ? UInt8(255) : UInt8(next() % 256)
                }
                canvas.fillMask(mask, width: w, at: (ox, oy), color: color)
                // The reference: one pixel at a time.
                var expected = background
                let s = Pixel.pack(color.premultiplied)
                expected.withUnsafeMutableBytes { raw in
                    let px = raw.bindMemory(to: UInt32.self)
                    for y in max(0, oy)..<min(17, oy + h) {
                        for x in max(0, ox)..<min(33, ox + w) {
                            let c = UInt32(mask[(y - oy) * w + (x - ox)])
                            if c != 0 { px[y * 33 + x] = Pixel.blend(s, into: px[y * 33 + x], coverage: c, mode: .sourceOver) }
                        }
                    }
                }
                #expect(canvas.pixmap.data == expected, "colour \(colorIndex) at (\(ox), \(oy))")
            }
        }
    }
}

@Suite struct DeferredCompositeTests {
    /// Composites queued to another thread (`deferringComposites`) give the bytes of drawing
    /// directly, mixed in any order with drawings that are not queued (a clear, paths, images,
    /// clipped masks and sprites) and with reads of the pixels half-way.
    @Test func queuedCompositesDrawTheBytesOfDirectDrawing() throws {
        let layer = try #require(Canvas(width: 19, height: 13))
        layer.fill(PathBuilder.circle(center: Point(9.4, 6.3), radius: 6.1), paint: Paint(color: RGBAColor(red: 0.9, green: 0.3, blue: 0.1, alpha: 0.8)))
        let sprite = Sprite(layer.pixmap)
        var glyph = [UInt8](repeating: 0, count: 9 * 11)
        for i in glyph.indices { glyph[i] = UInt8((i * 37) % 256) }
        let coverage = try #require(CoverageSprite(mask: glyph, width: 9))
        // Past `CompositeQueue.copiedMaskBytes`: queued by reference, not copied.
        var big = [UInt8](repeating: 0, count: 70 * 70)
        for i in big.indices { big[i] = UInt8((i * 13 + i / 70 * 7) % 256) }
        #expect(big.count > CompositeQueue.copiedMaskBytes && glyph.count <= CompositeQueue.copiedMaskBytes)
        // A second small mask, so copied masks differ within a batch.
        var other = [UInt8](repeating: 0, count: 7 * 12)
        for i in other.indices { other[i] = UInt8(255 - (i * 53) % 256) }
        func draw(_ canvas: Canvas, seed: UInt32) -> [Pixmap] {
            var state = seed
            func next(_ n: Int) -> Int { state = 1664525 &* state &+ 1013904223; return Int(state >> 8) % n }
            var reads: [Pixmap] = []
            canvas.clear(RGBAColor(red: 0.2, green: 0.6, blue: 0.8, alpha: 0.9))
            for k in 0..<3_000 {
                let x = next(90) - 15, y = next(70) - 15
                let color = RGBAColor(red: Float(next(256)) / 255, green: Float(next(256)) / 255, blue: 0.3, alpha: next(3) == 0 ? 1 : Float(next(256)) / 255)
                switch next(21) {
                case 0..<4: canvas.fillMask(glyph, width: 9, at: (x, y), color: color)
                case 4..<6: canvas.fillMask(other, width: 7, at: (x, y), color: color)
                case 19: canvas.fillMask(big, width: 70, at: (x - 30, y - 30), color: color)
                case 6..<11: canvas.fill(coverage, at: (x, y), color: color)
                case 11..<16: canvas.drawSprite(sprite, x: x, y: y)
                case 16: canvas.fill(PathBuilder.circle(center: Point(Double(x) + 0.3, Double(y) + 0.6), radius: 4.2), paint: Paint(color: color))
                case 17: canvas.drawImage(layer.pixmap, transform: .translation(Double(x) + 0.5, Double(y)))
                case 18:
                    // A clip makes the composites take the general (direct) path for a while.
                    canvas.save()
                    canvas.clip(to: PathBuilder.circle(center: Point(30, 25), radius: 18))
                    canvas.fillMask(glyph, width: 9, at: (x, y), color: color)
                    canvas.drawSprite(sprite, x: x, y: y)
                    canvas.restore()
                default:
                    if k % 7 == 0 { reads.append(canvas.pixmap) }
                }
            }
            reads.append(canvas.pixmap)
            return reads
        }
        for seed: UInt32 in [1, 2, 3] {
            let direct = try #require(Canvas(width: 60, height: 40)), queued = try #require(Canvas(width: 60, height: 40))
            let expected = draw(direct, seed: seed)
            let got = queued.deferringComposites {
                #expect(queued.composites != nil)
                return draw(queued, seed: seed)
            }
            #expect(got == expected, "seed \(seed)")
            #expect(queued.composites == nil && queued.pixmap == direct.pixmap)
        }
        // More batches than may be in flight, with nothing else that waits for them: the caller
        // waits for the drawing to catch up, and the bytes stay those of drawing directly.
        let direct = try #require(Canvas(width: 60, height: 40)), queued = try #require(Canvas(width: 60, height: 40))
        let count = CompositeQueue.batchSize * (CompositeQueue.chunkBatches * 3 + 4)
        func glyphs(_ canvas: Canvas) {
            for k in 0..<count {
                canvas.fillMask(glyph, width: 9, at: (k % 61 - 5, k % 37 - 5), color: RGBAColor(red: Float(k % 7) / 7, green: 0.5, blue: 0.2, alpha: 0.6))
            }
        }
        glyphs(direct)
        queued.deferringComposites { glyphs(queued) }
        #expect(queued.pixmap == direct.pixmap)
        // Masks whose copies fill a batch's bytes (`CompositeQueue.batchBytes`) long before its
        // operations do: handed over by bytes, in order.
        var wide = [UInt8](repeating: 0, count: 60 * 50)
        for i in wide.indices { wide[i] = UInt8((i * 29 + i / 60 * 3) % 256) }
        #expect(wide.count <= CompositeQueue.copiedMaskBytes && wide.count * 30 > CompositeQueue.batchBytes)
        func wides(_ canvas: Canvas) {
            canvas.clear(RGBAColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1))
            for k in 0..<2_000 {
                if k % 3 == 0 { canvas.fillMask(other, width: 7, at: (k % 41, k % 29), color: .black) }
                canvas.fillMask(wide, width: 60, at: (k % 23 - 20, k % 17 - 20), color: RGBAColor(red: Float(k % 5) / 5, green: 0.4, blue: Float(k % 3) / 3, alpha: 0.7))
            }
        }
        wides(direct)
        queued.deferringComposites { wides(queued) }
        #expect(queued.pixmap == direct.pixmap)
    }
}
