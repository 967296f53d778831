import Foundation
import Testing
import TerrapinGeo
@testable import Terrapin3D
@testable import TerrapinTerrain
@testable import TerrapinTerrainData
import TerrapinTestSupport

let terrainFixtures = Repository.fixture("terrain")
let salish = try! GridLoader.load(terrainFixtures + "/salish-sea-topobathy-bc.asc")
let jacksboro = try! GridLoader.load(terrainFixtures + "/jacksboro-fault-tn.asc")

func parse(_ text: String) throws(TerrainError) -> HeightGrid { try GridLoader.esriASCII(Array(text.utf8), file: "t.asc") }

@Suite struct GridLoaderTests {
    @Test func realGrids() {
        // Values read from the files (see shared/data/dem/README.md).
        #expect(salish.columns == 120 && salish.rows == 91 && salish.range.min == -1437 && salish.range.max == 2205)
        #expect(jacksboro.columns == 403 && jacksboro.rows == 344 && jacksboro.range.min == 236 && jacksboro.range.max == 1076)
        // Cell centres return the file's samples: the first value, a strait cell and the summit.
        #expect(salish.height(latitude: 49.9841804546, longitude: -125.9833068809).map { abs($0 - 989) < 1e-6 } == true)
        #expect(salish.height(latitude: 49.1095975266, longitude: -123.3166142249).map { abs($0 + 150) < 1e-6 } == true)
        #expect(salish.height(latitude: 49.8311284422, longitude: -122.9832776429).map { abs($0 - 2205) < 1e-6 } == true)
        #expect(salish.height(latitude: 47, longitude: -124) == nil, "outside the grid")
    }

    @Test func bilinearBetweenCentresAndCentreOrigins() throws {
        let g = try parse("ncols 2\nnrows 2\nxllcenter 10\nyllcenter 20\ncellsize 1\n0 10\n20 30\n")
        #expect(g.height(latitude: 21, longitude: 10) == 0)        // north-west
        #expect(g.height(latitude: 20, longitude: 11) == 30)       // south-east
        #expect(g.height(latitude: 20.5, longitude: 10.5) == 15)   // middle
        #expect(g.height(latitude: 21.4, longitude: 9.6) == 0, "clamped within half a cell")
    }

    @Test func nodataIsFilledFromNeighbours() throws {
        let g = try parse("ncols 3\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\nNODATA_value -9999\n10 -9999 30\n10 20 -9999\n")
        #expect(g[0, 1] == Float((10 + 30 + 20) / 3.0) && g[1, 2] == 25)
        let empty = try parse("ncols 2\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\nNODATA_value -1\n-1 -1\n-1 -1\n")
        #expect(empty.samples == [0, 0, 0, 0], "no valid sample: sea level")
    }

    @Test(arguments: [
        ("ncols 2\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2\n3\n", "line 7: the file ends after 3 of 4 samples"),
        ("ncols 2\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2\n3 x4\n", "line 7: sample 4 is not a number"),
        ("ncols 2\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2\n3 4 5\n", "more samples than ncols × nrows = 4"),
        ("ncols 2\nnrows 2\nxllcorner 0\nyllcorner 0\ncelsize 1\n1 2\n3 4\n", "line 5: it does not read as an ESRI ASCII grid: the header has a key it does not know"),
        ("nrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2\n3 4\n", "the header has no 'ncols'"),
        ("ncols 2\nnrows 2\nxllcorner 0\nyllcorner 0\ndx 1\n1 2\n3 4\n", "needs 'cellsize', or 'dx' and 'dy'"),
        ("ncols two\nnrows 2\n", "line 1: the header's 'ncols' needs a number"),
        ("ncols 100000\nnrows 100000\nxllcorner 0\nyllcorner 0\ncellsize 1\n1\n", "is 100000x100000 samples, more than the limit"),
        ("ncols 2.5\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2\n", "whole numbers"),
        // Found by `make fuzz` (Fixtures/regressions/grid): a column count beyond Int trapped
        // while the error was being made.
        ("ncols 88888888888888888888888888888888888883\nnrows 3\nxllcorner 10\nyllcorner 90\ncellsize 0.2\n1\n",
         "is 8.888888888888889e+37x3 samples, more than the limit"),
        ("ncols 8000\nnrows 8000\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2\n", "the file ends after 2 of 64000000 samples (row 1 of 8000)"),
        // Found by `make fuzz`: a sample of 1.6e37 m put markers so far up that the line-of-sight
        // march stopped advancing.
        ("ncols 2\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2\n3 1.6e37\n", "line 7: sample 4 is not an elevation in metres"),
    ] as [(String, String)])
    func badGridsNameTheLine(text: String, message: String) {
        do {
            _ = try parse(text)
            Issue.record("parsed")
        } catch {
            #expect(error.description.contains("t.asc") && error.description.contains(message), "\(error)")
        }
    }

