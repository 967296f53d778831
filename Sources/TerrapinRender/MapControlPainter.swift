// The map controls drawn as the SDK draws them: white cards with a soft shadow, dark-grey
// vector glyphs (no font is involved, so every machine draws the same pixels), a hairline
// between a control's two buttons, and the compass as a round card whose needle points north.
import Foundation
import TerrapinGeometry
import TerrapinRaster

extension MapPainter {
    static let controlInk = RGBAColor(RGBA8(hex: "#3C4043")!)
    static let controlHairline = RGBAColor(RGBA8(hex: "#DADCE0")!)
    static let compassNorth = RGBAColor(RGBA8(hex: "#EA4335")!)
    static let compassSouth = RGBAColor(RGBA8(hex: "#9AA0A6")!)

    static func drawControl(_ control: ResolvedControl, canvas: Canvas) {
        let f = control.frame
        let card = control.kind == .compass ? PathBuilder.circle(center: Point(f.midX, f.midY), radius: f.width / 2)
                                            : PathBuilder.roundedRect(f, cornerRadius: 8)
        canvas.drawShadow(of: card, color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.3), radius: 3, offset: Point(0, 1))
        canvas.fill(card, paint: Paint(color: .white))
        if control.buttons.count == 2 {
            let b = control.buttons[1].frame
            var line = PathBuilder()
            if f.height > f.width {
                line.move(to: Point(f.minX + 6, b.minY)); line.line(to: Point(f.maxX - 6, b.minY))
            } else {
                line.move(to: Point(b.minX, f.minY + 6)); line.line(to: Point(b.minX, f.maxY - 6))
            }
            canvas.stroke(line.build(), style: StrokeStyle(width: 1), paint: Paint(color: controlHairline))
        }
        for button in control.buttons { drawGlyph(button.glyph, in: button.frame, heading: control.heading, canvas: canvas) }
    }

    /// A glyph centred in its button: strokes 2 pt wide with round ends, within ±8 pt.
    static func drawGlyph(_ glyph: ControlGlyph, in frame: Rect, heading: Double, canvas: Canvas) {
        let cx = frame.midX, cy = frame.midY
        let ink = Paint(color: controlInk)
        let pen = StrokeStyle(width: 2, cap: .round, join: .round)
        var b = PathBuilder()
        func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
            b.move(to: Point(cx + x0, cy + y0)); b.line(to: Point(cx + x1, cy + y1))
        }
        /// An arrow from the centre's far side to `(dx, dy)` (a unit direction), 14 pt long.
        func arrow(_ dx: Double, _ dy: Double) {
            line(-7 * dx, -7 * dy, 7 * dx, 7 * dy)
            line(7 * dx, 7 * dy, 7 * dx - 5 * dx + 5 * dy, 7 * dy - 5 * dy - 5 * dx)
            line(7 * dx, 7 * dy, 7 * dx - 5 * dx - 5 * dy, 7 * dy - 5 * dy + 5 * dx)
        }
        switch glyph {
        case .zoomIn: line(-7, 0, 7, 0); line(0, -7, 0, 7)
        case .zoomOut: line(-7, 0, 7, 0)
        case .panLeft: arrow(-1, 0)
        case .panRight: arrow(1, 0)
        case .panUp: arrow(0, -1)
        case .panDown: arrow(0, 1)
        case .tiltUp:
            // A plane seen at a slant: a trapezoid narrower at the top.
            b.move(to: Point(cx - 4, cy - 5)); b.line(to: Point(cx + 4, cy - 5)); b.line(to: Point(cx + 8, cy + 5))
            b.line(to: Point(cx - 8, cy + 5)); b.close()
        case .tiltDown:
            // The plane from straight above: a square.
            b.addRect(Rect(x: cx - 6, y: cy - 6, width: 12, height: 12))
        case .rotateLeft, .rotateRight:
            // Three quarters of a circle with an arrowhead at its open end.
            let left = glyph == .rotateLeft
            let start = -Double.pi / 2, end = start + (left ? -1.5 : 1.5) * Double.pi
            b.arc(center: Point(cx, cy), radius: 7, startAngle: start, endAngle: end, clockwise: !left)
            let tip = Point(cx, cy - 7), back = left ? 1.0 : -1.0
            b.move(to: Point(tip.x + 4 * back, tip.y - 4)); b.line(to: tip); b.line(to: Point(tip.x + 4 * back, tip.y + 4))
        case .compass:
            drawNeedle(center: Point(cx, cy), heading: heading, canvas: canvas)
            return
        }
        canvas.stroke(b.build(), style: pen, paint: ink)
    }

    /// The compass's needle: a red half toward north, a grey half toward south, turned by minus
    /// the heading (a map facing east has north on its left).
    static func drawNeedle(center: Point, heading: Double, canvas: Canvas) {
        let a = -heading * Double.pi / 180
        func at(_ x: Double, _ y: Double) -> Point {
            Point(center.x + x * cos(a) - y * sin(a), center.y + x * sin(a) + y * cos(a))
        }
        var north = PathBuilder(), south = PathBuilder()
        north.move(to: at(0, -13)); north.line(to: at(4.5, 0)); north.line(to: at(-4.5, 0)); north.close()
        south.move(to: at(0, 13)); south.line(to: at(4.5, 0)); south.line(to: at(-4.5, 0)); south.close()
        canvas.fill(north.build(), paint: Paint(color: compassNorth))
        canvas.fill(south.build(), paint: Paint(color: compassSouth))
    }
}
