// The same Monaco basemap in the three vector-tile schemas (OpenMapTiles, Protomaps Basemap v4,
// Shortbread 1.0), each drawn by the built-in roadmap with no style named: the scenes are files
// under Fixtures/basemap/schemas/, a folder of cases (FixtureCasesTests renders each against
// its golden beside it: looked at side by side, the same streets, port, parks and place names,
// Shortbread's buildings flat since it has no heights). Here: what the pixels add up to.
import Testing
@testable import Terrapin
import TerrapinTestSupport

@Suite struct TileSchemaTests {
    func scene(_ schema: String) throws -> PreparedScene {
        try PreparedScene(try SceneDecoder.load(path: Repository.fixture("basemap/schemas/monaco-\(schema).json")))
    }

    @Test(arguments: ["omt", "protomaps", "shortbread"])
    func theBuiltInRoadmapReadsEverySchema(_ schema: String) throws {
        let prepared = try scene(schema)
        let resolved = try #require(try prepared.resolve())
        // Roads (white and yellow), water and place names are there whatever the schema.
        let shown = resolved.labels.filter(\.isShown).map(\.name)
        #expect(shown.contains("Monte-Carlo"), "\(shown)")
        #expect(shown.count >= 30, "\(shown.count) labels")
        #expect(prepared.warnings().isEmpty, "\(prepared.warnings())")
        let image = try prepared.render()
        var yellow = 0, white = 0, water = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y], r = Int(p.red), g = Int(p.green), b = Int(p.blue)
                if r > 230, g > 180, b < 180 { yellow += 1 }
                if r >= 250, g >= 250, b >= 250 { white += 1 }
                if b > 200, b > r + 50 { water += 1 }
            }
        }
        let pixels = image.width * image.height
        #expect(yellow > pixels / 25, "major roads: \(yellow) of \(pixels) pixels")
        #expect(white > pixels / 25, "minor roads: \(white)")
        #expect(water > pixels / 8, "the port and the sea: \(water)")
    }

    /// A style written for one schema over tiles of another draws nothing of them: a warning
    /// says so and what to do, instead of an empty map without a word.
    @Test func aStyleForAnotherSchemaIsWarnedAbout() throws {
        let tiles = try TileSources.open(Repository.fixture("tiles/monaco-protomaps.pmtiles"))
        let omtStyle = try #require(BasemapStyle.builtin("roadmap"))
        let basemap = try Basemap(style: omtStyle, tiles: tiles, open: { try TileSources.open($0) })
        let warning = try #require(basemap.warnings.first { $0.contains("nothing of it is drawn") })
        #expect(warning.hasPrefix("source 'openmaptiles': the style reads layers aeroway, boundary, building, landcover, … (the openmaptiles schema), but '"), "\(warning)")
        #expect(warning.contains("monaco-protomaps.pmtiles' holds boundaries, buildings, earth, landuse, … (the protomaps schema); little or nothing of it is drawn"), "\(warning)")
        let matching = try Basemap(style: try #require(BasemapStyle.builtin("roadmap", schema: .protomaps)), tiles: tiles, open: { try TileSources.open($0) })
        #expect(matching.warnings.isEmpty, "\(matching.warnings)")
    }
}
