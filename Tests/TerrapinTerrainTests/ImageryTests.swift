import Foundation
import Testing
import TerrapinGeo
import TerrapinPNG
import TerrapinRaster
import TerrapinGeometry
import TerrapinTiles
@testable import Terrapin3D
@testable import TerrapinImagery
@testable import TerrapinTerrain
@testable import TerrapinTerrainData

/// An opaque image whose pixel (x, y) is (x mod 256, y mod 256, (x + y) mod 256).
func gradientImage(_ width: Int, _ height: Int) -> Pixmap {
    var data = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let o = (y * width + x) * 4
            data[o] = UInt8(x % 256); data[o + 1] = UInt8(y % 256); data[o + 2] = UInt8((x + y) % 256)
        }
    }
    return Pixmap(width: width, height: height, premultipliedData: data)!
}

/// Colours equal within a millionth of their 0…255 range: the texture samples bytes over 255 and
/// imagery scales them back, which is exact only to a unit in the last place.
private func same(_ a: SIMD4<Float>?, _ b: SIMD4<Float>) -> Bool {
    guard let a else { return false }
    return ((a - b) * (a - b)).sum() < 1e-6
}

@Suite struct ImageryTests {
    @Test func geographicBoundsAreTheImageEdges() throws {
        let imagery = try #require(Imagery(image: gradientImage(200, 100), west: -10, south: 40, east: 10, north: 50))
        let nw = imagery.texel(latitude: 50, longitude: -10), se = imagery.texel(latitude: 40, longitude: 10)
        #expect(nw.x == 0 && nw.y == 0 && se.x == 200 && se.y == 100)
        let mid = imagery.texel(latitude: 45, longitude: 0.05)
        #expect(abs(mid.x - 100.5) < 1e-9 && abs(mid.y - 50) < 1e-9)
        // Pixel centres read back exactly at full resolution; outside the edges is nil.
        let c = try #require(imagery.sample(x: 17.5, y: 33.5, level: 0))
        #expect(same(c, SIMD4(17, 33, 50, 255)), "\(c)")
        #expect(imagery.sample(x: -0.01, y: 5, level: 0) == nil && imagery.sample(x: 5, y: 100.01, level: 0) == nil)
        // Half-way between two centres is their mean.
        #expect(same(imagery.sample(x: 18, y: 33.5, level: 0), SIMD4(17.5, 33, 50.5, 255)))
    }

    /// Web Mercator rows: the equator in the middle of a world-wide tile, and 66.5° where the
    /// Mercator formula puts it (y = ln tan(π/4 + φ/2)).
    @Test func webMercatorRows() throws {
        let limit = 85.051_128_779_806_59
        let imagery = try #require(Imagery(image: gradientImage(256, 256), west: -180, south: -limit, east: 180, north: limit, projection: .webMercator))
        #expect(abs(imagery.texel(latitude: 0, longitude: 0).y - 128) < 1e-9)
        #expect(abs(imagery.texel(latitude: limit, longitude: 0).y) < 1e-9)
        let y665 = log(tan(Double.pi / 4 + 66.5 * Double.pi / 360))
        #expect(abs(imagery.texel(latitude: 66.5, longitude: 0).y - (128 - y665 / Double.pi * 128)) < 1e-9)
        #expect(Imagery(image: gradientImage(4, 4), west: 0, south: 0, east: 1, north: 89, projection: .webMercator) == nil)
        // Image pixels per metre grow as 1 / cos φ northwards in Mercator rows.
        // (times the ratio of the metres in a degree of latitude there).
        func metresPerDegree(_ phi: Double) -> Double { 111_132.954 - 559.822 * cos(2 * phi) + 1.175 * cos(4 * phi) }
        let d0 = imagery.texelsPerMetre(latitude: 0).y, d60 = imagery.texelsPerMetre(latitude: 60).y
        #expect(abs(d60 / d0 - 2 * metresPerDegree(0) / metresPerDegree(Double.pi / 3)) < 1e-9)
    }

