// One behaviour per golden, under Fixtures/raster/<feature>/<case>.png.
import Foundation
import Testing
import TerrapinTestSupport
import TerrapinGeometry
import TerrapinRaster

let paper = RGBAColor(red: 0.97, green: 0.97, blue: 0.95)
let ink = RGBAColor(red: 0.13, green: 0.13, blue: 0.14)
let red = RGBAColor(RGBA8(hex: "#E53935")!)
let blue = RGBAColor(RGBA8(hex: "#1E88E5")!)
let green = RGBAColor(RGBA8(hex: "#43A047")!)
let orange = RGBAColor(RGBA8(hex: "#FB8C00")!)

func canvas(_ width: Int = 240, _ height: Int = 120) -> Canvas {
    let c = Canvas(width: width, height: height)!
    c.clear(paper)
    return c
}

func star(center: Point, radius: Double) -> Path {
    polygon((0..<5).map { k in
        let a = -Double.pi / 2 + Double(k * 2) * 2 * Double.pi / 5
        return Point(center.x + radius * cos(a), center.y + radius * sin(a))
    })
}

/// A small test image: four coloured quadrants with a white diagonal, and a transparent corner.
func testImage() -> Pixmap {
    var p = Pixmap(width: 8, height: 8)!
    for y in 0..<8 {
        for x in 0..<8 {
            let c: RGBA8 = x == y ? RGBA8(red: 255, green: 255, blue: 255)
                : (x < 4 ? (y < 4 ? RGBA8(hex: "#E53935")! : RGBA8(hex: "#43A047")!) : (y < 4 ? RGBA8(hex: "#1E88E5")! : RGBA8(hex: "#FB8C00")!))
            p[x, y] = (x == 7 && y == 0) ? .transparent : c.premultiplied
        }
    }
    return p
}

@Suite struct RasterGoldenTests {
    @Test func fillRules() {
        let c = canvas()
        for (i, rule) in [FillRule.nonZero, .evenOdd].enumerated() {
            let x = Double(i) * 120
            c.fill(star(center: Point(x + 35, 62), radius: 30), paint: Paint(color: blue), rule: rule)
            var rings = PathBuilder()
            rings.addCircle(center: Point(x + 90, 60), radius: 24)
            rings.addCircle(center: Point(x + 90, 60), radius: 14)
            rings.addCircle(center: Point(x + 90, 60), radius: 6)
            c.fill(rings.build(), paint: Paint(color: red), rule: rule)
        }
        Golden.check(c.pixmap, "raster/fill-rules/nonzero-left-evenodd-right")
    }

    @Test func curves() {
        let c = canvas()
        var b = PathBuilder()
        b.move(to: Point(10, 100))
        b.quad(to: Point(70, 100), control: Point(40, 0))
        b.cubic(to: Point(150, 100), control1: Point(90, 10), control2: Point(130, 10))
        b.arc(center: Point(190, 100), radius: 40, startAngle: Double.pi, endAngle: 2 * Double.pi, clockwise: true)
        b.close()
        c.fill(b.build(), paint: Paint(color: green))
        c.stroke(b.build(), style: StrokeStyle(width: 2, join: .round), paint: Paint(color: ink))
        c.fill(PathBuilder.ellipse(in: Rect(x: 20.5, y: 10.25, width: 40.3, height: 20.7)), paint: Paint(color: orange))
        Golden.check(c.pixmap, "raster/curves/quad-cubic-arc-ellipse")
    }

    @Test func strokeCaps() {
        let c = canvas()
        for (i, cap) in LineCap.allCases.enumerated() {
            let y = 25.0 + Double(i) * 35
            var b = PathBuilder()
            b.move(to: Point(40, y)); b.line(to: Point(200, y))
            c.stroke(b.build(), style: StrokeStyle(width: 18, cap: cap), paint: Paint(color: blue))
            c.stroke(b.build(), style: StrokeStyle(width: 0), paint: Paint(color: ink))
        }
        Golden.check(c.pixmap, "raster/strokes/caps-butt-round-square")
    }

    @Test func strokeJoins() {
        let c = canvas()
        for (i, join) in LineJoin.allCases.enumerated() {
            let x = 15.0 + Double(i) * 78
            let path = polygon([Point(x, 95), Point(x + 25, 25), Point(x + 50, 95)])
            var open = PathBuilder()
            open.move(to: Point(x, 95)); open.line(to: Point(x + 25, 25)); open.line(to: Point(x + 50, 95))
            c.stroke(open.build(), style: StrokeStyle(width: 14, join: join), paint: Paint(color: red))
            c.stroke(open.build(), style: StrokeStyle(width: 0), paint: Paint(color: ink))
            _ = path
        }
        Golden.check(c.pixmap, "raster/strokes/joins-miter-round-bevel")
    }

