// What each fuzz target does with one input, as a library: the libFuzzer executables under
// Fuzz/ (built only by `make fuzz`) call these, and the test suite runs every seed and every
// file under Fixtures/regressions/ through them, so a fixed finding stays fixed.
//
// Each entry goes as far as a user's input can take the product: errors are the expected
// outcome for most inputs and are ignored; a crash, trap, hang or runaway allocation is a
// finding. Outputs are kept small so that an input's cost is in the decoding, not in pixels.
import Terrapin
import TerrapinTestData
import TerrapinServe
#if canImport(Glibc)
import Glibc
#endif

public enum FuzzTarget: String, CaseIterable, Sendable {
    case scene, png, grid, text, geojson, raster, tiles, geotiff, mvt, style, sprite, staticmap, gltf, svg, mbtiles, encoders, net, expression, worker
}

public enum FuzzEntry {
    /// Output size every fuzzed scene is rendered at (points; scale 1).
    public static let sceneSize = (width: 48, height: 36)
    /// PNG limits while fuzzing: the decoder's checks are the same, the images smaller.
    public static let pngLimits = PNGDecodingLimits(maxWidth: 2048, maxHeight: 2048, maxPixels: 1 << 20)

    /// Before the first input (`LLVMFuzzerInitialize`): loads fontconfig's
    /// configuration and the fonts, which fontconfig keeps for the life of the process, so the
    /// per-input leak check sees only what an input itself leaks.
    public static func prepare() {
        _ = text([9, 0] + Array("Terrapin Ä 東京 नमस्ते مرحبا".utf8))
    }

    /// Runs `bytes` through `target`; true when the input went all the way (drawn), false when
    /// it was rejected with an error on the way. `repository` is the checkout's root: scenes
    /// read as if they were in Examples/ and are confined to Fixtures/.
    @discardableResult
    public static func run(_ target: FuzzTarget, _ bytes: [UInt8], repository: String) -> Bool {
        switch target {
        case .scene: scene(bytes, repository: repository)
        case .png: png(bytes)
        case .grid: grid(bytes)
        case .text: text(bytes)
        case .geojson: geojson(bytes)
        case .raster: raster(bytes)
        case .tiles: tiles(bytes)
        case .geotiff: geotiff(bytes)
        case .mvt: mvt(bytes)
        case .style: style(bytes)
        case .sprite: sprite(bytes)
        case .staticmap: staticMap(bytes)
        case .gltf: gltf(bytes)
        case .svg: svg(bytes)
        case .mbtiles: mbtiles(bytes)
        case .encoders: encoders(bytes)
        case .net: net(bytes)
        case .expression: expression(bytes)
        case .worker: WorkerProtocol.read(bytes)
        }
    }

    /// Scene JSON: decode and validate, prepare (confined to Fixtures/), resolve, tap the
    /// centre, render at 48×36 and encode the PNG, as `terrapin render --root --tap` does.
    @discardableResult
    public static func scene(_ bytes: [UInt8], repository: String) -> Bool {
        guard var scene = try? SceneDecoder.decode(bytes, path: repository + "/Examples/fuzz.json") else { return false }
        // Every scene that reads, written out, reads back as itself (a fuzzer finding otherwise stops here).
        let written = SceneEncoder.encode(scene)
        precondition((try? SceneDecoder.decode(Array(written.utf8), path: repository + "/Examples/fuzz.json")) == scene,
                     "a scene written by SceneEncoder reads back differently:\n\(written)")
        scene.output.width = sceneSize.width
        scene.output.height = sceneSize.height
        scene.output.scale = 1
        // Never the network: a fuzzed URL is refused before a request.
        guard let prepared = try? PreparedScene(scene, root: repository + "/Fixtures", network: .none) else { return false }
        _ = (try? prepared.resolve())?.description
        _ = try? prepared.tap(at: Point(x: Double(sceneSize.width) / 2, y: Double(sceneSize.height) / 2))
        guard let pixmap = try? prepared.render() else { return false }
        return (try? PNGEncoder.encode(pixmap, options: PNGEncodingOptions(compression: .fast))) != nil
    }

    /// GeoJSON: the file read as map content, then resolved and drawn over flat ground with the
    /// camera fitted to its markers.
    @discardableResult
    public static func geojson(_ bytes: [UInt8]) -> Bool {
        guard let items = try? GeoJSON.items(bytes, file: "fuzz.geojson") else { return false }
        var map = Map(mode: .roadmap)
        map.items = items
        return (try? ViewRenderer.render(map.frame(width: Double(sceneSize.width), height: Double(sceneSize.height)))) != nil
    }