    /// The fast straight-down image equals hillshade × ramp computed sample by sample.
    /// A file that is not a grid (an environment, a key file) is named, never quoted: its
    /// content must not reach an error message that a service may return.
    @Test func errorMessagesNeverEchoTheFilesContent() {
        for text in ["SECRET=hunter2\nPATH=/usr/bin\n", "ncols hunter2\n", "ncols 2\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2\n3 hunter2\n",
                     "ncols 2\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2\n3 99999999\n"] {
            do {
                _ = try GridLoader.esriASCII(Array(text.utf8), file: "secret.asc")
                Issue.record("\(text) read as a grid")
            } catch {
                #expect(!error.description.contains("hunter2") && !error.description.contains("SECRET") && !error.description.contains("99999999"), "\(error)")
            }
        }
    }

    @Test func shadedReliefEqualsThePerSampleFormulas() throws {
        let grid = salish
        let heights = grid.samples.map { Double($0.isNaN ? 0 : $0) }
        let (n, m) = (grid.columns, grid.rows)
        var style = TerrainStyle()
        style.sunAzimuth = 290
        style.sunAltitude = 38
        let image = try #require(style.shadedRelief(heights, columns: n, rows: m, dxMetres: 2400, dyMetres: 2430))
        func h(_ r: Int, _ c: Int) -> Double { heights[min(max(r, 0), m - 1) * n + min(max(c, 0), n - 1)] }
        var differ = 0
        for r in 0..<m {
            for c in 0..<n {
                let shade = style.hillshade(h(r - 1, c - 1), h(r - 1, c), h(r - 1, c + 1), h(r, c - 1), h(r, c + 1), h(r + 1, c - 1), h(r + 1, c), h(r + 1, c + 1),
                                            dxMetres: 2400, dyMetres: 2430)
                let base = TerrainStyle.rampColor(h(r, c))
                let k = 0.25 + 0.75 * shade
                func byte(_ v: Double) -> UInt8 { UInt8((min(255, max(0, v * k)) + 0.5).rounded(.down)) }
                let p = image[c, r]
                if (p.red, p.green, p.blue, p.alpha) != (byte(base.0), byte(base.1), byte(base.2), 255) { differ += 1 }
            }
        }
        #expect(differ == 0)
        #expect(style.shadedRelief([1, 2, 3], columns: 2, rows: 2, dxMetres: 1, dyMetres: 1) == nil)
    }

    /// Found by `make fuzz` (Fixtures/regressions/grid): cells of 2e-16° made the level of
    /// detail overflow Int while the mesh was being sized.
    @Test func absurdlySmallCellsDrawAsOneMeshCell() throws {
        let grid = try parse("ncols 3\nnrows 3\nxllcorner 18\nyllcorner 89\ncellsize 0.0000000000000002\n1 2 3\n4 5 6\n3 1 29\n")
        let camera = Camera(center: LatLngAltitude(latitude: 89, longitude: 18), tilt: 45, range: 1000)
        var frame = DepthFrame(width: 48, height: 36)
        let triangles = TerrainRenderer.draw(TerrainGround(grid: grid), projection: Projection(camera: camera, width: 48, height: 36),
                                             toDevice: (scale: 1, dx: 0, dy: 0), horizon: .zero, hazeDistance: 1000, into: &frame)
        #expect(triangles <= 2)
    }

    /// Horn's hillshade equals `gdaldem hillshade -az 315 -alt 45` (Fixtures/terrain/gdaldem) on
    /// every interior cell of a real 64 × 48 window, to its 1/254 steps.
    @Test func hillshadeMatchesGdaldem() throws {
        let dem = try GridLoader.load(terrainFixtures + "/gdaldem/jacksboro-window-30m.asc")
        let gdal = try GridLoader.load(terrainFixtures + "/gdaldem/jacksboro-window-30m-hillshade.asc")
        let style = TerrainStyle()
        var worst = 0.0, compared = 0
        for r in 1..<(dem.rows - 1) {
            for c in 1..<(dem.columns - 1) {
                func h(_ dr: Int, _ dc: Int) -> Double { Double(dem[r + dr, c + dc]) }
                let shade = style.hillshade(h(-1, -1), h(-1, 0), h(-1, 1), h(0, -1), h(0, 1), h(1, -1), h(1, 0), h(1, 1), dxMetres: 30, dyMetres: 30)
                worst = max(worst, abs(1 + 254 * shade - Double(gdal[r, c])))
                compared += 1
            }
        }
        #expect(compared == 62 * 46)
        #expect(worst <= 1, "largest difference \(worst) of 254")
    }