    @Test func acrossTheAntimeridian() throws {
        let imagery = try #require(Imagery(image: gradientImage(40, 10), west: 170, south: -10, east: -170, north: 10))
        #expect(abs(imagery.texel(latitude: 0, longitude: 180).x - 20) < 1e-9)
        #expect(abs(imagery.texel(latitude: 0, longitude: -180).x - 20) < 1e-9)
        #expect(abs(imagery.texel(latitude: 0, longitude: -175).x - 30) < 1e-9)
        // Just west of the image is left of it, not 340° to the east.
        #expect(imagery.texel(latitude: 0, longitude: 169).x < 0)
        #expect(imagery.texel(latitude: 0, longitude: -169).x > 40)
    }

    /// Each mipmap level is the rounded 2×2 mean of the one above (`MipTexture`'s pyramid, an
    /// odd size's last row or column repeated); levels between blend.
    /// One texture sampler: an image draped as imagery, repeated over buildings as a pattern and
    /// mapped on a model reads the same colour at the same texel and level of detail, because
    /// all three are a `MipTexture` — imagery's clamped at its edges, a pattern's repeating.
    @Test func imageryPatternsAndModelsShareOneSampler() throws {
        let image = gradientImage(16, 8)
        let imagery = try #require(Imagery(image: image, west: 0, south: 0, east: 16, north: 8))
        let texels = (0..<(16 * 8)).map { i in SIMD4<Float>((0..<4).map { Float(image.data[i * 4 + $0]) }) }
        let pattern = try #require(PatternImage(width: 16, height: 8, texels: texels))
        let model = MipTexture(image)
        var clamped = model
        clamped.wrapS = .clamp
        clamped.wrapT = .clamp
        var compared = 0, edgesDiffer = 0
        for x in stride(from: 0.0, through: 16, by: 0.75) {
            for y in stride(from: 0.0, through: 8, by: 1.25) {
                for lod in [0, 0.5, 1.25, 2.75] as [Float] {
                    let uv = SIMD2(Float(x / 16), Float(y / 8))
                    let a = try #require(imagery.sample(x: x, y: y, level: Double(lod)))
                    #expect(a == clamped.sample(uv, lod: lod) * 255, "imagery at x \(x) y \(y) lod \(lod)")
                    let b = pattern.sample(Float(x), Float(y), lod: lod)
                    #expect(b == model.sample(uv, lod: lod) * 255, "pattern at x \(x) y \(y) lod \(lod)")
                    if a != b { edgesDiffer += 1 }
                    compared += 1
                }
            }
        }
        #expect(compared == 22 * 7 * 4)
        // Near the edges, at coarser levels, clamping and repeating read different texels.
        #expect(edgesDiffer > 0)
        // Level 1 of the pyramid is the rounded 2×2 mean, the same in all three.
        #expect(imagery.texture?.levels.count == model.levels.count && pattern.texture.levels.count == model.levels.count)
    }