    /// Raster images of every format (PNG, JPEG, WebP), chosen by signature as tiles are, under
    /// `pngLimits`; a decoded image is used as a one-tile archive's tile would be (mipmaps).
    @discardableResult
    public static func raster(_ bytes: [UInt8]) -> Bool {
        // The text metadata readers batch uses to resume (walked by declared lengths).
        _ = ImageText.read(jpeg: bytes)
        _ = ImageText.read(webp: bytes)
        // The size the header declares (what a render's decode budget counts) is the size the
        // decoder makes.
        let declared = RasterImage.declaredSize(Array(bytes.prefix(RasterImage.declaredSizeHead)))
        guard let image = try? RasterImage.decode(bytes, limits: pngLimits) else { return false }
        if let declared, declared != (image.width, image.height) {
            preconditionFailure("the header declares \(declared), the decoder made \(image.width)x\(image.height)")
        }
        return Imagery(image: image, west: 0, south: 0, east: 1, north: 1)?.sample(x: 0.5, y: 0.5, level: 1) != nil
    }

    /// SVG icons: parsed by librsvg from memory (nothing outside is loaded), then drawn at its
    /// own size capped at 64 × 64 pixels and at 3× that, as an icon is at 1× and 3×.
    @discardableResult
    public static func svg(_ bytes: [UInt8]) -> Bool {
        guard let document = try? SVGDocument(bytes, source: "fuzz.svg", limits: SVGLimits(maxFileBytes: 1 << 20, maxSide: 256, maxPixels: 1 << 16)) else { return false }
        let w = max(1, min(64, Int(document.width.rounded(.up)))), h = max(1, min(64, Int(document.height.rounded(.up))))
        guard (try? document.rasterize(width: w, height: h)) != nil else { return false }
        return (try? document.rasterize(width: 3 * w, height: 3 * h)) != nil
    }

    /// PMTiles structures: the first 127 bytes as a header (of a file as long as the input),
    /// the rest as a directory, raw and gzip-, brotli- or zstd-decompressed within 4 MiB.
    @discardableResult
    public static func tiles(_ bytes: [UInt8]) -> Bool {
        _ = try? PMTiles.parseHeader(Array(bytes.prefix(127)), path: "fuzz.pmtiles", fileSize: bytes.count)
        let rest = Array(bytes.dropFirst(min(127, bytes.count)))
        if let entries = try? PMTiles.parseDirectory(rest) { return !entries.isEmpty }
        let candidates = [try? Inflate.decompress(rest, limit: 1 << 22), try? Inflate.brotli(rest, limit: 1 << 22), try? Inflate.zstd(rest, limit: 1 << 22)]
        return candidates.contains { bytes in bytes.map { (try? PMTiles.parseDirectory($0)) != nil } ?? false }
    }

    /// Mapbox Vector Tile bytes: decoded, then drawn as tile 14/8261/6050 with the built-in
    /// roadmap style, its labels and buildings collected, as a basemap does.
    @discardableResult
    public static func mvt(_ bytes: [UInt8]) -> Bool {
        guard (try? VectorTile.decode(bytes, source: "fuzz.mvt")) != nil else { return false }
        guard let basemap = try? Basemap(style: BasemapStyle.builtin("roadmap")!, tiles: MemoryTiles(bytes), open: { _ in throw FuzzError() }) else { return false }
        let drawn = (try? basemap.draw(MemoryTiles.id)) != nil
        let area = [1.5161, 42.5048, 1.5382, 42.5211]
        _ = basemap.symbols(area: area, zoom: 16)
        _ = basemap.buildings(area: area, zoom: 16)
        return drawn && basemap.warnings.isEmpty
    }

    /// MapLibre style JSON: parsed, then drawn over a small hand-made tile (a polygon with a
    /// hole, a line and a point, properties of each kind) at zoom 14, with its labels.
    @discardableResult
    public static func style(_ bytes: [UInt8]) -> Bool {
        guard let style = try? BasemapStyle.parse(bytes, file: "fuzz.json", directory: "/nonexistent") else { return false }
        guard let basemap = try? Basemap(style: style, tiles: MemoryTiles(MemoryTiles.handMade), open: { _ in throw FuzzError() }) else { return false }
        guard (try? basemap.draw(MemoryTiles.id)) != nil else { return false }
        _ = basemap.symbols(area: [1.5161, 42.5048, 1.5382, 42.5211], zoom: 14.5)
        return true
    }