    /// A straight-down view draws each sample's pixel as the ramp colour of its height times
    /// 0.25 + 0.75 × gdaldem's hillshade there. The view is framed at two device pixels per
    /// sample: at one per pixel the mesh's level of detail (a mesh cell ≈ two pixels) would
    /// take every other sample.
    @Test func straightDownViewReproducesTheHillshade() throws {
        let dem = try GridLoader.load(terrainFixtures + "/gdaldem/jacksboro-window-30m.asc")
        let gdal = try GridLoader.load(terrainFixtures + "/gdaldem/jacksboro-window-30m-hillshade.asc")
        // The same samples at the equator, cells of 30 m (the renderer's metres per degree).
        let cellLat = 30 / (111_132.954 - 559.822), cellLon = 30 / 111_412.84
        let grid = try #require(HeightGrid(columns: dem.columns, rows: dem.rows, westCentre: 0, southCentre: 0,
                                           cellWidth: cellLon, cellHeight: cellLat, samples: dem.samples))
        let (w, h) = (dem.columns, dem.rows)
        // One sample per point, two device pixels per point; sample (r, c) lands on the centre
        // of device pixel (2c, 2r). The camera looks from far away through a 1° lens (parallax
        // of the relief well under a pixel), at the relief's mid height.
        let mid = Double(dem.range.min + dem.range.max) / 2
        let center = LatLngAltitude(latitude: grid.northCentre - (Double(h) / 2 - 0.25) * cellLat, longitude: (Double(w) / 2 - 0.25) * cellLon, altitude: mid)
        let fov = 1.0
        let focal = (Double(h) / 2) / tan(fov * Double.pi / 360)
        let camera = Camera(center: center, range: 30 * focal, fieldOfView: .degrees(fov))
        var frame = DepthFrame(width: 2 * w, height: 2 * h)
        TerrainRenderer.draw(TerrainGround(grid: grid), projection: Projection(camera: camera, width: Double(w), height: Double(h), centerAltitude: mid),
                             toDevice: (scale: 2, dx: 0, dy: 0), horizon: .zero, hazeDistance: .infinity, into: &frame)
        // Perspective shifts a sample by (its height − mid) / range × its distance from the
        // centre: within 10 samples of the centre that is under 0.05 pixel, so those pixels are
        // the samples themselves.
        var worst = 0.0, total = 0.0, count = 0
        for r in (h / 2 - 10)..<(h / 2 + 10) {
            for c in (w / 2 - 10)..<(w / 2 + 10) {
                let shade = (Double(gdal[r, c]) - 1) / 254
                let ramp = TerrainStyle.rampColor(Double(dem[r, c]))
                let k = 0.25 + 0.75 * shade
                let p = frame.pixels[2 * r * 2 * w + 2 * c]
                for (value, expected) in [(p & 0xFF, ramp.0 * k), (p >> 8 & 0xFF, ramp.1 * k), (p >> 16 & 0xFF, ramp.2 * k)] {
                    worst = max(worst, abs(Double(value) - expected))
                    total += abs(Double(value) - expected)
                    count += 1
                }
            }
        }
        // The renderer truncates to bytes (up to 1) and gdaldem rounds its shade to 1/254 (up to
        // 0.4 after the ramp): measured 2.02 at worst, 0.57 on average.
        #expect(worst <= 2.5 && total / Double(count) < 1, "largest difference \(worst) of 255, mean \(total / Double(count))")
    }

    /// The line-of-sight march ends however far away its ends are (it once looped forever when
    /// `t += step` rounded back to `t`).
    @Test func lineOfSightEndsForAstronomicalDistances() {
        let ground = TerrainGround(grid: salish)
        let frame = LocalFrame(origin: LatLngAltitude(latitude: 49.4, longitude: -123.2))
        // A point 6e20 m away level with the grid: the stretch over the grid is ~400 km of a line
        // 6e20 m long, where one step (a half cell) is below the spacing of doubles.
        for far in [1e7, 1e12, 6e20, 1e300] {
            _ = ground.isOccluded(from: Vector3(0, 0, 2_000), to: Vector3(far, 0, 1_000), in: frame)
            _ = ground.isOccluded(from: Vector3(0, 0, far), to: Vector3(1_000, 2_000, 0), in: frame)
        }
    }

    @Test func missingFilesAndOtherFormats() throws {
        #expect(throws: TerrainError.self) { try GridLoader.load("/nonexistent/x.asc") }
        #expect(throws: TerrainError.self) { try GridLoader.hgt([0, 1, 2], name: "N37W123.hgt") }
        // A tiny synthetic .hgt: 1201² samples of 100 m with one void.
        var bytes = [UInt8](repeating: 0, count: 1201 * 1201 * 2)
        for i in 0..<(1201 * 1201) { bytes[2 * i + 1] = 100 }
        bytes[0] = 0x80; bytes[1] = 0x00
        let hgt = try GridLoader.hgt(bytes, name: "/data/N37W123.hgt")
        #expect(hgt.westCentre == -123 && hgt.southCentre == 37 && hgt.northCentre == 38 && hgt[0, 0] == 100)
        #expect(throws: TerrainError.self) { try GridLoader.hgt(bytes, name: "tile.hgt") }
    }
}

