import Testing
import TerrapinTestSupport
@testable import TerrapinImagery
@testable import TerrapinTerrainData
import TerrapinCodecs
import TerrapinIO
import TerrapinTiles
import Foundation

let geotiffs = Repository.fixtures + "/geotiff/"

@Suite struct GeoTIFFTests {
    /// Georeferencing against gdalinfo: origin (1.349583333, 42.720416667), pixel 0.000833333°,
    /// lower right (1.8495833, 42.3804167), nodata −32768, 600 × 408.
    @Test func andorraDEMGeoreferencingMatchesGDAL() throws {
        let info = try GeoTIFF.info(geotiffs + "andorra-srtm3.tif")
        #expect(info.width == 600 && info.height == 408 && info.epsg == 4326 && info.nodata == -32768)
        #expect(info.tileWidth == 256 && info.bitsPerSample == 16 && info.sampleFormat == 2 && info.compression == 8)
        for (a, b) in zip(info.bounds, [1.3495833, 42.3804167, 1.8495833, 42.7204167]) { #expect(abs(a - b) < 1e-6, "\(info.bounds)") }
        #expect(abs(info.pixelSize.x - 0.000833333333333) < 1e-12)
        // Heights against the SRTM .hgt they came from (bilinear there: 1017.4, 2891.9 m).
        let grid = try GeoTIFF.heightGrid(geotiffs + "andorra-srtm3.tif")
        #expect(grid.columns == 600 && grid.rows == 408)
        let vella = try #require(grid.height(latitude: 42.5063, longitude: 1.5218))
        let peak = try #require(grid.height(latitude: 42.5918, longitude: 1.4442))
        #expect(abs(vella - 1017.4) < 15 && abs(peak - 2891.9) < 15, "\(vella) \(peak)")
        #expect(try GridLoader.load(geotiffs + "andorra-srtm3.tif").columns == 600)
    }

    /// The NAIP COG: EPSG:3857 metres (origin −13508563.1348, 5156747.6762; pixel 0.597164 m),
    /// BigTIFF, LZW, two overviews, RGBA.
    @Test func naipImageryGeoreferencingMatchesGDAL() throws {
        let info = try GeoTIFF.info(geotiffs + "naip-klamath-cog.tif")
        #expect(info.width == 1024 && info.height == 2048 && info.epsg == 3857 && info.compression == 5 && info.directories >= 3)
        for (a, b) in zip(info.bounds, [-121.349487262, 41.963574785, -121.343994100, 41.971743362]) { #expect(abs(a - b) < 1e-7, "\(info.bounds)") }
        let imagery = try GeoTIFF.imagery(geotiffs + "naip-klamath-cog.tif", wholeImage: true)
        #expect(imagery.projection == .webMercator && imagery.width == 1024)
        let centre = try #require(imagery.sample(x: 512, y: 1024, level: 0))
        #expect(centre.w == 255)
        // The file holds a narrow strip of imagery (alpha 0 elsewhere; gdalinfo -stats: band 4
        // mean 4.96 of 255), about columns 496–544 and rows 132–1040, as GDAL draws it.
        var opaque = 0
        for y in stride(from: 0.5, to: 2048, by: 64) { for x in stride(from: 0.5, to: 1024, by: 64) where imagery.sample(x: x, y: y, level: 0)?.w == 255 { opaque += 1 } }
        #expect(opaque > 5 && opaque < 30, "\(opaque) of 512 samples opaque")
        #expect(imagery.sample(x: 512, y: 600, level: 0)?.w == 255)
        #expect(imagery.sample(x: 100, y: 600, level: 0)?.w == 0 && imagery.sample(x: 512, y: 1500, level: 0)?.w == 0)
    }

    /// The same relief in UTM zone 31N (EPSG:32631, made by gdalwarp at 90 m): gdalinfo gives
    /// origin (364131.788, 4731088.880) m, pixel 90 m, 463 × 427, corners 1°20'26.17"E 42°43'13.03"N
    /// (upper left) to 1°51'20.69"E 42°22'49.82"N (lower right). Read through PROJ onto
    /// longitude/latitude; heights as gdallocationinfo reads the UTM file (nearest pixel: 1010,
    /// 2554, 2885, 2320 m) and near the EPSG:4326 original's.
    @Test func utmDEMIsReprojectedThroughPROJ() throws {
        let file = geotiffs + "andorra-srtm3-utm31n.tif"
        let info = try GeoTIFF.info(file)
        #expect(info.epsg == 32631 && info.width == 463 && info.height == 427)
        let projected = try #require(info.projected)
        #expect(abs(projected.origin.x - 364131.788) < 1e-3 && abs(projected.origin.y - 4731088.880) < 1e-3 && projected.size.x == 90)
        // The bounds hold the four corners (to gdalinfo's 0.01″ rounding; west 1°20'26.17", south 42°22'27.62", east 1°51'20.69", north 42°43'35.51").
        let corners = [1.340603, 42.374339, 1.855747, 42.726531]
        #expect(info.bounds[0] <= corners[0] + 1e-5 && info.bounds[1] <= corners[1] + 1e-5 && info.bounds[2] >= corners[2] - 1e-5 && info.bounds[3] >= corners[3] - 1e-5, "\(info.bounds)")
        for (a, b) in zip(info.bounds, corners) { #expect(abs(a - b) < 0.002, "\(info.bounds)") }
        let grid = try GeoTIFF.heightGrid(file)
        let original = try GeoTIFF.heightGrid(geotiffs + "andorra-srtm3.tif")
        #expect(grid.columns == 463 && grid.rows == 427 && !grid.samples.contains { $0.isNaN })
        for (lat, lon, gdal) in [(42.5063, 1.5218, 1010.0), (42.5839, 1.5736, 2554), (42.5917, 1.4442, 2885), (42.45, 1.65, 2320)] {
            let h = try #require(grid.height(latitude: lat, longitude: lon))
            let o = try #require(original.height(latitude: lat, longitude: lon))
            #expect(abs(h - gdal) < 30 && abs(h - o) < 40, "\(lat), \(lon): \(h) vs gdal \(gdal), original \(o)")
        }
        // Imagery in it is reprojected as it is drawn; it cannot be read whole (it is not in
        // longitude/latitude or Web Mercator).
        #expect(try GeoTIFF.imagery(file).tiles != nil)
    }

    /// The NAIP COG read block by block: three levels (the image and two overviews, GDAL's
    /// 512 × 1024 and 256 × 512), zooms 18 (0.597 m pixels) down to 16; a tile over the strip of
    /// data at zoom 18 decodes only full-resolution blocks, a few; one at zoom 16 only the
    /// coarsest overview's. The pixels drawn match the whole image's, sampled where they fall.
    @Test func cloudOptimisedGeoTIFFIsReadBlockByBlockFromItsOverviews() throws {
        let file = geotiffs + "naip-klamath-cog.tif"
        let cog = try GeoTIFFTiles(file)
        #expect(cog.levels.map(\.width) == [1024, 512, 256] && cog.levels.map(\.directory) == [0, 1, 2])
        #expect(cog.maxZoom == 18 && cog.minZoom == 16, "\(cog.minZoom)…\(cog.maxZoom)")
        let whole = try GeoTIFF.imagery(file, wholeImage: true)
        // The strip's middle (pixel 520, 600 of the image).
        let lon = whole.west + (whole.east - whole.west) * 520 / 1024
        let mercatorY = 5156747.6762 - 600.5 * 0.597164283
        let lat = atan(sinh(mercatorY / 6_378_137)) * 180 / Double.pi
        let id = TileID.containing(longitude: lon, latitude: lat, zoom: 18)
        let tile = try #require(try cog.draw(id))
        let (decoded, perLevel) = cog.blocksDecoded
        #expect(decoded >= 1 && decoded <= 4 && perLevel.keys.sorted() == [0], "\(perLevel)")
        // Tile pixels against the whole image at the same place (both bilinear; the tile's
        // pixels are 0.597 m, the image's too, offset by a fraction).
        var compared = 0, off = 0.0
        for j in stride(from: 8, to: 256, by: 16) {
            for i in stride(from: 8, to: 256, by: 16) {
                let n = Double(1 << 18)
                let tx = (Double(id.x * 256 + i) + 0.5) / (n * 256), ty = (Double(id.y * 256 + j) + 0.5) / (n * 256)
                let px = (tx * 360 - 180 - whole.west) / (whole.east - whole.west) * 1024
                let my = (0.5 - ty) * 2 * Double.pi * 6_378_137
                let py = (5156747.6762 - my) / 0.597164283
                guard let w = whole.sample(x: px, y: py, level: 0), w.w == 255 else { continue }
                let t = tile[i, j]
                guard t.alpha == 255 else { continue }
                compared += 1
                off += (abs(Double(t.red) - Double(w.x)) + abs(Double(t.green) - Double(w.y)) + abs(Double(t.blue) - Double(w.z))) / 3
            }
        }
        #expect(compared > 20 && off / Double(compared) < 6, "\(compared) pixels, mean difference \(off / Double(max(1, compared)))")
        // Far out: the coarsest overview alone.
        _ = try cog.draw(TileID.containing(longitude: lon, latitude: lat, zoom: 16))
        #expect(cog.blocksDecoded.perLevel.keys.sorted() == [0, 2], "\(cog.blocksDecoded.perLevel)")
        // Outside the image: nothing, and nothing read.
        #expect(try cog.draw(TileID.containing(longitude: lon + 0.1, latitude: lat, zoom: 18)) == nil)
    }

    /// The same imagery in UTM zone 10N (gdalwarp, 0.6 m) drawn through PROJ: tile pixels match
    /// the Web Mercator original's at the same places; the lattice interpolation of PROJ's
    /// transformation is within a hundredth of a pixel of transforming every pixel.
    @Test func utmImageryIsReprojectedAsItIsDrawn() throws {
        let utm = try GeoTIFFTiles(geotiffs + "naip-klamath-utm10n.tif")
        let mercator = try GeoTIFFTiles(geotiffs + "naip-klamath-cog.tif")
        #expect(utm.info.epsg == 32610 && utm.levels.count == 3 && utm.maxZoom == 18, "\(utm.maxZoom)")
        let lon = -121.346585, lat = 41.96995
        var compared = 0, off = 0.0
        for zoom in [17, 18] {
            let id = TileID.containing(longitude: lon, latitude: lat, zoom: zoom)
            let a = try #require(try utm.draw(id)), b = try #require(try mercator.draw(id))
            for j in stride(from: 2, to: 256, by: 4) {
                for i in stride(from: 2, to: 256, by: 4) {
                    let p = a[i, j], q = b[i, j]
                    guard p.alpha == 255, q.alpha == 255 else { continue }
                    compared += 1
                    off += (abs(Double(p.red) - Double(q.red)) + abs(Double(p.green) - Double(q.green)) + abs(Double(p.blue) - Double(q.blue))) / 3
                }
            }
        }
        #expect(compared > 300 && off / Double(compared) < 6, "\(compared) pixels, mean difference \(off / Double(max(1, compared)))")
        // The lattice against PROJ at every pixel of a tile.
        let reprojection = try Reprojection(epsg: 32610, file: "test")
        let id = TileID.containing(longitude: lon, latitude: lat, zoom: 18)
        let metres = 2 * Double.pi * 6_378_137 / (Double(1 << 18) * 256)
        var xs: [Double] = [], ys: [Double] = []
        for j in 0..<256 {
            for i in 0..<256 {
                xs.append((Double(id.x * 256 + i) + 0.5) * metres - Double.pi * 6_378_137)
                ys.append(Double.pi * 6_378_137 - (Double(id.y * 256 + j) + 0.5) * metres)
            }
        }
        var lx = xs, ly = ys
        GeoTIFFTiles.reproject(&lx, &ly, size: 256, through: reprojection)
        var ex = xs.map { $0 / 6_378_137 * 180 / Double.pi }, ey = ys.map { atan(sinh($0 / 6_378_137)) * 180 / Double.pi }
        reprojection.transform(&ex, &ey, forward: false)
        let worst = zip(zip(lx, ly), zip(ex, ey)).map { max(abs($0.0 - $1.0), abs($0.1 - $1.1)) }.max() ?? .infinity
        #expect(worst < 0.006, "\(worst) m off (pixels of 0.6 m)")
    }

    @Test func notGeoTIFFsAreTypedErrors() throws {
        #expect(throws: TerrainError.self) { try GeoTIFF.info(Repository.fixtures + "/terrain/jacksboro-fault-tn.asc") }
        #expect(throws: TerrainError.self) { try GeoTIFF.info(Repository.fixtures + "/no-such.tif") }
    }

    @Test func stripsOrTilesOverTheBlockLimitAreRefusedBeforeTheyAreAllocated() throws {
        // 388 bytes declaring a small image in strips of 156 MB (found by make fuzz: libtiff
        // allocated the strip before reading it).
        let file = Repository.fixtures + "/regressions/geotiff/oom-huge-strip.tif"
        #expect { _ = try GeoTIFF.heightGrid(file) } throws: { "\($0)".contains("more than the 64 MiB Terrapin reads at once") }
        #expect { _ = try GeoTIFF.imagery(file) } throws: { "\($0)".contains("more than the 64 MiB Terrapin reads at once") }
    }
}

@Suite struct ZippedHGTTests {
    /// N42E001.hgt.zip (the SRTM tile with its 7,652 voids, zipped by Python's zipfile): read
    /// directly, every void filled from its neighbours, heights as in the GeoTIFF made from it.
    @Test func zippedSRTMWithVoidsFilled() throws {
        let grid = try GridLoader.load(Repository.fixtures + "/terrain/N42E001.hgt.zip")
        #expect(grid.columns == 1201 && grid.rows == 1201 && grid.westCentre == 1 && grid.southCentre == 42)
        #expect(!grid.samples.contains { $0.isNaN })
        let tif = try GeoTIFF.heightGrid(geotiffs + "andorra-srtm3.tif")
        for (lat, lon) in [(42.5063, 1.5218), (42.5918, 1.4442), (42.45, 1.70)] {
            let a = try #require(grid.height(latitude: lat, longitude: lon)), b = try #require(tif.height(latitude: lat, longitude: lon))
            #expect(abs(a - b) < 3, "\(lat), \(lon): \(a) vs \(b)")
        }
        // A truncated archive and one without an .hgt are typed errors.
        let bytes = try FileIO.read(Repository.fixtures + "/terrain/N42E001.hgt.zip", limit: 1 << 23)
        #expect(throws: CodecError.self) { try Zip.member(endingWith: ".hgt", in: Array(bytes.prefix(100_000)), limit: 1 << 25, source: "cut") }
        #expect(throws: CodecError.self) { try Zip.member(endingWith: ".asc", in: bytes, limit: 1 << 25, source: "zip") }
        #expect(throws: CodecError.self) { try Zip.member(endingWith: ".hgt", in: bytes, limit: 1000, source: "zip") }
    }
}
