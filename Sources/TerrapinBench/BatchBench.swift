// Batch benchmark: 500 generated scenes (terrain + 50 markers each) rendered to 256×192
// thumbnails with one thread and with two; thumbnails per second, speed-up, peak memory.
#if canImport(Glibc)
import Glibc
#endif
import Terrapin
import TerrapinBatch

func batchBenchmark(repository: String) throws -> String {
    let dir = "/tmp/terrapin-bench-batch-\(getpid())"
    try FileIO.makeDirectory(dir + "/scenes")
    defer { _ = system("rm -rf '\(dir)'") }
    var state: UInt32 = 5
    func next() -> Double { state = 1664525 &* state &+ 1013904223; return Double(state >> 8) / Double(1 << 24) }
    let grid = repository + "/Fixtures/terrain/jacksboro-fault-tn.asc"
    for s in 0..<500 {
        var markers: [String] = []
        for m in 0..<50 {
            let lat = 36.50 + next() * 0.18, lng = -84.36 + next() * 0.22
            let position = "{\"latitude\": \(lat), \"longitude\": \(lng)}"
            switch m % 3 {
            case 0: markers.append("{\"position\": \(position), \"collisionBehavior\": \"optionalAndHidesLowerPriority\", \"content\": {\"text\": \"Place \(m)\", \"modifiers\": [{\"font\": \"caption\"}, {\"padding\": 4}, {\"background\": \"white\"}, {\"clipShape\": \"capsule\"}]}}")
            case 1: markers.append("{\"position\": \(position), \"content\": {\"pin\": {\"background\": \"blue\", \"glyph\": {\"image\": {\"systemName\": \"tree.fill\"}, \"modifiers\": [{\"resizable\": true}, {\"scaledToFit\": true}, {\"padding\": 3}, {\"foregroundStyle\": \"white\"}]}}}}")
            default: markers.append("{\"type\": \"marker3D\", \"position\": \(position), \"collisionBehavior\": \"optionalAndHidesLowerPriority\", \"label\": \"P\(m)\"}")
            }
        }
        let scene = """
            {"output": {"width": 256, "height": 192},
             "map": {"mode": "satellite", "camera": {"center": {"latitude": 36.59, "longitude": -84.25, "altitude": 500}, "heading": \(s % 360), "tilt": 55, "range": 26000},
                     "terrain": {"file": "\(grid)"}, "markers": [\(markers.joined(separator: ", "))]}}
            """
        try FileIO.writeAtomically(Array(scene.utf8), to: "\(dir)/scenes/scene-\(s).json")
    }
    let inputs = try Batch.inputs([dir + "/scenes"])
    var lines = ["Batch: 500 scenes (terrain 403x344 + 50 markers), 256x192 thumbnails"]
    var rates: [Int: Double] = [:]
    for jobs in [1, 2] {
        var options = BatchOptions()
        options.template = dir + "/out-\(jobs)/{name}.png"
        options.jobs = jobs
        options.force = true
        let summary = Batch.run(inputs, options: options)
        precondition(summary.failures.isEmpty, "\(summary.failures)")
        rates[jobs] = Double(summary.rendered) / summary.seconds
        lines.append("  -j\(jobs): \(format(summary.seconds, 2)) s, \(format(rates[jobs]!, 1)) thumbnails/s")
    }
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    lines.append("  speed-up -j1 → -j2: \(format(rates[2]! / rates[1]!, 2))x; peak RSS of the bench process \(usage.ru_maxrss / 1024) MiB")
    return lines.joined(separator: "\n")
}

