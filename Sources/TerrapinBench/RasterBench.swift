// Rasterizer benchmarks (issue figures): a large anti-aliased circle, 10,000 spec pins,
// a Gaussian shadow over a full frame.
import Terrapin
#if canImport(Glibc)
import Glibc
#endif

/// The S1/S2 marker stream of bench/scene_spec.md §5.
struct SpecLCG {
    var state: UInt32 = 42
    mutating func next() -> UInt32 { state = 1664525 &* state &+ 1013904223; return state }
}

let specPalette = ["#E53935", "#1E88E5", "#43A047", "#FB8C00", "#8E24AA", "#00ACC1", "#F4511E", "#3949AB"].map { RGBAColor(RGBA8(hex: $0)!) }

/// Pin outline of §5: tip at (x, y), circle of radius 12 centred 30 above.
func specPinPath(x: Double, y: Double) -> Path {
    let half = acos(12.0 / 30.0)          // 66.42°
    let tangent = Double.pi / 2 - half    // 23.578°
    var b = PathBuilder()
    b.move(to: Point(x, y))
    b.line(to: Point(x + 12 * cos(tangent), y - 30 + 12 * sin(tangent)))
    b.arc(center: Point(x, y - 30), radius: 12, startAngle: tangent, endAngle: Double.pi - tangent, clockwise: false)
    b.close()
    return b.build()
}

func specMarkers(_ count: Int) -> [(x: Double, y: Double, color: RGBAColor)] {
    var lcg = SpecLCG()
    return (0..<count).map { _ in
        let r1 = lcg.next(), r2 = lcg.next(), r3 = lcg.next()
        return (Double(16 + Int(r1 >> 8) % 992), Double(80 + Int(r2 >> 8) % 680), specPalette[Int(r3 >> 8) % 8])
    }
}

/// §5 "Pin": fill, white 1.5 miter stroke, white dot.
func drawSpecPin(_ canvas: Canvas, x: Double, y: Double, color: RGBAColor) {
    let pin = specPinPath(x: x, y: y)
    canvas.fill(pin, paint: Paint(color: color))
    canvas.stroke(pin, style: StrokeStyle(width: 1.5, join: .miter, miterLimit: 4), paint: Paint(color: .white))
    canvas.fill(PathBuilder.circle(center: Point(x, y - 30), radius: 4), paint: Paint(color: .white))
}

func drawSpecPins(_ canvas: Canvas, _ markers: [(x: Double, y: Double, color: RGBAColor)]) {
    for m in markers { drawSpecPin(canvas, x: m.x, y: m.y, color: m.color) }
}

func rasterBenchmarks() -> [(String, Timing, String)] {
    var results: [(String, Timing, String)] = []
    let canvas = Canvas(width: 1024, height: 768)!
    let circle = PathBuilder.circle(center: Point(512.3, 384.6), radius: 380)
    let circleTiming = measure("circle") { canvas.fill(circle, paint: Paint(color: RGBAColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 0.8))) }
    let pixels = Double.pi * 380 * 380
    results.append(("AA circle r=380, alpha 0.8", circleTiming, "\(format(pixels / 1e6 / (circleTiming.median / 1000), 0)) Mpx/s"))

    let markers = specMarkers(10_000)
    let pins = measure("pins") {
        canvas.clear(.white)
        drawSpecPins(canvas, markers)
    }
    results.append(("10,000 spec pins, 1024x768", pins, "\(format(10_000 / pins.median, 0)) pins/ms"))

    // The same pins as sprites: each of the 8 colours rasterized once (tips on whole pixels,
    // as in the spec), then composited 10,000 times. Sprite rendering is inside the timing.
    let sprites = measure("sprites") {
        canvas.clear(.white)
        var cache: [RGBAColor: Pixmap] = [:]
        for m in markers {
            let sprite = cache[m.color] ?? {
                let c = Canvas(width: 28, height: 46)!
                drawSpecPins(c, [(x: 14, y: 43, color: m.color)])
                cache[m.color] = c.pixmap
                return c.pixmap
            }()
            canvas.drawImage(sprite, transform: .translation(m.x - 14, m.y - 43))
        }
    }
    results.append(("10,000 spec pins as 8 sprites", sprites, "\(format(10_000 / sprites.median, 0)) pins/ms"))

    var rr = PathBuilder()
    rr.addRoundedRect(Rect(x: 100, y: 100, width: 824, height: 568), cornerRadius: 40)
    let shadowPath = rr.build()
    let shadow = measure("shadow") { canvas.drawShadow(of: shadowPath, color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.5), radius: 16, offset: Point(0, 8)) }
    results.append(("Gaussian shadow σ=16, 1024x768", shadow, ""))
    return results
}