    @Test func miterLimit() {
        let c = canvas()
        for (i, limit) in [1.0, 2.0, 4.0, 10.0].enumerated() {
            let x = 15.0 + Double(i) * 58
            var b = PathBuilder()
            b.move(to: Point(x, 100)); b.line(to: Point(x + 20, 35)); b.line(to: Point(x + 40, 100))
            c.stroke(b.build(), style: StrokeStyle(width: 8, join: .miter, miterLimit: limit), paint: Paint(color: blue))
        }
        Golden.check(c.pixmap, "raster/strokes/miter-limit-1-2-4-10")
    }

    @Test func dashes() {
        let c = canvas()
        let patterns: [([Double], Double, LineCap)] = [([12, 6], 0, .butt), ([12, 6], 9, .butt), ([0, 10], 0, .round), ([20, 9, 4, 9], 0, .square)]
        for (i, (dash, phase, cap)) in patterns.enumerated() {
            let y = 18.0 + Double(i) * 16
            var b = PathBuilder()
            b.move(to: Point(10, y)); b.line(to: Point(140, y))
            c.stroke(b.build(), style: StrokeStyle(width: 5, cap: cap, dash: dash, dashPhase: phase), paint: Paint(color: ink))
        }
        c.stroke(PathBuilder.circle(center: Point(190, 40), radius: 28), style: StrokeStyle(width: 4, dash: [9, 5]), paint: Paint(color: red))
        c.stroke(PathBuilder.rect(Rect(x: 160, y: 80, width: 60, height: 30)), style: StrokeStyle(width: 3, join: .miter, dash: [14, 4]), paint: Paint(color: blue))
        Golden.check(c.pixmap, "raster/strokes/dashes-patterns-phase-closed")
    }

    @Test func hairlines() {
        let c = canvas()
        for k in 0..<12 {
            let a = Double(k) * Double.pi / 22
            var b = PathBuilder()
            b.move(to: Point(10, 110)); b.line(to: Point(10 + 105 * cos(a), 110 - 105 * sin(a)))
            c.stroke(b.build(), style: StrokeStyle(width: 0), paint: Paint(color: ink))
        }
        // Under a 6× transform a hairline stays one device pixel wide.
        c.transform = .scale(6)
        c.stroke(PathBuilder.circle(center: Point(29, 10), radius: 8), style: StrokeStyle(width: 0), paint: Paint(color: red))
        c.stroke(PathBuilder.circle(center: Point(29, 10), radius: 5), style: StrokeStyle(width: 0.5), paint: Paint(color: blue))
        Golden.check(c.pixmap, "raster/strokes/hairlines-fan-and-scaled")
    }

    @Test func linearGradientSpreads() {
        let c = canvas()
        let stops = [GradientStop(offset: 0, color: blue), GradientStop(offset: 0.5, color: .white), GradientStop(offset: 1, color: red)]
        for (i, spread) in SpreadMode.allCases.enumerated() {
            let y = 6.0 + Double(i) * 38
            let g = LinearGradient(start: Point(90, 0), end: Point(150, 0), stops: stops, spread: spread)
            c.fill(PathBuilder.roundedRect(Rect(x: 8, y: y, width: 224, height: 32), cornerRadius: 6), paint: Paint(shader: .linearGradient(g)))
        }
        Golden.check(c.pixmap, "raster/gradients/linear-pad-repeat-reflect")
    }

    @Test func radialGradientAndTransparency() {
        let c = canvas()
        // A checkerboard shows that fading to transparent does not darken.
        for y in 0..<12 { for x in 0..<24 where (x + y) % 2 == 0 {
            c.fill(PathBuilder.rect(Rect(x: Double(x * 10), y: Double(y * 10), width: 10, height: 10)), paint: Paint(color: RGBAColor(red: 0.8, green: 0.8, blue: 0.8)))
        } }
        let radial = RadialGradient(center: Point(60, 60), radius: 50, stops: [GradientStop(offset: 0, color: .white), GradientStop(offset: 1, color: blue)])
        c.fill(PathBuilder.circle(center: Point(60, 60), radius: 50), paint: Paint(shader: .radialGradient(radial)))
        let fade = LinearGradient(start: Point(130, 0), end: Point(230, 0),
                                  stops: [GradientStop(offset: 0, color: red), GradientStop(offset: 1, color: RGBAColor(red: 1, green: 1, blue: 1, alpha: 0))])
        c.fill(PathBuilder.rect(Rect(x: 130, y: 20, width: 100, height: 80)), paint: Paint(shader: .linearGradient(fade)))
        Golden.check(c.pixmap, "raster/gradients/radial-and-fade-to-transparent")
    }