    /// A style expression made from the bytes by the specification's grammar
    /// (`ExpressionGenerator`), parsed as a paint value, as an array-valued layout value and as
    /// a filter, and each evaluated for every feature of the hand-made tile, and for none, at
    /// zooms 0, 7.5, 14 and 24, each feature with no state, a state of every kind of value under
    /// its id, and its id promoted from a property (a text's `format` sections read too). True
    /// when some parse took it.
    @discardableResult
    public static func expression(_ bytes: [UInt8]) -> Bool {
        var generator = ExpressionGenerator(bytes)
        let text = generator.expression()
        guard let node = try? JSONParser.parse(Array(text.utf8)) else { return false }
        var parsed: [StyleExpression] = []
        if let e = try? StyleExpressionParser.value(node) { parsed.append(e) }
        if let e = try? StyleExpressionParser.value(node, arrayValued: true) { parsed.append(e) }
        if let e = try? StyleExpressionParser.filter(node) { parsed.append(e) }
        guard !parsed.isEmpty, let tile = try? VectorTile.decode(MemoryTiles.handMade, source: "fuzz.mvt") else { return !parsed.isEmpty }
        for zoom in [0, 7.5, 14, 24] {
            var contexts = [EvaluationContext(zoom: zoom)]
            for layer in tile.layers {
                var stated = layer, promoted = layer
                var states: [String: [String: StyleValue]] = [:]
                for (k, feature) in layer.features.enumerated() {
                    let state: [String: StyleValue] = ["name": .string("s\(k)"), "class": .number(Double(k)), "hover": .bool(k % 2 == 0),
                                                       "rank": .array([.number(1), .null]), "kind": .null]
                    if let id = feature.id, let key = FeatureStates.key(.number(Double(id))) { states[key] = state }
                    states["s\(k)"] = state
                }
                stated.states = states
                promoted.states = states
                promoted.promoteId = "name"
                for feature in layer.features {
                    for l in [layer, stated, promoted] { contexts.append(EvaluationContext(zoom: zoom, layer: l, feature: feature, tile: MemoryTiles.id)) }
                }
            }
            for e in parsed {
                for c in contexts {
                    // (And a formatted text's sections, as a label reads them.)
                    if case .string(let text) = e.evaluate(c) { _ = Basemap.sections(e, c, text: text) }
                }
            }
        }
        return true
    }

    /// A static-map query string (`center=…&zoom=…&markers=…`, percent-encoded as in a URL) made
    /// into a scene, as `terrapin serve` makes it, and drawn small.
    @discardableResult
    public static func staticMap(_ bytes: [UInt8]) -> Bool {
        let query = String(decoding: bytes, as: UTF8.self)
        let arguments = query.split(separator: "&", omittingEmptySubsequences: true).prefix(512).map { pair -> (key: String, value: String) in
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (percentDecoded(kv[0]), kv.count > 1 ? percentDecoded(kv[1]) : "")
        }
        guard let request = try? StaticMapRequest(arguments: arguments), var scene = try? request.scene(base: SceneFile(map: MapScene())) else { return false }
        scene.output.width = sceneSize.width
        scene.output.height = sceneSize.height
        scene.output.scale = 1
        var overrides = RenderOverrides()
        overrides.network = .none
        return (try? SceneImage.render(scene, overrides)) != nil
    }