@Suite struct TerrainGroundTests {
    let ground = TerrainGround(grid: salish)
    let water = LatLngAltitude(latitude: 49.1095975266, longitude: -123.3166142249)
    let land = LatLngAltitude(latitude: 49.8311284422, longitude: -122.9832776429)

    @Test func waterIsSeaLevelForMarkers() {
        #expect(ground.isWater(at: water) && abs(ground.elevation(at: water) + 150) < 1e-6)
        #expect(ground.terrainHeight(at: water) == 0)
        #expect(abs(ground.terrainHeight(at: land) - 2205) < 1e-6 && !ground.isWater(at: land))
        #expect(abs(TerrainGround(grid: salish, exaggeration: 2).terrainHeight(at: land) - 4410) < 1e-6)
    }

    /// The camera 8 km south of a valley at 378 m, 420 m above it, looks north across a ridge
    /// (940 m) that hides the valley floor; 1,500 m above the valley clears every ridge.
    @Test func aRidgeHidesTheValleyBehindIt() {
        let jground = TerrainGround(grid: jacksboro)
        let valley = LatLngAltitude(latitude: 36.615833326549996, longitude: -84.24666667334999)
        let valleyHeight = jground.terrainHeight(at: valley)
        #expect(abs(valleyHeight - 378) < 1e-6)
        let camera = Camera(center: LatLngAltitude(latitude: valley.latitude, longitude: valley.longitude, altitude: valleyHeight), heading: 0, tilt: 87, range: 8000)
        let projection = Projection(camera: camera, width: 400, height: 300)
        func target(_ p: LatLngAltitude, _ h: Double) -> Vector3 {
            projection.frame.enu(LatLngAltitude(latitude: p.latitude, longitude: p.longitude, altitude: h))
        }
        #expect(jground.isOccluded(from: projection.eye, to: target(valley, valleyHeight), in: projection.frame))
        #expect(!jground.isOccluded(from: projection.eye, to: target(valley, valleyHeight + 1500), in: projection.frame))

        // Against an exact reference: every 10 m along the line, exact geodetic conversion.
        func exactlyHidden(_ point: Vector3) -> Bool {
            let d = projection.eye - point
            let length = d.length
            var t = 190.0
            while t < length {
                let q = projection.frame.geodetic(enu: point + d * (t / length))
                if let ground = jacksboro.height(latitude: q.latitude, longitude: q.longitude), q.altitude < max(0, ground) { return true }
                t += 10
            }
            return false
        }
        var disagreements = 0, total = 0
        for k in 0..<40 {
            let lat = 36.55 + Double(k) * 0.002
            for above in [5.0, 60, 250] {
                let p = LatLngAltitude(latitude: lat, longitude: valley.longitude)
                let point = target(p, jground.terrainHeight(at: p) + above)
                total += 1
                if jground.isOccluded(from: projection.eye, to: point, in: projection.frame) != exactlyHidden(point) { disagreements += 1 }
            }
        }
        // Half-cell steps can miss a crest the 10-m reference grazes: allow a few grazing cases.
        #expect(disagreements <= total / 40, "\(disagreements) of \(total) differ")
    }
}

