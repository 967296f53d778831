// The vector basemap: Andorra 1024x768 at tilt 0 and tilt 60 over terrain (z13–14), cold (the
// drawn tiles dropped) and warm, with the stages apart — vector tile decode, style evaluation
// and drawing of one tile, labels — and 500 thumbnails in batch.
import Terrapin
import TerrapinBatch
#if canImport(Glibc)
import Glibc
#endif

func basemapBenchmarks(repository: String) throws -> [(String, Timing, String)] {
    var results: [(String, Timing, String)] = []
    let omt = repository + "/Fixtures/tiles/andorra-omt.pmtiles"
    let dem = repository + "/Fixtures/tiles/andorra-terrainrgb-z8-12.pmtiles"
    let centre = LatLngAltitude(latitude: 42.5078, longitude: 1.5211, altitude: 1050)
    // z14 over a 768-point-high view: range = metres per point × focal length.
    let range = 78_271.52 * cos(42.5078 * Double.pi / 180) / 16_384 * (384 / tan(17.5 * Double.pi / 180))
    let flat = Camera(center: centre, heading: 0, tilt: 0, range: range)
    let tilted = Camera(center: centre, heading: 30, tilt: 60, range: range)
    let source = try TileSources.open(omt)
    let ground = try TileTerrain.ground(try TileSources.open(dem), encoding: .terrainrgb, area: SceneBuilder.area(around: tilted), camera: tilted).ground

    func map(_ camera: Camera, terrain: Bool) throws -> Map {
        var m = try Map(initialCamera: camera, mode: .roadmap).basemap(tiles: omt)
        if terrain { m = m.terrain(ground) }
        return m
    }
    func draw(_ m: Map) throws { _ = try ViewRenderer.render(m.frame(width: 1024, height: 768), scale: 1) }
    if let profile = getenv("TERRAPIN_BENCH_PROFILE").map({ String(cString: $0) }) {
        // One case over and over, for perf.
        let m = try map(profile == "60" ? tilted : flat, terrain: profile == "60")
        for _ in 0..<40 { try draw(m) }
        return []
    }

    // The stages of one z14 tile: decode, style evaluation over every feature, drawing.
    let id = TileID(z: 14, x: 8261, y: 6050)
    let bytes = try source.tile(id)!
    var features = 0
    results.append(("decode one z14 tile (MVT)", try measure("mvt decode") {
        features = try VectorTile.decode(bytes, source: "bench").layers.reduce(0) { $0 + $1.features.count }
    }, "\(bytes.count) bytes, \(features) features"))
    let style = BasemapStyle.builtin("roadmap")!
    let tile = try VectorTile.decode(bytes, source: "bench")
    var passed = 0
    results.append(("roadmap filters, every feature", measure("style eval") {
        passed = 0
        for layer in style.layers {
            guard let data = tile.layer(layer.sourceLayer ?? "") else { continue }
            for f in data.features where layer.filter?.evaluate(EvaluationContext(zoom: 14, layer: data, feature: f)).truthy ?? true { passed += 1 }
        }
    }, "\(passed) layer-feature pairs pass"))
    let basemap = try Basemap(style: style, tiles: source) { try TileSources.open($0) }
    results.append(("draw one z14 tile (512 px)", try measure("tile draw") { _ = try basemap.draw(id) }, "roadmap style"))
    results.append(("labels for a z14 view", measure("labels") { _ = basemap.symbols(area: Map.basemapArea(flat, factor: 2.5), zoom: 14) },
                    "\(basemap.symbols(area: Map.basemapArea(flat, factor: 2.5), zoom: 14).count) candidates"))

    for (name, camera, terrain) in [("tilt 0, flat", flat, false), ("tilt 60, terrain", tilted, true)] {
        let m = try map(camera, terrain: terrain)
        let cold = try measure("\(name) cold", runs: 5) { TileCache.shared.removeAll(); try draw(m) }
        let s = TileCache.shared.statistics
        results.append(("Andorra z14 1024x768 \(name), cold", cold, "\(s.tiles) tiles drawn, \(s.bytes >> 20) MiB"))
        results.append(("Andorra z14 1024x768 \(name), warm", try measure("\(name) warm") { try draw(m) }, "drawn tiles kept"))
        var shown = 0
        results.append(("  of which resolve (labels placed)", try measure("\(name) resolve") {
            shown = try MapResolver.resolve(m, width: 1024, height: 768).labels.filter(\.isShown).count
        }, "\(shown) labels shown"))
    }
    return results
}

/// 500 Andorra thumbnails (256x192) of the roadmap at random places and ranges, -j2.
func basemapBatchBenchmark(repository: String) throws -> String {
    let dir = "/tmp/terrapin-bench-basemap-\(getpid())"
    try FileIO.makeDirectory(dir + "/scenes")
    defer { _ = system("rm -rf '\(dir)'") }
    let omt = repository + "/Fixtures/tiles/andorra-omt.pmtiles"
    var state: UInt32 = 7
    func next() -> Double { state = 1664525 &* state &+ 1013904223; return Double(state >> 8) / Double(1 << 24) }
    for s in 0..<500 {
        let lat = 42.48 + 0.12 * next(), lon = 1.46 + 0.25 * next()
        let camera = "{\"center\": {\"latitude\": \(lat), \"longitude\": \(lon)}, \"heading\": 0, \"tilt\": 0, \"range\": \(800 + 2400 * next())}"
        let scene = "{\"output\": {\"width\": 256, \"height\": 192}, \"map\": {\"mode\": \"roadmap\", \"camera\": \(camera), \"basemap\": {\"tiles\": \"\(omt)\"}}}"
        try FileIO.writeAtomically(Array(scene.utf8), to: "\(dir)/scenes/t-\(s).json")
    }
    TileCache.shared.removeAll()
    var options = BatchOptions()
    options.template = dir + "/out/{name}.png"
    options.jobs = 2
    options.force = true
    let summary = Batch.run(try Batch.inputs([dir + "/scenes"]), options: options)
    precondition(summary.failures.isEmpty, "\(summary.failures)")
    let s = TileCache.shared.statistics
    return "Batch: 500 roadmap thumbnails (256x192, straight down, Andorra), -j2: \(summary.rendered) in \(format(summary.seconds, 1)) s = "
        + "\(format(Double(summary.rendered) / summary.seconds, 1)) per second; tile cache hit rate \(format(100 * Double(s.hits) / Double(max(1, s.hits + s.misses)), 1)) % (\(s.tiles) tiles, \(s.bytes >> 20) MiB)"
}