    /// Every level of an odd-sized pyramid against the contract's formula, channel by channel:
    /// (a + b + c + d + 2) / 4 of the 2×2 above, the last row or column repeated.
    @Test func mipmapTexelsAreTheRoundedMeanPerChannel() throws {
        var state: UInt32 = 12_345
        func next() -> UInt8 { state = state &* 1_103_515_245 &+ 12_345; return UInt8(truncatingIfNeeded: state >> 16) }
        var data: [UInt8] = []
        func upTo(_ a: UInt8) -> UInt8 { UInt8(UInt16(next()) % (UInt16(a) + 1)) }
        for _ in 0..<(13 * 7) { let a = next(); data += [upTo(a), upTo(a), upTo(a), a] }
        let texture = MipTexture(try #require(Pixmap(width: 13, height: 7, premultipliedData: data)))
        #expect(texture.levels.map { "\($0.width)x\($0.height)" } == ["13x7", "6x3", "3x1", "1x1"])
        var above = (0..<(13 * 7)).map { i in (0..<4).map { UInt32(data[i * 4 + $0]) } }
        for k in 1..<texture.levels.count {
            let w = texture.levels[k - 1].width, h = texture.levels[k - 1].height
            let level = texture.levels[k], texels = texture.texels(level: k)
            var expected: [[UInt32]] = []
            for y in 0..<level.height {
                for x in 0..<level.width {
                    let xs: [Int] = [min(w - 1, 2 * x), min(w - 1, 2 * x + 1)], ys: [Int] = [min(h - 1, 2 * y), min(h - 1, 2 * y + 1)]
                    var mean: [UInt32] = [2, 2, 2, 2]
                    for yy in ys { for xx in xs { for c in 0..<4 { mean[c] += above[yy * w + xx][c] } } }
                    mean = mean.map { $0 / 4 }
                    expected.append(mean)
                    let texel: UInt32 = texels[y * level.width + x]
                    let got: [UInt32] = (0..<4).map { (texel >> (8 * UInt32($0))) & 0xFF }
                    #expect(got == mean, "level \(k) texel \(x), \(y)")
                }
            }
            above = expected
        }
    }

    @Test func mipmapLevels() throws {
        let imagery = try #require(Imagery(image: gradientImage(8, 6), west: 0, south: 0, east: 8, north: 6))
        #expect(imagery.texture?.levels.map { "\($0.width)x\($0.height)" } == ["8x6", "4x3", "2x1", "1x1"])
        // Level 1 pixel (1, 1) averages level 0 pixels x 2…3, y 2…3: (2.5, 2.5, 5) rounded.
        let l1 = try #require(imagery.sample(x: 3, y: 3, level: 1))
        #expect(same(l1, SIMD4(3, 3, 5, 255)), "\(l1)")
        let l0 = try #require(imagery.sample(x: 3, y: 3, level: 0))
        let half = try #require(imagery.sample(x: 3, y: 3, level: 0.5))
        #expect(same(half, (l0 + l1) / 2), "\(half)")
        // Levels beyond the pyramid are its last.
        #expect(imagery.sample(x: 3, y: 3, level: 50) == imagery.sample(x: 3, y: 3, level: 3))
        // An 8×8 image's 1×1 level is the mean of everything: blue (x + y) averages 7 (exactly
        // at every level: 2i + 2j + 1, then 4i + 4j + 3, then 7).
        let square = try #require(Imagery(image: gradientImage(8, 8), west: 0, south: 0, east: 8, north: 8))
        #expect(abs((square.sample(x: 1, y: 1, level: 3)?.z ?? 0) - 7) < 1e-3)
    }

    @Test func badBoundsAndFiles() throws {
        let image = gradientImage(4, 4)
        #expect(Imagery(image: image, west: 0, south: 10, east: 1, north: 5) == nil)
        #expect(Imagery(image: image, west: 0, south: 0, east: 0, north: 5) == nil)
        #expect(Imagery(image: image, west: .nan, south: 0, east: 1, north: 5) == nil)
        #expect(Imagery(image: image, west: 0, south: 0, east: 200, north: 5) == nil)
        #expect(Imagery(image: image, west: 0, south: 0, east: 1, north: 5, shading: 2) == nil)
        do {
            _ = try Imagery.load("/nonexistent/a.png", west: 0, south: 0, east: 1, north: 1)
            Issue.record("loaded a missing file")
        } catch {
            #expect(error.description.hasPrefix("imagery") && error.description.contains("/nonexistent/a.png"), "\(error)")
        }
        // A file that is not a PNG.
        let path = NSTemporaryDirectory() + "terrapin-imagery-\(getpid()).png"
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try Imagery.load(path, west: 0, south: 0, east: 1, north: 1)
            Issue.record("loaded a file that is not a PNG")
        } catch {
            #expect(error.description.contains(path), "\(error)")
        }
        // Good pixels, bad bounds: the message says what bounds are wanted.
        try Data(try PNGEncoder.encode(image)).write(to: URL(fileURLWithPath: path))
        do {
            _ = try Imagery.load(path, west: 0, south: 5, east: 1, north: 1)
            Issue.record("loaded with south > north")
        } catch {
            #expect(error.description.contains("[west, south, east, north]"), "\(error)")
        }
    }

