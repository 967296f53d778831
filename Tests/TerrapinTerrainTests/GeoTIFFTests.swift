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
