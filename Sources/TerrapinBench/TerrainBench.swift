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
    var results: [(String, Timing, String)] = []
    for n in [1024, 4096] {
        let ground = TerrainGround(grid: syntheticGrid(n))
        let camera = Camera(center: LatLngAltitude(latitude: 45.1, longitude: 10.1, altitude: 600), heading: 20, tilt: 60, range: 16_000)
        let projection = Projection(camera: camera, width: 1024, height: 768)
        var triangles = 0
        let timing = measure("terrain \(n)") {
            var frame = DepthFrame(width: 1024, height: 768)
            triangles = TerrainRenderer.draw(ground, projection: projection, toDevice: (scale: 1, dx: 0, dy: 0),
                                             horizon: SIMD3<Float>(220, 232, 242), hazeDistance: 96_000, into: &frame)
        }
        results.append(("terrain mesh \(n)², 1024x768, tilt 60", timing,
                        "\(triangles) tris, \(format(Double(triangles) / timing.median / 1000, 1)) Mtri/s"))
    }
    return results
}
