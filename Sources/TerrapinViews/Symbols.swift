// Terrapin's built-in symbols for `Image(systemName:)`: original designs on a 24 × 24 grid,
// filled with the non-zero rule unless a symbol is marked even-odd (for cut-outs). Named after
// the SF Symbols that SDK examples use, so those examples find a close match.
import TerrapinGeometry
import TerrapinRaster

/// A symbol: a body (even-odd when it has cut-outs) plus stroked lines, all one colour.
struct Symbol: Sendable {
    let parts: [(path: Path, rule: FillRule)]
}

/// Collects a symbol's body and its separately filled stroked lines.
struct SymbolBuilder {
    var body = PathBuilder()
    var lines: [Path] = []
    mutating func move(to p: Point) { body.move(to: p) }
    mutating func line(to p: Point) { body.line(to: p) }
    mutating func cubic(to p: Point, control1: Point, control2: Point) { body.cubic(to: p, control1: control1, control2: control2) }
    mutating func arc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
        body.arc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }
    mutating func close() { body.close() }
    mutating func addRoundedRect(_ r: Rect, cornerRadius: Double) { body.addRoundedRect(r, cornerRadius: cornerRadius) }
    mutating func addCircle(center: Point, radius: Double) { body.addCircle(center: center, radius: radius) }
    mutating func addEllipse(in r: Rect) { body.addEllipse(in: r) }
}

enum Symbols {
    static let all: [String: Symbol] = [
        "mappin": mappin(), "mappin.circle.fill": mappinCircle(), "ferry.fill": ferry(), "leaf.fill": leaf(),
        "star.fill": star(), "heart.fill": heart(), "house.fill": house(), "building.2.fill": buildings(),
        "fork.knife": forkKnife(), "cup.and.saucer.fill": cup(), "cart.fill": cart(), "car.fill": car(),
        "tram.fill": tram(), "bus.fill": bus(), "airplane": airplane(), "bicycle": bicycle(), "figure.walk": walker(),
        "camera.fill": camera(), "info.circle.fill": info(), "exclamationmark.triangle.fill": warning(),
        "flag.fill": flag(), "bed.double.fill": bed(), "mountain.2.fill": mountains(), "drop.fill": drop(), "tree.fill": tree(),
    ]

    static var names: [String] { all.keys.sorted() }

    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    // MARK: Helpers

