// Maps from tile archives (Fixtures/tiles): what their display lists say, and the UTM GeoTIFF
// against its Web Mercator original. (Their pixels are the examples' goldens, walked by
// FixtureCasesTests.)
import Testing
@testable import Terrapin
import TerrapinSnapshotTesting

@Suite struct TileGoldenTests {
    /// Andorra in 3D from the Terrain-RGB tiles names the tiles' attribution.
    @Test func andorraFromTerrainTilesNamesItsSource() throws {
        let resolved = try PreparedScene(try SceneDecoder.load(path: "\(examples)/andorra-3d.json")).resolve()
        #expect(resolved?.displayList.contains("attribution \"SRTM data courtesy of NASA / USGS\"") == true)
    }

    /// The same imagery in UTM zone 10N, reprojected through PROJ as it is drawn, renders the
    /// straight-down view as the Web Mercator original does (the two files were resampled
    /// differently by gdalwarp: small differences, no offset).
    @Test func utmImageryRendersAsTheWebMercatorOriginal() throws {
        var scene = try SceneDecoder.load(path: "\(examples)/naip-straight-down.json")
        let original = try PreparedScene(scene).render()
        scene.map?.imagery?.file = "../Fixtures/geotiff/naip-klamath-utm10n.tif"
        let utm = try PreparedScene(scene).render()
        var opaque = 0, off = 0.0, differ = 0
        for y in 0..<original.height {
            for x in 0..<original.width {
                let a = original[x, y], b = utm[x, y]
                let d = (abs(Double(a.red) - Double(b.red)) + abs(Double(a.green) - Double(b.green)) + abs(Double(a.blue) - Double(b.blue))) / 3
                off += d
                if d > 40 { differ += 1 }
                opaque += 1
            }
        }
        #expect(off / Double(opaque) < 2 && differ < opaque / 100, "mean difference \(off / Double(opaque)), \(differ) pixels over 40")
    }

    /// Without an "attribution" the sources' own is drawn; `false` draws none.
    @Test func attributionComesFromTheSourcesUnlessTurnedOff() throws {
        func list(_ extra: String) throws -> String {
            let json = #"{"output": {"width": 200, "height": 100}, "map": {"mode": "satellite", "camera": {"center": {"latitude": 42.53, "longitude": 1.58}, "range": 20000}, "terrain": {"tiles": "../Fixtures/tiles/andorra-terrainrgb-z8-12.pmtiles"}"# + extra + "}}"
            return try PreparedScene(try SceneDecoder.decode(Array(json.utf8), path: "\(examples)/a.json")).resolve()?.displayList ?? ""
        }
        #expect(try list("").contains("attribution \"SRTM 3 arc-second v2.1 (NASA/USGS, public domain), voids filled\""))
        #expect(try !list(#", "attribution": false"#).contains("attribution"))
    }

    /// A scene with tiles written out and read back names the same archives.
    @Test func tileScenesRoundTrip() throws {
        let scene = try SceneDecoder.load(path: "\(examples)/whitney-topo.json")
        let again = try SceneDecoder.decode(Array(SceneEncoder.encode(scene).utf8), path: "\(examples)/whitney-topo.json")
        #expect(again.map?.imagery == scene.map?.imagery && again.map?.attribution == "USGS")
        #expect(SceneEncoder.encode(scene).contains(#""tiles": "../Fixtures/tiles/usgs-mt-whitney-topo-webp-z8-15.pmtiles""#))
    }
}