    /// Straight down over flat terrain, framed at one image pixel per screen pixel: the
    /// drape reproduces the image (the mesh interpolates image positions perspective-correctly
    /// and picks full resolution).
    @Test func straightDownDrapeReproducesTheImage() throws {
        let (w, h) = (96, 64)
        let cellLat = 10 / (111_132.954 - 559.822), cellLon = 10 / 111_412.84
        // Imagery of 10 m pixels; under it, and a cell beyond, terrain of 40 m everywhere with
        // a sample every 10 m.
        let grid = try #require(HeightGrid(columns: w + 3, rows: h + 3, westCentre: -cellLon, southCentre: -cellLat, cellWidth: cellLon, cellHeight: cellLat,
                                           samples: [Float](repeating: 40, count: (w + 3) * (h + 3))))
        let image = gradientImage(w, h)
        let imagery = try #require(Imagery(image: image, west: 0, south: 0, east: Double(w) * cellLon, north: Double(h) * cellLat))
        let fov = 1.0
        let focal = (Double(h) / 2) / tan(fov * Double.pi / 360)
        let center = LatLngAltitude(latitude: Double(h) / 2 * cellLat, longitude: Double(w) / 2 * cellLon, altitude: 40)
        let camera = Camera(center: center, range: 10 * focal, fieldOfView: .degrees(fov))
        var frame = DepthFrame(width: w, height: h)
        TerrainRenderer.draw(TerrainGround(grid: grid), projection: Projection(camera: camera, width: Double(w), height: Double(h), centerAltitude: 40),
                             toDevice: (scale: 1, dx: 0, dy: 0), horizon: .zero, hazeDistance: .infinity, imagery: imagery, into: &frame)
        var worst = 0
        for y in 0..<h {
            for x in 0..<w {
                let p = frame.pixels[y * w + x], e = image[x, y]
                for (value, expected) in [(p & 0xFF, e.red), (p >> 8 & 0xFF, e.green), (p >> 16 & 0xFF, e.blue)] {
                    worst = max(worst, abs(Int(value) - Int(expected)))
                }
            }
        }
        #expect(worst <= 1, "largest difference \(worst) of 255")
    }

    /// A one-pixel checkerboard seen four times smaller: the mipmap averages it to grey rather
    /// than aliasing to stripes or moiré.
    @Test func minifiedImageryIsFilteredNotAliased() throws {
        let (w, h) = (64, 48)
        let cell = 10 / 111_412.84, cellLat = 10 / (111_132.954 - 559.822)
        let grid = try #require(HeightGrid(columns: 4 * w + 3, rows: 4 * h + 3, westCentre: -cell, southCentre: -cellLat, cellWidth: cell, cellHeight: cellLat,
                                           samples: [Float](repeating: 0, count: (4 * w + 3) * (4 * h + 3))))
        var data = [UInt8](repeating: 255, count: 4 * w * 4 * h * 4)
        for y in 0..<(4 * h) { for x in 0..<(4 * w) where (x + y) % 2 == 0 { data[(y * 4 * w + x) * 4] = 0; data[(y * 4 * w + x) * 4 + 1] = 0; data[(y * 4 * w + x) * 4 + 2] = 0 } }
        let imagery = try #require(Imagery(image: Pixmap(width: 4 * w, height: 4 * h, premultipliedData: data)!, west: 0, south: 0,
                                           east: Double(4 * w) * cell, north: Double(4 * h) * cellLat))
        let fov = 1.0
        let focal = (Double(h) / 2) / tan(fov * Double.pi / 360)
        // Framed so that each screen pixel's centre falls on an image pixel's centre: sampled
        // without the mipmap, every pixel would be black or white.
        let camera = Camera(center: LatLngAltitude(latitude: (Double(2 * h) - 0.5) * cellLat, longitude: (Double(2 * w) + 0.5) * cell), range: 40 * focal, fieldOfView: .degrees(fov))
        var frame = DepthFrame(width: w, height: h)
        TerrainRenderer.draw(TerrainGround(grid: grid), projection: Projection(camera: camera, width: Double(w), height: Double(h), centerAltitude: 0),
                             toDevice: (scale: 1, dx: 0, dy: 0), horizon: .zero, hazeDistance: .infinity, imagery: imagery, into: &frame)
        let reds = frame.pixels.map { Int($0 & 0xFF) }
        #expect(reds.allSatisfy { abs($0 - 127) <= 2 }, "reds from \(reds.min()!) to \(reds.max()!)")
    }
}