extension TerrainGroundTests {
    /// A line of sight stops being marched where it climbs past the highest ground: the same
    /// answers as marching to the grid's edge (the highest ground set out of reach), for views
    /// from above, from the side, and for eyes below the ridges.
    @Test func linesAboveTheHighestGroundStopEarly() {
        let fast = TerrainGround(grid: jacksboro, exaggeration: 1.5)
        let full = TerrainGround(grid: jacksboro, exaggeration: 1.5)
        full.highestGround.withLock { $0 = 1e9 }
        #expect(abs(fast.highest - Double(jacksboro.range.max) * 1.5) < 1e-3)
        let centre = LatLngAltitude(latitude: 36.6, longitude: -84.25)
        var hidden = 0, total = 0
        for (tilt, range) in [(0.0, 20_000.0), (45, 12_000), (70, 9_000), (87, 8_000), (89, 3_000)] {
            for heading in stride(from: 0.0, to: 360, by: 45) {
                let camera = Camera(center: LatLngAltitude(latitude: centre.latitude, longitude: centre.longitude, altitude: 400), heading: heading, tilt: tilt, range: range)
                let projection = Projection(camera: camera, width: 400, height: 300)
                for k in 0..<30 {
                    let p = LatLngAltitude(latitude: 36.5 + Double(k % 6) * 0.04, longitude: -84.38 + Double(k / 6) * 0.06)
                    let point = projection.frame.enu(LatLngAltitude(latitude: p.latitude, longitude: p.longitude, altitude: fast.terrainHeight(at: p) + Double(k % 3) * 40))
                    let answer = fast.isOccluded(from: projection.eye, to: point, in: projection.frame)
                    #expect(answer == full.isOccluded(from: projection.eye, to: point, in: projection.frame), "tilt \(tilt), heading \(heading), point \(k)")
                    total += 1
                    if answer { hidden += 1 }
                }
            }
        }
        // Both outcomes are exercised.
        #expect(hidden > total / 10 && hidden < total * 9 / 10, "\(hidden) of \(total) hidden")
    }
}

/// bench/scene_spec.md §1–3: a 512² analytic grid, Horn hillshade (azimuth 315, altitude 45,
/// equal to gdaldem's) and the hypsometric ramp, with the spec's check values.
@Suite struct SpecShadingTests {
    static let n = 512
    static let heights: [Double] = (0..<(n * n)).map { k in
        let j = k / n, i = k % n
        let u = Double(i) / 511, v = Double(j) / 511
        func g(_ cu: Double, _ cv: Double, _ s: Double) -> Double { exp(-((u - cu) * (u - cu) + (v - cv) * (v - cv)) / (2 * s * s)) }
        return 200 + 900 * g(0.30, 0.35, 0.10) + 1300 * g(0.68, 0.62, 0.14) + 500 * g(0.50, 0.85, 0.06)
            + 80 * sin(2 * Double.pi * 4 * u) * cos(2 * Double.pi * 3 * v) + 40 * sin(2 * Double.pi * 7 * u) * sin(2 * Double.pi * 6 * v)
    }
    static func h(_ r: Int, _ c: Int) -> Double { heights[min(max(r, 0), n - 1) * n + min(max(c, 0), n - 1)] }

    static func colour(_ r: Int, _ c: Int) -> (Int, Int, Int) {
        let shade = TerrainStyle().hillshade(h(r - 1, c - 1), h(r - 1, c), h(r - 1, c + 1), h(r, c - 1), h(r, c + 1), h(r + 1, c - 1), h(r + 1, c), h(r + 1, c + 1),
                                             dxMetres: 20, dyMetres: 20)
        let base = TerrainStyle.rampColor(h(r, c))
        func byte(_ v: Double) -> Int { Int((min(255, max(0, v * (0.25 + 0.75 * shade))) + 0.5).rounded(.down)) }
        return (byte(base.0), byte(base.1), byte(base.2))
    }

    @Test func gridCheckValues() {
        #expect(abs(Self.h(0, 0) - 200.0219) < 1e-4 && abs(Self.h(256, 256) - 636.0602) < 1e-4 && abs(Self.h(511, 511) - 202.3970) < 1e-4)
    }

    @Test func colourCheckValues() {
        for (r, c, expected) in [(0, 0, (77, 125, 72)), (256, 256, (166, 166, 110)), (317, 348, (124, 109, 99))] {
            let got = Self.colour(r, c)
            #expect(abs(got.0 - expected.0) <= 1 && abs(got.1 - expected.1) <= 1 && abs(got.2 - expected.2) <= 1, "(\(r), \(c)): \(got)")
        }
    }
}
