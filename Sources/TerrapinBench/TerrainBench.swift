// Terrain benchmarks: a 1024×768 frame of a synthetic 1024² and 4096² grid at tilt 60.
import Terrapin
#if canImport(Glibc)
import Glibc
#endif

func syntheticGrid(_ n: Int) -> HeightGrid {
    // The benchmark spec's height function, stretched over n × n samples spanning 0.2°.
    var samples = [Float](repeating: 0, count: n * n)
    for j in 0..<n {
        let v = Double(j) / Double(n - 1)
        for i in 0..<n {
            let u = Double(i) / Double(n - 1)
            func g(_ cu: Double, _ cv: Double, _ s: Double) -> Double { exp(-((u - cu) * (u - cu) + (v - cv) * (v - cv)) / (2 * s * s)) }
            let h = 200 + 900 * g(0.30, 0.35, 0.10) + 1300 * g(0.68, 0.62, 0.14) + 500 * g(0.50, 0.85, 0.06)
                + 80 * sin(2 * Double.pi * 4 * u) * cos(2 * Double.pi * 3 * v) + 40 * sin(2 * Double.pi * 7 * u) * sin(2 * Double.pi * 6 * v)
            samples[j * n + i] = Float(h)
        }
    }
    let cell = 0.2 / Double(n - 1)
    return HeightGrid(columns: n, rows: n, westCentre: 10, southCentre: 45, cellWidth: cell, cellHeight: cell, samples: samples)!
}

func terrainBenchmarks() -> [(String, Timing, String)] {
    let camera = Camera(center: LatLngAltitude(latitude: 45.1, longitude: 10.1, altitude: 600), heading: 20, tilt: 60, range: 16_000)
    let projection = Projection(camera: camera, width: 1024, height: 768)
    /// A 1024×768 frame of `ground` (with `imagery` draped), timed; the note gives triangles/s.
    func frame(_ name: String, _ ground: TerrainGround, imagery: Imagery? = nil) -> (String, Timing, String) {
        var triangles = 0
        let timing = measure(name) {
            var frame = DepthFrame(width: 1024, height: 768)
            triangles = TerrainRenderer.draw(ground, projection: projection, toDevice: (scale: 1, dx: 0, dy: 0),
                                             horizon: SIMD3<Float>(220, 232, 242), hazeDistance: 96_000, imagery: imagery, into: &frame)
        }
        return (name, timing, "\(triangles) tris, \(format(Double(triangles) / timing.median / 1000, 1)) Mtri/s")
    }
    // TERRAPIN_BENCH_TERRAIN=mesh runs the 1024² mesh alone, =draped the draped frame alone
    // (for a profiler).
    let only = getenv("TERRAPIN_BENCH_TERRAIN").map { String(cString: $0) }
    if only == "mesh" {
        return [frame("terrain mesh 1024², 1024x768, tilt 60", TerrainGround(grid: syntheticGrid(1024)))]
    }
    var results = only == "draped" ? [] : [1024, 4096].map { n in frame("terrain mesh \(n)², 1024x768, tilt 60", TerrainGround(grid: syntheticGrid(n))) }
    // Imagery: a 4096² image over the 1024² grid (mipmaps built once), draped.
    var pixels = [UInt8](repeating: 255, count: 4096 * 4096 * 4)
    var state: UInt32 = 7
    for y in 0..<4096 {
        for x in 0..<4096 {
            state = 1664525 &* state &+ 1013904223
            let o = (y * 4096 + x) * 4, noise = Int(state >> 28)
            pixels[o] = UInt8((x / 64 + y / 64) % 2 == 0 ? 200 + noise : 90 + noise)
            pixels[o + 1] = UInt8(120 + (x * 100 / 4096) + noise)
            pixels[o + 2] = UInt8(80 + (y * 100 / 4096))
        }
    }
    let image = Pixmap(width: 4096, height: 4096, premultipliedData: pixels)!
    var imagery: Imagery?
    let mipmaps = measure("imagery", runs: 3) { imagery = Imagery(image: image, west: 10, south: 45, east: 10.2, north: 45.2) }
    results.append(("imagery 4096², mipmaps", mipmaps, "\(imagery!.byteCount >> 20) MiB"))
    results.append(frame("1024² mesh + 4096² imagery draped", TerrainGround(grid: syntheticGrid(1024)), imagery: imagery))
    return results
}