/// The flat ground's level of detail per pixel: a straight-down view of Web Mercator imagery
/// reads the same level at its corners as at its centre (a pixel's footprint is (d / f)²·cos³θ
/// of its angle θ to the axis, and d grows as 1 / cos θ: the two cancel on flat ground), where
/// leaving out the cos³ made the corners a level coarser.
@Suite struct FlatGroundLevelTests {
    @Test func cornersOfAStraightDownViewReadTheCentresLevel() throws {
        // 87 m texels; from 300 km up a pixel at the centre covers about 13 of them across.
        let imagery = try #require(Imagery(image: gradientImage(256, 256), west: -0.1, south: -0.1, east: 0.1, north: 0.1))
        let camera = Camera(center: LatLngAltitude(latitude: 0, longitude: 0), range: 300_000, fieldOfView: .degrees(60))
        let projection = Projection(camera: camera, width: 400, height: 300, ellipsoid: .sphere)
        let caster = SkyCaster(projection: projection, rect: Rect(x: 0, y: 0, width: 400, height: 300), inverse: .identity, grid: nil,
                               hazeDistance: 1e9, focal: projection.focalLength, sky: SkyColors(zenith: .white, horizon: .white),
                               ground: .white, flatShade: 0)
        func level(_ x: Double, _ y: Double) throws -> Double {
            let ray = caster.cast(x, y)
            let d = try #require(ray.distance)
            let q = projection.eye + ray.dir * d
            return caster.texelAt(q, along: ray.dir, distance: d, imagery).z
        }
        let centre = try level(200, 150), corner = try level(0.5, 0.5)
        #expect(centre > 2.5)
        // Within the Earth's curvature of each other (without the cos³: a level apart).
        #expect(abs(corner - centre) < 0.1, "centre \(centre), corner \(corner)")
    }

