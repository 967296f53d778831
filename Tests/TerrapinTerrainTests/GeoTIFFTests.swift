import Testing
@testable import TerrapinTerrain
import TerrapinCodecs
import TerrapinIO

let geotiffs = "Fixtures/geotiff/"

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
        let imagery = try GeoTIFF.imagery(geotiffs + "naip-klamath-cog.tif")
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
        // Imagery is read in EPSG:4326 and 3857 only: a typed error naming the CRS.
        #expect { _ = try GeoTIFF.imagery(file) } throws: { "\($0)".contains("EPSG:32631") }
    }

    @Test func notGeoTIFFsAreTypedErrors() throws {
        #expect(throws: TerrainError.self) { try GeoTIFF.info("Fixtures/terrain/jacksboro-fault-tn.asc") }
        #expect(throws: TerrainError.self) { try GeoTIFF.info("Fixtures/no-such.tif") }
    }

    @Test func stripsOrTilesOverTheBlockLimitAreRefusedBeforeTheyAreAllocated() throws {
        // 388 bytes declaring a small image in strips of 156 MB (found by make fuzz: libtiff
        // allocated the strip before reading it).
        let file = "Fixtures/regressions/geotiff/oom-huge-strip.tif"
        #expect { _ = try GeoTIFF.heightGrid(file) } throws: { "\($0)".contains("more than the 64 MiB Terrapin reads at once") }
        #expect { _ = try GeoTIFF.imagery(file) } throws: { "\($0)".contains("more than the 64 MiB Terrapin reads at once") }
    }
}

@Suite struct ZippedHGTTests {
    /// N42E001.hgt.zip (the SRTM tile with its 7,652 voids, zipped by Python's zipfile): read
    /// directly, every void filled from its neighbours, heights as in the GeoTIFF made from it.
    @Test func zippedSRTMWithVoidsFilled() throws {
        let grid = try GridLoader.load("Fixtures/terrain/N42E001.hgt.zip")
        #expect(grid.columns == 1201 && grid.rows == 1201 && grid.westCentre == 1 && grid.southCentre == 42)
        #expect(!grid.samples.contains { $0.isNaN })
        let tif = try GeoTIFF.heightGrid(geotiffs + "andorra-srtm3.tif")
        for (lat, lon) in [(42.5063, 1.5218), (42.5918, 1.4442), (42.45, 1.70)] {
            let a = try #require(grid.height(latitude: lat, longitude: lon)), b = try #require(tif.height(latitude: lat, longitude: lon))
            #expect(abs(a - b) < 3, "\(lat), \(lon): \(a) vs \(b)")
        }
        // A truncated archive and one without an .hgt are typed errors.
        let bytes = try FileIO.read("Fixtures/terrain/N42E001.hgt.zip", limit: 1 << 23)
        #expect(throws: CodecError.self) { try Zip.member(endingWith: ".hgt", in: Array(bytes.prefix(100_000)), limit: 1 << 25, source: "cut") }
        #expect(throws: CodecError.self) { try Zip.member(endingWith: ".asc", in: bytes, limit: 1 << 25, source: "zip") }
        #expect(throws: CodecError.self) { try Zip.member(endingWith: ".hgt", in: bytes, limit: 1000, source: "zip") }
    }
}