    static func poly(_ b: inout SymbolBuilder, _ points: [(Double, Double)]) {
        b.move(to: Point(points[0].0, points[0].1))
        for p in points.dropFirst() { b.line(to: Point(p.0, p.1)) }
        b.close()
    }
    static func rect(_ b: inout SymbolBuilder, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, r: Double = 0) {
        b.addRoundedRect(Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), cornerRadius: r)
    }
    static func circle(_ b: inout SymbolBuilder, _ x: Double, _ y: Double, _ r: Double) { b.addCircle(center: Point(x, y), radius: r) }
    /// A stroked polyline as filled outlines (round caps and joins).
    static func line(_ b: inout SymbolBuilder, _ points: [(Double, Double)], width: Double) {
        var p = Polylines()
        p.addContour(points.map { Point($0.0, $0.1) }, closed: false)
        let outline = Stroker.stroke(p, style: StrokeStyle(width: width, cap: .round, join: .round), tolerance: 0.01)
        var path = PathBuilder()
        for c in outline.contours {
            let pts = Array(outline.points[c.range])
            path.move(to: pts[0])
            for q in pts.dropFirst() { path.line(to: q) }
            path.close()
        }
        b.lines.append(path.build())
    }
    static func build(_ evenOdd: Bool = false, _ body: (inout SymbolBuilder) -> Void) -> Symbol {
        var b = SymbolBuilder()
        body(&b)
        return Symbol(parts: [(b.body.build(), evenOdd ? .evenOdd : .nonZero)] + b.lines.map { ($0, .nonZero) })
    }

    // MARK: Designs

    static func mappin() -> Symbol { build { b in circle(&b, 12, 7.5, 5.5); rect(&b, 11, 11, 13, 22, r: 1) } }
    static func mappinCircle() -> Symbol {
        build(true) { b in circle(&b, 12, 12, 11); circle(&b, 12, 9.5, 3.5); rect(&b, 11.2, 12, 12.8, 18.5, r: 0.8) }
    }
    static func ferry() -> Symbol {
        build(true) { b in
            poly(&b, [(1.5, 13.5), (22.5, 13.5), (19.5, 19.5), (4.5, 19.5)])
            rect(&b, 5.5, 8.5, 18.5, 13.5, r: 1)
            rect(&b, 10.5, 4, 13.5, 8.5)
            for x in [7.5, 11, 14.5] { rect(&b, x, 10, x + 2, 12) }
            line(&b, [(2, 22), (6, 21), (10, 22), (14, 21), (18, 22), (22, 21)], width: 1.2)
        }
    }
    static func leaf() -> Symbol {
        build { b in
            b.move(to: Point(4, 20)); b.cubic(to: Point(20, 3.5), control1: Point(2, 9), control2: Point(10, 3))
            b.cubic(to: Point(4, 20), control1: Point(21.5, 14), control2: Point(14, 21)); b.close()
            line(&b, [(3, 21.5), (12, 12)], width: 1.4)
        }
    }
    static func star() -> Symbol {
        build { b in
            poly(&b, (0..<10).map { k in
                let r = k % 2 == 0 ? 11.0 : 4.6, a = -Double.pi / 2 + Double(k) * Double.pi / 5
                return (12 + r * cos(a), 12.8 + r * sin(a))
            })
        }
    }
    static func heart() -> Symbol {
        build { b in
            b.move(to: Point(12, 21)); b.cubic(to: Point(2, 8.5), control1: Point(6, 16.5), control2: Point(2, 13))
            b.cubic(to: Point(12, 6), control1: Point(2, 3), control2: Point(9.5, 2))
            b.cubic(to: Point(22, 8.5), control1: Point(14.5, 2), control2: Point(22, 3))
            b.cubic(to: Point(12, 21), control1: Point(22, 13), control2: Point(18, 16.5)); b.close()
        }
    }
    static func house() -> Symbol {
        build(true) { b in poly(&b, [(1.5, 11.5), (12, 2.5), (22.5, 11.5), (19, 11.5), (19, 21), (5, 21), (5, 11.5)]); rect(&b, 10, 14.5, 14, 21) }
    }
    static func buildings() -> Symbol {
        build(true) { b in
            rect(&b, 2.5, 8, 10.5, 22); rect(&b, 12, 2, 21.5, 22)
            for y in [10.5, 14, 17.5] { rect(&b, 4.5, y, 6, y + 1.8); rect(&b, 7, y, 8.5, y + 1.8) }
            for y in [4.5, 8, 11.5, 15] { rect(&b, 14, y, 15.8, y + 2); rect(&b, 17.7, y, 19.5, y + 2) }
            rect(&b, 15.3, 18.5, 18.2, 22)
        }
    }
    static func forkKnife() -> Symbol {
        build { b in
            line(&b, [(4.5, 2.5), (4.5, 8)], width: 1.4); line(&b, [(7, 2.5), (7, 8)], width: 1.4); line(&b, [(9.5, 2.5), (9.5, 8)], width: 1.4)
            rect(&b, 3.8, 7.5, 10.2, 10.5, r: 2); rect(&b, 6, 10, 8, 21.5, r: 1)
            b.move(to: Point(15, 2.5)); b.cubic(to: Point(19.5, 12.5), control1: Point(18.5, 3.5), control2: Point(19.5, 7)); b.line(to: Point(15, 12.5)); b.close()
            rect(&b, 15, 11.5, 17.2, 21.5, r: 1)
        }
    }
    static func cup() -> Symbol {
        build(true) { b in
            b.move(to: Point(4, 6.5)); b.line(to: Point(17, 6.5)); b.line(to: Point(16, 14))
            b.cubic(to: Point(5, 14), control1: Point(15.5, 17), control2: Point(5.5, 17)); b.close()
            circle(&b, 17.5, 10, 3.3); circle(&b, 17.5, 10, 1.8)
            b.addEllipse(in: Rect(x: 2, y: 16.5, width: 20, height: 4))
        }
    }
    static func cart() -> Symbol {
        build { b in
            line(&b, [(1.5, 3.5), (4.5, 3.5), (7, 15), (19, 15)], width: 1.6)
            poly(&b, [(5.5, 6), (21.5, 6), (19.5, 13), (7, 13)])
            circle(&b, 8.5, 19.5, 2); circle(&b, 17.5, 19.5, 2)
        }
    }
    static func car() -> Symbol {
        build(true) { b in
            b.move(to: Point(2, 16.5)); b.line(to: Point(2, 12)); b.line(to: Point(5, 10.5)); b.line(to: Point(7.5, 5.5))
            b.line(to: Point(16.5, 5.5)); b.line(to: Point(19, 10.5)); b.line(to: Point(22, 12)); b.line(to: Point(22, 16.5)); b.close()
            poly(&b, [(8.7, 7), (11.3, 7), (11.3, 10.3), (7.2, 10.3)]); poly(&b, [(12.7, 7), (15.3, 7), (16.8, 10.3), (12.7, 10.3)])
            circle(&b, 7, 17, 2.8); circle(&b, 17, 17, 2.8)
        }
    }
    static func tram() -> Symbol {
        build(true) { b in
            rect(&b, 5, 4.5, 19, 19, r: 3); rect(&b, 7, 7, 17, 12, r: 1)
            circle(&b, 8.5, 15.5, 1.2); circle(&b, 15.5, 15.5, 1.2)
            line(&b, [(12, 4.5), (12, 2), (9, 1.2)], width: 1.2)
            line(&b, [(8, 19), (6, 22.5)], width: 1.4); line(&b, [(16, 19), (18, 22.5)], width: 1.4)
        }
    }
    static func bus() -> Symbol {
        build(true) { b in
            rect(&b, 3, 2.5, 21, 19.5, r: 3); rect(&b, 5, 5, 19, 11.5, r: 1)
            circle(&b, 7, 15.5, 1.4); circle(&b, 17, 15.5, 1.4)
            rect(&b, 5, 19, 8.5, 22, r: 1); rect(&b, 15.5, 19, 19, 22, r: 1)
        }
    }
    static func airplane() -> Symbol {
        build { b in
            poly(&b, [(12, 1.5), (13.4, 3.5), (13.4, 9), (22.5, 14), (22.5, 16), (13.4, 13.5), (13.4, 18.7), (16.2, 20.7), (16.2, 22.3),
                      (12, 21.2), (7.8, 22.3), (7.8, 20.7), (10.6, 18.7), (10.6, 13.5), (1.5, 16), (1.5, 14), (10.6, 9), (10.6, 3.5)])
        }
    }
    static func bicycle() -> Symbol {
        build(true) { b in
            circle(&b, 5.5, 16, 4.5); circle(&b, 5.5, 16, 3); circle(&b, 18.5, 16, 4.5); circle(&b, 18.5, 16, 3)
            line(&b, [(5.5, 16), (9.5, 8.5), (16, 8.5), (18.5, 16)], width: 1.5)
            line(&b, [(9.5, 8.5), (12, 16), (16, 8.5)], width: 1.5)
            line(&b, [(8, 6.5), (11, 6.5)], width: 1.5); line(&b, [(15, 8.5), (14.5, 5.5), (17, 5.5)], width: 1.5)
        }
    }
    static func walker() -> Symbol {
        build { b in
            circle(&b, 13.5, 3.5, 2.2)
            line(&b, [(12.5, 7.5), (11, 13.5)], width: 3)
            line(&b, [(11, 13.5), (8.5, 17.5), (7.5, 22)], width: 2.2)
            line(&b, [(11, 13.5), (14.5, 17), (15.5, 22)], width: 2.2)
            line(&b, [(12.5, 8.5), (8.5, 11.5)], width: 1.8); line(&b, [(12.5, 8.5), (15.5, 11.5), (17.5, 11)], width: 1.8)
        }
    }
    static func camera() -> Symbol {
        build(true) { b in
            rect(&b, 2, 6.5, 22, 20, r: 2.5); rect(&b, 8, 3.5, 16, 7.5, r: 1)
            circle(&b, 12, 13.2, 4.6); circle(&b, 12, 13.2, 2.8); circle(&b, 18.8, 9.3, 1)
        }
    }
    static func info() -> Symbol {
        build(true) { b in circle(&b, 12, 12, 11); circle(&b, 12, 7, 1.6); rect(&b, 10.8, 10, 13.2, 18, r: 0.6) }
    }
    static func warning() -> Symbol {
        build(true) { b in
            b.move(to: Point(10.3, 3)); b.cubic(to: Point(13.7, 3), control1: Point(11, 1.7), control2: Point(13, 1.7))
            b.line(to: Point(22.6, 18.8)); b.cubic(to: Point(20.9, 21.5), control1: Point(23.3, 20.1), control2: Point(22.4, 21.5))
            b.line(to: Point(3.1, 21.5)); b.cubic(to: Point(1.4, 18.8), control1: Point(1.6, 21.5), control2: Point(0.7, 20.1)); b.close()
            rect(&b, 11, 8, 13, 14.5, r: 1); circle(&b, 12, 17.6, 1.3)
        }
    }
    static func flag() -> Symbol {
        build { b in rect(&b, 4, 2, 6, 22.5, r: 1); poly(&b, [(6, 3), (20.5, 3), (16.5, 8), (20.5, 13), (6, 13)]) }
    }
    static func bed() -> Symbol {
        build { b in
            rect(&b, 2, 12.5, 22, 18, r: 1); rect(&b, 2, 5, 4.3, 21, r: 1); rect(&b, 19.7, 15, 22, 21, r: 1)
            rect(&b, 5.3, 9, 11.5, 12.5, r: 1.5); rect(&b, 12.5, 9, 18.7, 12.5, r: 1.5)
        }
    }
    static func mountains() -> Symbol {
        build { b in poly(&b, [(1, 20.5), (8.5, 8), (16, 20.5)]); poly(&b, [(8, 20.5), (15.5, 3.5), (23, 20.5)]) }
    }
    static func drop() -> Symbol {
        build { b in
            b.move(to: Point(12, 1.5)); b.cubic(to: Point(18.5, 14.5), control1: Point(14, 5), control2: Point(18.5, 9.5))
            b.arc(center: Point(12, 14.5), radius: 6.5, startAngle: 0, endAngle: Double.pi, clockwise: true)
            b.cubic(to: Point(12, 1.5), control1: Point(5.5, 9.5), control2: Point(10, 5)); b.close()
        }
    }
    static func tree() -> Symbol {
        build { b in circle(&b, 12, 7.5, 5.5); circle(&b, 7.5, 11.5, 4.3); circle(&b, 16.5, 11.5, 4.3); circle(&b, 12, 13, 4.5); rect(&b, 11, 13, 13, 22.5, r: 0.8) }
    }
}

#if canImport(Glibc)
import Glibc
#endif