    /// A drawn map (one zoom at a time, as a style's drape) on Web Mercator's plane seen at 60°:
    /// the centre's level is the straight-down view's at the same distance, the footprint's
    /// stretch along the slanted ray left out (with it, half a level coarser, which read the zoom
    /// above the view's there); photographs keep the stretch, blended between zooms.
    @Test func aTiltedViewOfADrawnMapReadsTheViewsZoomAtItsCentre() throws {
        let drawn = Imagery(tiles: try TileImagery(drawer: PlainDrawer(), cache: TileCache(byteLimit: 1 << 20)))
        #expect(drawn.readsOneZoom)
        let photo = try #require(Imagery(image: gradientImage(256, 256), west: -0.1, south: -0.1, east: 0.1, north: 0.1, projection: .webMercator))
        #expect(!photo.readsOneZoom)
        func centreLevel(tilt: Double, _ imagery: Imagery) throws -> Double {
            let camera = Camera(center: LatLngAltitude(latitude: 0, longitude: 0), tilt: tilt, range: 300_000, fieldOfView: .degrees(36.87))
            let projection = Projection(camera: camera, width: 400, height: 300, ellipsoid: .mercator)
            let caster = SkyCaster(projection: projection, rect: Rect(x: 0, y: 0, width: 400, height: 300), inverse: .identity, grid: nil,
                                   hazeDistance: 1e9, focal: projection.focalLength, sky: SkyColors(zenith: .white, horizon: .white),
                                   ground: .white, flatShade: 0)
            let ray = caster.cast(200, 150)
            let d = try #require(ray.distance)
            return caster.texelAt(projection.eye + ray.dir * d, along: ray.dir, distance: d, imagery).z
        }
        let down = try centreLevel(tilt: 0, drawn), tilted = try centreLevel(tilt: 60, drawn)
        #expect(abs(tilted - down) < 0.01, "straight down \(down), at 60° \(tilted)")
        // cos 60° = 1/2: the stretched footprint is twice the area, half a level.
        let photoDown = try centreLevel(tilt: 0, photo), photoTilted = try centreLevel(tilt: 60, photo)
        #expect(abs(photoTilted - photoDown - 0.5) < 0.01, "straight down \(photoDown), at 60° \(photoTilted)")
    }

    /// Drawn tiles are read at the level nearest a pixel's: a texel at most √2 of a pixel either
    /// way, and a view at a whole zoom gets that zoom despite the per-pixel estimate's spread
    /// (the sphere's curvature across a wide view, the corners' cos³). (It read the coarser
    /// unless within 0.3 of the finer: 0.5 read the coarser.)
    @Test func drawnTilesAreReadAtTheNearestLevel() {
        let cases: [(Double, Int)] = [(0, 0), (0.3, 0), (0.5, 0), (0.55, 1), (1, 1), (2.6, 3), (3.05, 3), (3.45, 3), (3.55, 4), (40, 30)]
        for (level, expected) in cases {
            #expect(TileImagery.drawnLevel(level, deepest: 30) == expected, "level \(level)")
        }
    }

    /// A terrain triangle's footprint: the finer axis of its screen-to-texel map, squared (a
    /// view slanted along y stretches texels twice along y: the finer axis is x's, 1 texel a
    /// pixel, where the area's square root said √2).
    @Test func aTrianglesFinerAxis() {
        let stretched = TerrainRenderer.finerAxisSquared(SIMD2(0, 0), SIMD2(1, 0), SIMD2(0, 2), screen: (0, 0, 1), (1, 0, 1), (0, 1, 1), ratio: 2)
        #expect(abs(stretched - 1) < 1e-9)
        // Turned 30° on the screen and scaled 3× evenly: both axes 3, squared 9.
        let c = cos(Double.pi / 6), s = sin(Double.pi / 6)
        let turned = TerrainRenderer.finerAxisSquared(SIMD2(0, 0), SIMD2(Float(3 * c), Float(3 * s)), SIMD2(Float(-3 * s), Float(3 * c)),
                                                      screen: (0, 0, 1), (1, 0, 1), (0, 1, 1), ratio: 9)
        #expect(abs(turned - 9) < 1e-4)
        // A degenerate screen triangle keeps the area's answer.
        #expect(TerrainRenderer.finerAxisSquared(SIMD2(0, 0), SIMD2(1, 0), SIMD2(0, 1), screen: (0, 0, 1), (1, 1, 1), (2, 2, 1), ratio: 5) == 5)
    }

    /// A drawn map: every tile one flat colour.
    struct PlainDrawer: TileDrawer {
        var name: String { "plain" }
        var attribution: String? { nil }
        var tileSize: Int { 256 }
        var minZoom: Int { 0 }
        var maxZoom: Int { 18 }
        func draw(_ id: TileID) throws -> Pixmap? { Pixmap(width: 256, height: 256) }
    }
}
