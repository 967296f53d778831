// The reference scenes S1, S2, S3 of bench/scene_spec.md, drawn with Terrapin's rasterizer,
// text and PNG code; timed in the spec's three stages and checked against its check values.
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Terrapin

/// §1: the 512 × 512 analytic height grid (row 0 north).
struct SpecGrid {
    static let n = 512
    let heights: [Double] = (0..<(n * n)).map { k in
        let j = k / n, i = k % n
        let u = Double(i) / 511, v = Double(j) / 511
        func g(_ cu: Double, _ cv: Double, _ s: Double) -> Double { exp(-((u - cu) * (u - cu) + (v - cv) * (v - cv)) / (2 * s * s)) }
        return 200 + 900 * g(0.30, 0.35, 0.10) + 1300 * g(0.68, 0.62, 0.14) + 500 * g(0.50, 0.85, 0.06)
            + 80 * sin(2 * Double.pi * 4 * u) * cos(2 * Double.pi * 3 * v) + 40 * sin(2 * Double.pi * 7 * u) * sin(2 * Double.pi * 6 * v)
    }
    func h(_ r: Int, _ c: Int) -> Double { heights[min(max(r, 0), Self.n - 1) * Self.n + min(max(c, 0), Self.n - 1)] }

    /// §2–3: Horn hillshade and the hypsometric ramp, as an opaque 512 × 512 image.
    func terrainImage() -> Pixmap {
        TerrainStyle().shadedRelief(heights, columns: Self.n, rows: Self.n, dxMetres: 20, dyMetres: 20)!
    }
}

struct SpecMarker {
    let k: Int
    let x: Double, y: Double
    let color: RGBAColor
    let label: TextLayout
}

/// §5: markers k = first…first+count−1 of one LCG stream.
func specMarkerList(count: Int, skip: Int = 0, x0: Int, xr: Int, y0: Int, yr: Int) throws -> [SpecMarker] {
    var lcg = SpecLCG()
    for _ in 0..<(3 * skip) { _ = lcg.next() }
    // DejaVu Sans Book, 13 px, nominal advances (no kerning; checked below against 82.6147 px).
    let font = FontSpec.custom("DejaVu Sans", size: 13)
    let options = TextLayoutOptions(kerning: false)
    return try (0..<count).map { i in
        let r1 = lcg.next(), r2 = lcg.next(), r3 = lcg.next()
        let k = skip + i + 1
        return SpecMarker(k: k, x: Double(x0 + Int(r1 >> 8) % xr), y: Double(y0 + Int(r2 >> 8) % yr),
                          color: specPalette[Int(r3 >> 8) % 8], label: try TextLayout.make("Marker \(k)", font: font, options: options))
    }
}

let specText = RGBAColor(RGBA8(hex: "#202124")!)

/// §5: each marker's pin, then its capsule label.
func drawSpecMarkers(_ canvas: Canvas, _ markers: [SpecMarker]) {
    let white = Paint(color: .white)
    for m in markers {
        drawSpecPin(canvas, x: m.x, y: m.y, color: m.color)
        let adv = m.label.width
        let w = adv.rounded(.up) + 24
        canvas.fill(PathBuilder.capsule(Rect(x: m.x - w / 2, y: m.y - 74, width: w, height: 28)), paint: white)
        let line = m.label.lines[0]
        m.label.draw(in: canvas, at: Point(m.x - adv / 2, m.y - 55.4995 - line.baseline), color: specText)
    }
}

struct StageTimes {
    var terrain: Timing, markers: Timing, png: Timing, total: Timing
    var bytes: Int
}