    @Test func nestedClips() {
        let c = canvas()
        c.save()
        c.clip(to: PathBuilder.circle(center: Point(80, 60), radius: 50))
        c.clip(to: PathBuilder.roundedRect(Rect(x: 60, y: 20, width: 110, height: 80), cornerRadius: 14))
        for k in 0..<30 {
            var b = PathBuilder()
            b.move(to: Point(Double(k) * 10 - 60, 0)); b.line(to: Point(Double(k) * 10 + 60, 120))
            c.stroke(b.build(), style: StrokeStyle(width: 4), paint: Paint(color: k % 2 == 0 ? blue : orange))
        }
        c.restore()
        // After restore the clip is gone: this bar is drawn whole.
        c.fill(PathBuilder.rect(Rect(x: 180, y: 10, width: 50, height: 100)), paint: Paint(color: green))
        // An aliased clip has hard edges.
        c.save()
        c.clip(to: PathBuilder.circle(center: Point(205, 60), radius: 20), antiAlias: false)
        c.fill(PathBuilder.rect(Rect(x: 180, y: 10, width: 50, height: 100)), paint: Paint(color: red))
        c.restore()
        Golden.check(c.pixmap, "raster/clips/nested-circle-roundrect-and-aliased")
    }

    @Test func shadows() {
        let c = canvas()
        for (i, radius) in [1.0, 4.0, 10.0].enumerated() {
            let rect = Rect(x: 20 + Double(i) * 75, y: 30, width: 50, height: 50)
            let shape = PathBuilder.roundedRect(rect, cornerRadius: 10)
            c.drawShadow(of: shape, color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.5), radius: radius, offset: Point(0, radius / 2))
            c.fill(shape, paint: Paint(color: .white))
        }
        Golden.check(c.pixmap, "raster/shadows/radius-1-4-10")
    }

    @Test func imageUpscaling() {
        let c = canvas()
        c.drawImage(testImage(), transform: Transform.scale(12).concatenating(.translation(10, 12)), filter: .nearest)
        c.drawImage(testImage(), transform: Transform.scale(12).concatenating(.translation(130, 12)), filter: .bilinear)
        Golden.check(c.pixmap, "raster/images/upscale-nearest-left-bilinear-right")
    }

    @Test func imageDownscaling() throws {
        // Fine stripes shrunk 6×: bilinear aliases into false patterns, smooth averages to grey.
        var stripes = Pixmap(width: 600, height: 600)!
        for y in 0..<600 { for x in 0..<600 {
            let on = ((x + y) / 3) % 2 == 0
            stripes[x, y] = on ? PremultipliedRGBA8(red: 20, green: 20, blue: 20, alpha: 255) : PremultipliedRGBA8(red: 250, green: 250, blue: 250, alpha: 255)
        } }
        let c = canvas()
        c.drawImage(stripes, transform: Transform.scale(1.0 / 6).concatenating(.translation(10, 10)), filter: .bilinear)
        c.drawImage(stripes, transform: Transform.scale(1.0 / 6).concatenating(.translation(130, 10)), filter: .smooth)
        Golden.check(c.pixmap, "raster/images/downscale-bilinear-left-smooth-right")
    }

    @Test func transforms() {
        let c = canvas()
        let shape = PathBuilder.roundedRect(Rect(x: -20, y: -14, width: 40, height: 28), cornerRadius: 7)
        let transforms: [Transform] = [
            .translation(35, 60),
            Transform.rotation(Double.pi / 6).concatenating(.translation(95, 60)),
            Transform.skew(0.6, 0).concatenating(.translation(155, 60)),
            Transform.scale(0.6, 1.6).concatenating(.rotation(-0.4)).concatenating(.translation(210, 60)),
        ]
        for t in transforms {
            c.transform = t
            c.fill(shape, paint: Paint(color: blue))
            c.stroke(shape, style: StrokeStyle(width: 2), paint: Paint(color: ink))
            c.fill(star(center: .zero, radius: 9), paint: Paint(color: .white))
        }
        Golden.check(c.pixmap, "raster/transforms/translate-rotate-skew-scale")
    }

    @Test func blendModesAndOpacity() {
        let c = canvas()
        for (i, mode) in BlendMode.allCases.enumerated() {
            let x = 10.0 + Double(i) * 57
            c.fill(PathBuilder.rect(Rect(x: x, y: 20, width: 45, height: 60)), paint: Paint(color: blue))
            c.fill(PathBuilder.circle(center: Point(x + 38, 70), radius: 20), paint: Paint(shader: .solid(RGBAColor(red: 0.9, green: 0.2, blue: 0.2, alpha: 0.7)), blendMode: mode))
        }
        c.fill(PathBuilder.rect(Rect(x: 10, y: 100, width: 220, height: 12)), paint: Paint(shader: .solid(ink), opacity: 0.4))
        Golden.check(c.pixmap, "raster/blend/over-source-dstin-dstout-and-opacity")
    }
}