/// 500 thumbnails of the Mount Whitney topo map, straight down at random centres: from the
/// PMTiles archive (tiles decoded on demand, shared by both threads) and from one in-memory
/// image of the same pixels (the z13 tiles stitched into a PNG); thumbnails per second, the
/// tile cache's hit rate.
func tileBatchBenchmark(repository: String) throws -> String {
    let dir = "/tmp/terrapin-bench-tiles-\(getpid())"
    try FileIO.makeDirectory(dir + "/tiles")
    try FileIO.makeDirectory(dir + "/image")
    defer { _ = system("rm -rf '\(dir)'") }
    let archive = repository + "/Fixtures/tiles/usgs-mt-whitney-topo-webp-z8-15.pmtiles"
    // The same area as one image: z13 tiles stitched.
    let source = try TileSources.open(archive)
    let b = source.info.bounds ?? [-118.32, 36.56, -118.26, 36.59]
    let z = 13
    let a = TileImagery.tileID(longitude: b[0], latitude: b[3], zoom: z), c = TileImagery.tileID(longitude: b[2], latitude: b[1], zoom: z)
    let size = 512, columns = c.x - a.x + 1, rows = c.y - a.y + 1
    var mosaic = Pixmap(width: columns * size, height: rows * size)!
    for ty in 0..<rows {
        for tx in 0..<columns {
            guard let bytes = try source.tile(TileID(z: z, x: a.x + tx, y: a.y + ty)) else { continue }
            let tile = try RasterImage.decode(bytes)
            for y in 0..<min(size, tile.height) {
                for x in 0..<min(size, tile.width) { mosaic[tx * size + x, ty * size + y] = tile[x, y] }
            }
        }
    }
    try FileIO.writeAtomically(try PNGEncoder.encode(mosaic), to: dir + "/mosaic.png")
    let n = Double(1 << z)
    func lat(_ y: Double) -> Double { atan(sinh(Double.pi * (1 - 2 * y / n))) * 180 / Double.pi }
    let bounds = [Double(a.x) / n * 360 - 180, lat(Double(c.y + 1)), Double(c.x + 1) / n * 360 - 180, lat(Double(a.y))]
    var state: UInt32 = 11
    func next() -> Double { state = 1664525 &* state &+ 1013904223; return Double(state >> 8) / Double(1 << 24) }
    for s in 0..<500 {
        let latC = b[1] + (0.2 + 0.6 * next()) * (b[3] - b[1]), lonC = b[0] + (0.2 + 0.6 * next()) * (b[2] - b[0])
        let camera = "{\"center\": {\"latitude\": \(latC), \"longitude\": \(lonC)}, \"heading\": 0, \"tilt\": 0, \"range\": \(1500 + 3000 * next())}"
        let tiled = "{\"output\": {\"width\": 256, \"height\": 192}, \"map\": {\"mode\": \"satellite\", \"camera\": \(camera), \"imagery\": {\"tiles\": \"\(archive)\"}, \"attribution\": false}}"
        let image = "{\"output\": {\"width\": 256, \"height\": 192}, \"map\": {\"mode\": \"satellite\", \"camera\": \(camera), \"imagery\": {\"file\": \"\(dir)/mosaic.png\", \"bounds\": [\(bounds.map { String($0) }.joined(separator: ", "))], \"projection\": \"webMercator\"}, \"attribution\": false}}"
        try FileIO.writeAtomically(Array(tiled.utf8), to: "\(dir)/tiles/t-\(s).json")
        try FileIO.writeAtomically(Array(image.utf8), to: "\(dir)/image/t-\(s).json")
    }
    var lines = ["Batch: 500 topo thumbnails (256x192, straight down), -j2"]
    var rates: [String: Double] = [:]
    TileCache.shared.removeAll()
    for kind in ["tiles", "image"] {
        var options = BatchOptions()
        options.template = dir + "/out-\(kind)/{name}.png"
        options.jobs = 2
        options.force = true
        let summary = Batch.run(try Batch.inputs([dir + "/" + kind]), options: options)
        precondition(summary.failures.isEmpty, "\(summary.failures)")
        rates[kind] = Double(summary.rendered) / summary.seconds
        var note = ""
        if kind == "tiles" {
            let s = TileCache.shared.statistics
            note = ", tile cache hit rate \(format(100 * Double(s.hits) / Double(max(1, s.hits + s.misses)), 1)) % (\(s.tiles) tiles, \(s.bytes >> 20) MiB held)"
        }
        lines.append("  from \(kind == "tiles" ? "the PMTiles archive" : "one in-memory image (\(mosaic.width)x\(mosaic.height))"): \(format(summary.seconds, 2)) s, \(format(rates[kind]!, 1)) thumbnails/s" + note)
    }
    lines.append("  tiles / image throughput: \(format(rates["tiles"]! / rates["image"]!, 2))x")
    return lines.joined(separator: "\n")
}