func specBenchmarks(outputDirectory: String) throws -> String {
    let grid = SpecGrid()
    var lines: [String] = []
    var problems: [String] = []
    func check(_ ok: Bool, _ what: String) { if !ok { problems.append(what) } }

    // Check values (§1, §3, §5).
    check(abs(grid.h(0, 0) - 200.0219) < 1e-4 && abs(grid.h(256, 256) - 636.0602) < 1e-4 && abs(grid.h(511, 511) - 202.3970) < 1e-4, "grid values")
    let terrain = grid.terrainImage()
    for (r, c, e) in [(0, 0, (77, 125, 72)), (256, 256, (166, 166, 110)), (317, 348, (124, 109, 99))] {
        let p = terrain[c, r]
        check(abs(Int(p.red) - e.0) <= 1 && abs(Int(p.green) - e.1) <= 1 && abs(Int(p.blue) - e.2) <= 1, "terrain colour at (\(r), \(c)): \(p)")
    }
    let s2Markers = try specMarkerList(count: 10_000, x0: 16, xr: 992, y0: 80, yr: 680)
    let s1Markers = Array(s2Markers.prefix(1000))
    check(s1Markers[0].x == 801 && s1Markers[0].y == 252 && s1Markers[0].color == specPalette[3], "marker 1")
    check(s1Markers[1].x == 960 && s1Markers[1].y == 372 && s1Markers[1].color == specPalette[0], "marker 2")
    check(s1Markers[999].x == 515 && s1Markers[999].y == 118 && s1Markers[999].color == specPalette[1], "marker 1000")
    check(abs(s1Markers[999].label.width - 82.6147) < 0.001, "advance of \"Marker 1000\": \(s1Markers[999].label.width)")

    try FileIO.makeDirectory(outputDirectory + "/S3")
    func full(_ name: String, _ markers: [SpecMarker]) throws -> StageTimes {
        let canvas = Canvas(width: 1024, height: 768)!
        var bytes: [UInt8] = []
        let runs = 7
        var t = (terrain: [Double](), markers: [Double](), png: [Double](), total: [Double]())
        for run in 0...runs {
            let start = now()
            canvas.clear(RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
            let image = grid.terrainImage()
            canvas.drawImage(image, transform: .scale(2, 1.5), filter: .bilinear)
            let afterTerrain = now()
            drawSpecMarkers(canvas, markers)
            let afterMarkers = now()
            bytes = try PNGEncoder.encode(canvas.pixmap)
            let end = now()
            if run > 0 {   // the first run is the warm-up
                t.terrain.append(afterTerrain - start); t.markers.append(afterMarkers - afterTerrain)
                t.png.append(end - afterMarkers); t.total.append(end - start)
            }
        }
        try FileIO.writeAtomically(bytes, to: "\(outputDirectory)/\(name).png")
        return StageTimes(terrain: Timing(name: "terrain", samples: t.terrain), markers: Timing(name: "markers", samples: t.markers), png: Timing(name: "png", samples: t.png), total: Timing(name: "total", samples: t.total), bytes: bytes.count)
    }
    let s1 = try full("S1", s1Markers)
    let s2 = try full("S2", s2Markers)
    // The same scenes through the product path: Marker views on a Map, resolved and painted.
    let s1p = try specProductPath("S1", s1Markers, terrain: terrain, outputDirectory: outputDirectory)
    let s2p = try specProductPath("S2", s2Markers, terrain: terrain, outputDirectory: outputDirectory)
    // How far the product path's S1 is from the spec's direct drawing.
    let direct = try PNGDecoder.decode(FileIO.read("\(outputDirectory)/S1.png", limit: 1 << 26))
    let viaProduct = try PNGDecoder.decode(FileIO.read("\(outputDirectory)/S1-product.png", limit: 1 << 26))
    var maxDiff = 0, differing = 0
    for y in 0..<768 {
        for x in 0..<1024 {
            let a = direct[x, y], b = viaProduct[x, y]
            let d = max(abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)), abs(Int(a.blue) - Int(b.blue)))
            if d > 0 { differing += 1 }
            maxDiff = max(maxDiff, d)
        }
    }

    // S3: 64 thumbnails, both cores; the terrain image is computed once per S3 render.
    let s3Markers = try specMarkerList(count: 64 * 50, x0: 8, xr: 240, y0: 76, yr: 112)
    var s3Totals: [Double] = []
    var s3Bytes = 0
    for run in 0...5 {
        let start = now()
        let image = grid.terrainImage()
        let sizes = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 64) { t in
            let canvas = Canvas(width: 256, height: 192)!
            canvas.clear(RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
            let col = 64 * (t % 8), row = 64 + 48 * (t / 8)
            canvas.drawImage(image, transform: Transform.translation(Double(-col), Double(-row)).concatenating(.scale(4)), filter: .bilinear)
            drawSpecMarkers(canvas, Array(s3Markers[(50 * t)..<(50 * t + 50)]))
            let bytes = (try? PNGEncoder.encode(canvas.pixmap)) ?? []
            sizes.withLock { $0 += bytes.count }
            if run == 0 { _ = try? FileIO.writeAtomically(bytes, to: "\(outputDirectory)/S3/thumb_\(t < 10 ? "0" : "")\(t).png") }
        }
        if run > 0 { s3Totals.append(now() - start) }
        s3Bytes = sizes.withLock { $0 }
    }
    let s3 = Timing(name: "S3", samples: s3Totals)
    let s3p = try specProductThumbnails(s3Markers, grid: grid, outputDirectory: outputDirectory)

    func row3(_ name: String, _ s: StageTimes, target: String) -> String {
        "\(name)   terrain \(format(s.terrain.median)) (\(format(s.terrain.min))–\(format(s.terrain.max)))  "
            + "markers+labels \(format(s.markers.median)) (\(format(s.markers.min))–\(format(s.markers.max)))  "
            + "PNG \(format(s.png.median)) (\(format(s.png.min))–\(format(s.png.max))) \(s.bytes) B  total \(format(s.total.median)) ms   [\(target)]"
    }
    lines.append("Reference scenes (the benchmark spec; median (min–max) of 7 runs after a warm-up, ms; PNG = libdeflate level 6, adaptive filters, banded on every core):")
    lines.append(row3("S1", s1, target: "targets: terrain ≤ 10, markers ≤ 10"))
    lines.append(row3("S2", s2, target: "target: markers ≤ 50"))
    func rowP(_ name: String, _ p: ProductPathTimes, _ count: Int) -> String {
        "\(name)   \(count) Marker views laid out, resolved and painted: markers+labels \(format(p.prepare.median + p.resolve.median + p.paint.median)) ms "
            + "(layout \(format(p.prepare.median)), resolve \(format(p.resolve.median)), paint \(format(p.paint.median)) (\(format(p.paint.min))–\(format(p.paint.max))), first paint \(format(p.firstPaint))); "
            + "PNG \(format(p.png.median)) ms \(p.bytes) B; "
            + "shape masks \(p.masks) made, \(p.hits) reused"
    }
    lines.append(rowP("S1p", s1p, 1_000))
    lines.append(rowP("S2p", s2p, 10_000))
    lines.append("     product path against the spec's direct drawing on S1: \(differing) pixels differ, by at most \(maxDiff)/255 "
                 + "(text is shaped with kerning; pins and capsules stand within 10⁻³ px of the spec's pixels, then 1/16 px of mask phase)")
    for (name, p) in [("S1 product path", s1p), ("S2 product path", s2p)] {
        record(section: "Reference scenes, product path", name: name + " layout", p.prepare, note: "")
        record(section: "Reference scenes, product path", name: name + " resolve", p.resolve, note: "")
        record(section: "Reference scenes, product path", name: name + " paint", p.paint, note: "\(p.masks) masks, \(p.hits) reuses")
    }
    lines.append("S3   64 thumbnails 256x192 on \(Cores.available) cores: total \(format(s3.median)) (\(format(s3.min))–\(format(s3.max))) ms, \(s3Bytes) B of PNG   [target ≤ 200]")
    lines.append("S3p  the same through the product path (50 Marker views a map, each laid out, resolved and painted): total \(format(s3p.total.median)) (\(format(s3p.total.min))–\(format(s3p.total.max))) ms, \(s3p.bytes) B of PNG")
    // Ratios to the faster peer, when `PEERS` names the output of the peers' run.sh.
    if let file = getenv("PEERS").map({ String(cString: $0) }), (try? FileIO.read(file, limit: 1 << 20)) == nil {
        lines.append("PEERS=\(file): cannot read it; give the output of the peers' run.sh")
    } else if let file = getenv("PEERS").map({ String(cString: $0) }), let text = try? FileIO.read(file, limit: 1 << 20) {
        let peers = PeerTimes.parse(String(decoding: text, as: UTF8.self))
        let ours: [(scene: String, total: Double, target: Double, what: String)] = [
            ("S1", s1.terrain.median + s1p.prepare.median + s1p.resolve.median + s1p.paint.median + s1p.png.median, 0.3, "terrain + product-path markers with layout + PNG"),
            ("S2", s2.terrain.median + s2p.prepare.median + s2p.resolve.median + s2p.paint.median + s2p.png.median, 0.25, "terrain + product-path markers with layout + PNG"),
            ("S3", s3p.total.median, 0.2, "64 thumbnails through the product path, layout included"),
        ]
        lines.append("Against the peers (\(file)):")
        for o in ours {
            guard let (peer, total) = peers[o.scene]?.min(by: { $0.value < $1.value }) else { continue }
            let all = peers[o.scene]!.sorted { $0.key < $1.key }.map { "\($0.key) \(format($0.value))" }.joined(separator: ", ")
            lines.append("  \(o.scene)   Terrapin \(format(o.total)) ms (\(o.what)); \(all) ms; ratio to \(peer) \(format(o.total / total, 2)) [target ≤ \(o.target)]")
        }
    }
    lines.append(problems.isEmpty ? "check values: all match (grid, terrain colours ±1, markers 1, 2, 1000, label advance)" : "CHECK VALUES FAILED: " + problems.joined(separator: "; "))
    lines.append("wrote \(outputDirectory)/S1.png, S2.png, S3/thumb_00.png … thumb_63.png")
    return lines.joined(separator: "\n")
}

/// The peers' run.sh output: "skia  S1  terrain 27.5 ms  markers+labels 50.5 ms  png 74.2 ms  total 152.2 ms".
enum PeerTimes {
    static func parse(_ text: String) -> [String: [String: Double]] {
        var out: [String: [String: Double]] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard words.count >= 3, let t = words.firstIndex(of: "total"), t + 1 < words.count, let total = Double(words[t + 1]) else { continue }
            out[String(words[1]), default: [:]][String(words[0])] = total
        }
        return out
    }
}