    static func percentDecoded(_ text: Substring) -> String {
        var out: [UInt8] = []
        var bytes = Array(text.utf8)[...]
        while let b = bytes.popFirst() {
            if b == UInt8(ascii: "%"), bytes.count >= 2, let v = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16) {
                out.append(v)
                bytes = bytes.dropFirst(2)
            } else {
                out.append(b == UInt8(ascii: "+") ? UInt8(ascii: " ") : b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// glTF or GLB bytes (external files refused) under small limits, placed on the map and
    /// drawn at 48×36 into a depth frame, and hit by a ray.
    @discardableResult
    public static func gltf(_ bytes: [UInt8]) -> Bool {
        guard let model = try? GLTF.decode(bytes, name: "fuzz.glb", limits: modelLimits) else { return false }
        let camera = Camera(center: LatLngAltitude(latitude: 46, longitude: 7, altitude: 2), heading: 30, tilt: 60, range: 40)
        let projection = Projection(camera: camera, width: 48, height: 36)
        let placed = PlacedModel(asset: model, at: LatLngAltitude(latitude: 46, longitude: 7), scale: Vector3D(2), orientation: Orientation3D(heading: 40, tilt: 10),
                                 in: projection.frame)
        var frame = DepthFrame(width: 48, height: 36)
        ModelRenderer.draw([placed], projection: projection, toDevice: (scale: 1, dx: 0, dy: 0), horizon: SIMD3(220, 232, 242),
                           hazeDistance: 2_000, light: (0.5, 0.5, 0.7), into: &frame)
        let ray = projection.ray(x: 24, y: 18)
        _ = placed.intersect(origin: ray.origin, direction: ray.direction)
        return true
    }

    /// What a fuzzed model may hold: the loader's checks are the same, the counts smaller.
    static let modelLimits: ModelLimits = {
        var l = ModelLimits()
        l.maxFileBytes = 1 << 20
        l.maxBufferBytes = 4 << 20
        l.maxAccessorCount = 100_000
        l.maxComponentsRead = 1_000_000
        l.maxVertices = 100_000
        l.maxTriangles = 100_000
        l.maxTexturePixels = 256 * 256
        l.maxTotalTexturePixels = 4 * 256 * 256
        l.maxNodes = 10_000
        l.maxInstances = 1_000
        return l
    }()

    /// A sprite index over a 64×64 image of distinct pixels: every icon cut out and looked up.
    @discardableResult
    public static func sprite(_ bytes: [UInt8]) -> Bool {
        guard let sheet = try? SpriteSheet.parse(bytes, image: spriteImage, file: "fuzz.json") else { return false }
        for name in sheet.icons.keys { guard sheet.icon(name) != nil else { return false } }
        return true
    }

    static let spriteImage: Pixmap = {
        var image = Pixmap(width: 64, height: 64)!
        for y in 0..<64 { for x in 0..<64 { image[x, y] = PremultipliedRGBA8(red: UInt8(x * 4), green: UInt8(y * 4), blue: 0, alpha: 255) } }
        return image
    }()

    /// GeoTIFF bytes (libtiff reads files, so through a per-process temporary file): the
    /// georeferencing, then the first image as imagery (whole, and block by block: the tiles
    /// over its middle at its deepest and shallowest zoom) and as a height grid.
    @discardableResult
    public static func geotiff(_ bytes: [UInt8]) -> Bool {
        let path = "/tmp/terrapin-fuzz-\(getpid()).tif"
        guard (try? FileIO.writeAtomically(bytes, to: path)) != nil else { return false }
        defer { unlink(path) }
        guard let info = try? GeoTIFF.info(path), info.width * info.height <= 1 << 20 else { return false }
        let imagery = info.projected == nil ? try? GeoTIFF.imagery(path, wholeImage: true) : nil
        if let blocks = try? GeoTIFFTiles(path) {
            let b = info.bounds
            for zoom in [blocks.maxZoom, blocks.minZoom] {
                _ = try? blocks.draw(TileID.containing(longitude: (b[0] + b[2]) / 2, latitude: (b[1] + b[3]) / 2, zoom: zoom))
            }
        }
        let grid = try? GeoTIFF.heightGrid(path)
        return imagery != nil || grid != nil
    }

    /// MBTiles bytes (SQLite reads files, so through a per-process temporary file): opened with
    /// a budget of a million SQLite steps a statement, its metadata, then tiles of zooms 0 and 1.
    /// True when tile 0/0/0 reads.
    @discardableResult
    public static func mbtiles(_ bytes: [UInt8]) -> Bool {
        let path = "/tmp/terrapin-fuzz-\(getpid()).mbtiles"
        guard (try? FileIO.writeAtomically(bytes, to: path)) != nil else { return false }
        defer { unlink(path) }
        guard let source = try? MBTiles(path, stepsPerStatement: 1_000_000) else { return false }
        _ = source.info
        // try? flattens: nil when the read failed or the tile is missing.
        let first = (try? source.tile(TileID(z: 0, x: 0, y: 0))) != nil
        for id in [TileID(z: 1, x: 0, y: 0), TileID(z: 1, x: 1, y: 1)] { _ = try? source.tile(id) }
        return first
    }

    /// What a server sends that Terrapin parses (no request is made): byte 0 picks a download
    /// cache entry, a Content-Range value, a URL (parsed, redacted, resolved against itself) or
    /// a TileJSON document; the rest is the input. True when it was accepted.
    @discardableResult
    public static func net(_ bytes: [UInt8]) -> Bool {
        guard let kind = bytes.first else { return false }
        let rest = Array(bytes.dropFirst())
        let text = String(decoding: rest, as: UTF8.self)
        switch kind % 4 {
        case 0: return HTTPCache.parse(rest) != nil
        case 1: return RemoteFile.contentRange(text) != nil
        case 2:
            guard let url = try? URLText(text) else { return false }
            _ = URLText.redacted(text)
            _ = url.resolving("../tiles/{z}/{x}/{y}.pbf")
            return (try? URLText(url.resolving("/x"))) != nil
        default:
            guard let (templates, _) = try? RemoteTiles.parseTileJSON(rest, url: "https://tiles.example.org/a/tiles.json") else { return false }
            return (try? RemoteXYZTiles(templates: templates, access: .none, client: .shared)) != nil
        }
    }

    /// The JPEG, WebP and PNG encoders on any image: byte 0 and 1 give its width and height
    /// (1…64), byte 2 the quality, the rest its straight RGBA (repeated to fill it). Each
    /// encoding must decode to the same size; lossless WebP must give opaque pixels back
    /// exactly, PNG every pixel at every preset, and the text metadata must read back.
    @discardableResult
    public static func encoders(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        let width = Int(bytes[0] % 64) + 1, height = Int(bytes[1] % 64) + 1, quality = Int(bytes[2] % 101)
        let pixels = Array(bytes.dropFirst(3))
        guard var image = Pixmap(width: width, height: height) else { return false }
        for i in 0..<(width * height) {
            func c(_ k: Int) -> UInt32 { UInt32(pixels[(i * 4 + k) % pixels.count]) }
            let a = c(3)
            func pre(_ v: UInt32) -> UInt8 { UInt8((v * a + 127) / 255) }
            image[i % width, i / width] = PremultipliedRGBA8(red: pre(c(0)), green: pre(c(1)), blue: pre(c(2)), alpha: UInt8(a))
        }
        let text = [(key: "Terrapin-Input-SHA256", value: String(quality))]
        guard let jpeg = try? ImageText.embed(text, inJPEG: try JPEGEncoder.encode(image, quality: max(1, quality))),
              let lossless = try? ImageText.embed(text, inWebP: try WebPEncoder.encode(image)),
              let lossy = try? WebPEncoder.encode(image, quality: quality) else { return false }
        for encoded in [jpeg, lossless, lossy] {
            guard let decoded = try? RasterImage.decode(encoded, limits: pngLimits) else { preconditionFailure("an encoding Terrapin wrote does not decode") }
            precondition(decoded.width == width && decoded.height == height, "the size changed")
        }
        precondition(ImageText.read(jpeg: jpeg)?.first?.value == String(quality) && ImageText.read(webp: lossless)?.first?.value == String(quality),
                     "the text does not read back")
        let back = try! RasterImage.decode(lossless, limits: pngLimits)
        for y in 0..<height { for x in 0..<width where image[x, y].alpha == 255 { precondition(back[x, y] == image[x, y], "lossless WebP changed a pixel") } }
        for compression in PNGCompression.allCases {
            guard let png = try? PNGEncoder.encode(image, options: PNGEncodingOptions(compression: compression)) else { preconditionFailure("PNG encoding failed") }
            guard let decoded = try? PNGDecoder.decode(png, limits: pngLimits) else { preconditionFailure("a PNG Terrapin wrote does not decode") }
            precondition(decoded == image, "PNG (\(compression)) changed a pixel")
        }
        return true
    }

    /// PNG bytes: the header walk (`info`), then a full decode under `pngLimits`; where the
    /// direct decoder of map tiles' PNGs decodes them, its samples must be libpng's.
    @discardableResult
    public static func png(_ bytes: [UInt8]) -> Bool {
        _ = try? PNGDecoder.info(bytes)
        precondition(PNGDecoder.directDecodingMatchesLibPNG(bytes, limits: pngLimits), "the direct PNG decoder and libpng disagree")
        return (try? PNGDecoder.decode(bytes, limits: pngLimits)) != nil
    }

    /// Height grids. The first byte picks the loader (modulo 3: 0 ESRI ASCII, 1 SRTM .hgt,
    /// 2 Terrarium PNG; 0xFF a zipped .hgt); the rest is the file. A grid that loads is sampled
    /// and drawn as a map with a clamped marker at its centre, with the camera fitted to it.
    @discardableResult
    public static func grid(_ bytes: [UInt8]) -> Bool {
        guard let selector = bytes.first else { return false }
        let file = Array(bytes.dropFirst())
        let loaded: HeightGrid?
        switch selector == 0xFF ? 3 : selector % 3 {
        case 3: loaded = (try? Zip.member(endingWith: ".hgt", in: file, limit: 1201 * 1201 * 2, source: "fuzz.zip")).flatMap { try? GridLoader.hgt($0.bytes, name: $0.name) }
        case 0: loaded = try? GridLoader.esriASCII(file, file: "fuzz.asc")
        case 1: loaded = try? GridLoader.hgt(file, name: "N46W123.hgt")
        default: loaded = try? GridLoader.terrarium(file, name: "fuzz.png", west: -123.5, south: 48.5, east: -122.5, north: 49.5)
        }
        guard let grid = loaded else { return false }
        let centre = LatLngAltitude(latitude: (grid.southCentre + grid.northCentre) / 2,
                                    longitude: (grid.westCentre + grid.eastCentre) / 2)
        _ = grid.height(at: centre)
        _ = grid.range
        let map = Map(mode: .satellite) { Marker(position: centre) }.terrain(grid)
        return (try? ViewRenderer.render(map.frame(width: Double(sceneSize.width), height: Double(sceneSize.height)))) != nil
    }

    /// Text: byte 0 picks the size (4…67 pt), byte 1 the options (wrap width, line limit,
    /// alignment, direction, kerning, shrink to fit); the rest is UTF-8 (invalid sequences
    /// become U+FFFD). Shaped, laid out and drawn into a 128×64 canvas, then drawn again as a
    /// SwiftUI-style `Text` view.
    @discardableResult
    public static func text(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2 else { return false }
        let size = Double(4 + Int(bytes[0] % 64))
        let flags = bytes[1]
        let string = String(decoding: bytes.dropFirst(2), as: UTF8.self)
        let options = TextLayoutOptions(
            maxWidth: flags & 1 != 0 ? 40 + Double(flags >> 4) * 8 : nil,
            lineLimit: flags & 2 != 0 ? 1 + Int(flags >> 5) : nil,
            alignment: [.leading, .center, .trailing][Int(flags >> 2) % 3],
            minimumScaleFactor: flags & 8 != 0 ? 0.5 : 1,
            direction: [.auto, .leftToRight, .rightToLeft][Int(flags >> 6) % 3],
            kerning: flags & 16 == 0)
        guard let layout = try? TextLayout.make(string, font: FontSpec(size: size), options: options),
              let pixmap = Pixmap(width: 128, height: 64) else { return false }
        let canvas = Canvas(pixmap: pixmap)
        layout.draw(in: canvas, at: Point(x: 2, y: 2), color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 1))
        return (try? ViewRenderer.render(Text(string).font(.system(size: size)).frame(width: 120, height: 60))) != nil
    }
}

struct FuzzError: Error {}

/// One vector tile, served as 14/8261/6050 (Andorra la Vella).
final class MemoryTiles: TileSource, @unchecked Sendable {
    static let id = TileID(z: 14, x: 8261, y: 6050)
    let bytes: [UInt8]
    let path = "fuzz.mvt"
    let info = TileSourceInfo(type: .mvt, minZoom: 14, maxZoom: 14)
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    func tile(_ id: TileID) throws(TileError) -> [UInt8]? { id == Self.id ? bytes : nil }

    /// Layers "water" (a square with a square hole), "transportation" (a line, class primary)
    /// and "place" (a point named "Fuzz", class town), extent 4096.
    static let handMade: [UInt8] = {
        func layer(_ name: String, _ kind: VectorTileLayer.Kind, _ geometry: [UInt32], keys: [String], values: [String]) -> VectorTileLayer {
            var l = VectorTileLayer(name: name)
            l.keys = keys
            l.values = values
            l.features = [VectorTileLayer.Feature(id: 1, kind: kind, tags: (0..<UInt32(keys.count)).flatMap { [$0, $0] }, geometry: geometry)]
            return l
        }
        return VectorTileLayer.encode([
            layer("water", .polygon, [9, 400, 400, 26, 6000, 0, 0, 6000, 5999, 0, 15, 9, 2000, 3999, 26, 0, 2000, 2000, 0, 0, 1999, 15], keys: ["class"], values: ["lake"]),
            layer("transportation", .line, [9, 200, 4000, 18, 3000, 100, 3000, 2000], keys: ["class", "name:latin"], values: ["primary", "Carrer"]),
            layer("place", .point, [9, 4000, 4000], keys: ["class", "name:latin"], values: ["town", "Fuzz"]),
        ])
    }()
}
