// S1 and S2 through the product path: the spec's markers as `Marker` views on a `Map`,
// resolved into a display list and painted by MapPainter — the path `terrapin render` takes,
// with its automatic shape-mask reuse — over the spec's terrain image.
import Dispatch
import Terrapin

/// The spec's teardrop pin (§5) as a Shape: the tip at the bottom centre of a 24 × 42 frame.
/// Hashable, as an app's shape may be: its value names its shared mask (no outline is built to
/// look it up).
struct SpecPinShape: Shape, Hashable {
    func path(in r: Rect) -> Path { specPinPath(x: r.midX, y: r.maxY) }
}

/// A spec marker as app code would write it: a capsule label 4 pt above a pin.
struct SpecMarkerView: View {
    let label: String
    let capsuleWidth: Double
    let color: Color
    static let text = Color(red: 0x20 / 255, green: 0x21 / 255, blue: 0x24 / 255)

    var body: some View {
        VStack(spacing: 4) {
            Text(label).font(.custom("DejaVu Sans", size: 13)).foregroundStyle(Self.text)
                .frame(width: capsuleWidth, height: 28)
                .background(Capsule().fill(Color.white))
            ZStack(alignment: .top) {
                SpecPinShape().fill(color)
                SpecPinShape().stroke(Color.white, lineWidth: 1.5)
                Circle().fill(Color.white).frame(width: 8, height: 8).padding(.top, 8)
            }
            .frame(width: 24, height: 42)
        }
    }
}

/// The spec's markers on a map whose straight-down camera puts each at its pixel (anchors
/// within 10⁻³ px of the spec's integers): positions come from casting each pixel's ray to the
/// ground. Later markers draw in front (zIndex k), as the spec orders them.
func specMap(_ markers: [SpecMarker], width: Double, height: Double) -> Map {
    let camera = Camera(center: LatLngAltitude(latitude: 0, longitude: 0), range: 2_000)
    let projection = Projection(camera: camera, width: width, height: height, centerAltitude: 0)
    let positions = markers.map { m -> LatLngAltitude in
        let (origin, dir) = projection.ray(x: m.x, y: m.y)
        let t = -origin.z / dir.z
        return projection.frame.geodetic(enu: origin + dir * t)
    }
    return Map(initialCamera: camera, mode: .roadmap) {
        ForEach(0..<markers.count) { i in
            let m = markers[i]
            Marker(position: LatLngAltitude(latitude: positions[i].latitude, longitude: positions[i].longitude), zIndex: m.k) {
                SpecMarkerView(label: "Marker \(m.k)", capsuleWidth: m.label.width.rounded(.up) + 24,
                               color: Color(red: Double(m.color.red), green: Double(m.color.green), blue: Double(m.color.blue)))
            }
        }
    }
}

struct ProductPathTimes {
    var prepare: Timing, resolve: Timing, paint: Timing, png: Timing
    var bytes: Int, hits: Int, masks: Int
    /// The first paint of the prepared scene: what `terrapin render` pays, which paints once.
    var firstPaint: Double
}

/// Times S1/S2 through the product path: layout (prepare: each `Marker` view laid out, its text
/// shaped), resolve and paint are the markers + labels stage, as the peers draw their labels
/// (shaping included) inside theirs; each is timed apart.
func specProductPath(_ name: String, _ markers: [SpecMarker], terrain: Pixmap, outputDirectory: String, paintRuns: Int = 7) throws -> ProductPathTimes {
    let map = specMap(markers, width: 1024, height: 768)
    let prepare = try measure("prepare", runs: paintRuns > 7 ? 0 : 7) { _ = try MapResolver.prepare(map) }
    let prepared = try MapResolver.prepare(map)
    var scene = MapResolver.resolve(map, prepared, width: 1024, height: 768, ground: map.ground(height: 768))
    let resolve = measure("resolve") { scene = MapResolver.resolve(map, prepared, width: 1024, height: 768, ground: map.ground(height: 768)) }
    let canvas = Canvas(width: 1024, height: 768)!
    var store = SpriteStore()
    var samples: [Double] = []
    var first = 0.0
    for run in 0...paintRuns {   // the first run is the warm-up (and what a one-off render pays)
        canvas.clear(RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
        canvas.drawImage(terrain, transform: .scale(2, 1.5), filter: .bilinear)
        let start = now()
        store = SpriteStore()
        MapPainter.paint(scene, in: Rect(x: 0, y: 0, width: 1024, height: 768), canvas: canvas, scale: 1, shapes: store, layers: [.markers])
        if run > 0 { samples.append(now() - start) } else { first = now() - start }
    }
    let paint = Timing(name: "paint", samples: samples)
    var bytes: [UInt8] = []
    let png = try measure("png") { bytes = try SceneImage.encode(canvas.pixmap, format: .png()).bytes }
    try FileIO.writeAtomically(bytes, to: "\(outputDirectory)/\(name)-product.png")
    return ProductPathTimes(prepare: prepare, resolve: resolve, paint: paint, png: png, bytes: bytes.count, hits: store.hits, masks: store.misses, firstPaint: first)
}

/// S3 through the product path: 64 maps of 256 × 192, 50 Marker views each, every thumbnail
/// laid out, resolved, painted (a fresh mask store each, as separate renders have) and encoded
/// on its own, all cores sharing the 64; the terrain image is computed once per S3 render, as
/// the spec says.
func specProductThumbnails(_ markers: [SpecMarker], grid: SpecGrid, outputDirectory: String) throws -> (total: Timing, bytes: Int) {
    let maps = (0..<64).map { t in specMap(Array(markers[(50 * t)..<(50 * t + 50)]), width: 256, height: 192) }
    // Read-only on every thread; Locked only carries them into the iterations.
    let inputs = Locked(maps)
    try FileIO.makeDirectory(outputDirectory + "/S3-product")
    var totals: [Double] = []
    var bytes = 0
    for run in 0...5 {   // the first run is the warm-up
        let start = now()
        let image = grid.terrainImage()
        let sizes = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 64) { t in
            let map = inputs.withLock { $0[t] }
            guard let ready = try? MapResolver.prepare(map) else { return }
            let canvas = Canvas(width: 256, height: 192)!
            canvas.clear(RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
            let col = 64 * (t % 8), row = 64 + 48 * (t / 8)
            canvas.drawImage(image, transform: Transform.translation(Double(-col), Double(-row)).concatenating(.scale(4)), filter: .bilinear)
            let scene = MapResolver.resolve(map, ready, width: 256, height: 192, ground: map.ground(height: 192))
            MapPainter.paint(scene, in: Rect(x: 0, y: 0, width: 256, height: 192), canvas: canvas, scale: 1, shapes: SpriteStore(), layers: [.markers])
            let png = (try? SceneImage.encode(canvas.pixmap, format: .png()).bytes) ?? []
            sizes.withLock { $0 += png.count }
            if run == 0 { _ = try? FileIO.writeAtomically(png, to: "\(outputDirectory)/S3-product/thumb_\(t < 10 ? "0" : "")\(t).png") }
        }
        if run > 0 { totals.append(now() - start) }
        bytes = sizes.withLock { $0 }
    }
    return (Timing(name: "S3 product path", samples: totals), bytes)
}
