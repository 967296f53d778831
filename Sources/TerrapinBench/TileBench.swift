// Tiles and codecs: 1024×768 frames at tilt 60 from tile archives (cold: sources opened and
// the tile cache empty; warm: both kept), and JPEG / WebP encoding against PNG.
import Terrapin
#if canImport(Glibc)
import Glibc
#endif

func tileBenchmarks(repository: String) throws -> [(String, Timing, String)] {
    var results: [(String, Timing, String)] = []
    let dem = repository + "/Fixtures/tiles/andorra-terrainrgb-z8-12.pmtiles"
    let topo = repository + "/Fixtures/tiles/usgs-mt-whitney-topo-webp-z8-15.pmtiles"
    let andorra = Camera(center: LatLngAltitude(latitude: 42.535, longitude: 1.58, altitude: 1500), heading: 30, tilt: 60, range: 18_000)
    let whitney = Camera(center: LatLngAltitude(latitude: 36.5786, longitude: -118.292), heading: 20, tilt: 60, range: 5_000)

    func terrainMap() throws -> Map {
        let source = try TileSources.open(dem)
        // As a scene gets it: z11 over the area, z12 nested where the camera is near.
        let ground = try TileTerrain.ground(source, encoding: .terrainrgb, area: SceneBuilder.area(around: andorra), camera: andorra).ground
        return Map(initialCamera: andorra, mode: .satellite).terrain(ground)
    }
    func imageryMap() throws -> Map {
        let source = try TileSources.open(topo)
        return Map(initialCamera: whitney, mode: .satellite).imagery(Imagery(tiles: try TileImagery(source: source)))
    }
    func draw(_ map: Map) throws { _ = try ViewRenderer.render(map.frame(width: 1024, height: 768), scale: 1) }

    // Cold: open the archive, stitch or read tiles, decode, draw.
    let coldTerrain = try measure("terrain tiles cold", runs: 5) { TileCache.shared.removeAll(); try draw(try terrainMap()) }
    results.append(("Andorra Terrain-RGB tiles, 1024x768 tilt 60, cold", coldTerrain, "PMTiles opened, z11 tiles stitched, z12 nested near the camera"))
    let map = try terrainMap()
    results.append(("Andorra Terrain-RGB tiles, warm", try measure("terrain tiles warm") { try draw(map) }, "levels kept"))
    let coldImagery = try measure("imagery tiles cold", runs: 5) { TileCache.shared.removeAll(); try draw(try imageryMap()) }
    let stats0 = TileCache.shared.statistics
    results.append(("Whitney WebP topo tiles on flat ground, 1024x768 tilt 60, cold", coldImagery, "\(stats0.tiles) tiles decoded, \(stats0.bytes >> 20) MiB"))
    let imagery = try imageryMap()
    let before = TileCache.shared.statistics
    let warm = try measure("imagery tiles warm") { try draw(imagery) }
    let after = TileCache.shared.statistics
    let lookups = (after.hits - before.hits) + (after.misses - before.misses)
    results.append(("Whitney WebP topo tiles, warm", warm,
                    "cache hit rate \(format(100 * Double(after.hits - before.hits) / Double(max(1, lookups)), 1)) %"))
    // Both together: Andorra's Terrain-RGB tiles with imagery tiles of the same place (a colour
    // relief of the SRTM, JPEG MBTiles) draped on the mesh.
    let reliefTiles = repository + "/Fixtures/tiles/andorra-relief-z9-12.mbtiles"
    func drapedMap() throws -> Map {
        let imagery = Imagery(tiles: try TileImagery(source: try TileSources.open(reliefTiles)))
        return try terrainMap().imagery(imagery)
    }
    let coldBoth = try measure("terrain + imagery tiles cold", runs: 5) { TileCache.shared.removeAll(); try draw(try drapedMap()) }
    let stats1 = TileCache.shared.statistics
    results.append(("Andorra Terrain-RGB + JPEG imagery tiles draped, 1024x768 tilt 60, cold", coldBoth,
                    "both archives opened; \(stats1.tiles) imagery tiles decoded"))
    let both = try drapedMap()
    results.append(("Andorra Terrain-RGB + JPEG imagery tiles, warm", try measure("terrain + imagery tiles warm") { try draw(both) }, "levels and tiles kept"))
    return results
}

func encodeBenchmarks(_ frame: Pixmap, label: String) throws -> [(String, Timing, String)] {
    var results: [(String, Timing, String)] = []
    var size = 0
    results.append(("PNG default, \(label)", try measure("png") { size = try PNGEncoder.encode(frame).count }, "\(size) bytes"))
    results.append(("PNG fast, \(label)", try measure("png fast") { size = try PNGEncoder.encode(frame, options: PNGEncodingOptions(compression: .fast)).count }, "\(size) bytes"))
    results.append(("JPEG quality 90, \(label)", try measure("jpeg") { size = try JPEGEncoder.encode(frame, quality: 90).count }, "\(size) bytes"))
    results.append(("WebP lossless, \(label)", try measure("webp", runs: 3) { size = try WebPEncoder.encode(frame).count }, "\(size) bytes"))
    results.append(("WebP lossy 80, \(label)", try measure("webp lossy") { size = try WebPEncoder.encode(frame, quality: 80).count }, "\(size) bytes"))
    return results
}
