// Remote sources end to end, against a real server on 127.0.0.1 holding the Fixtures archives:
// a PMTiles archive read by ranges, XYZ tiles through TileJSON, and whole scenes whose
// basemap, terrain and style are URLs — each the same tiles and the same bytes as the local
// files, with faults drawn as missing tiles and warnings, and --offline from a warm cache.
import XCTest
import Terrapin
import TerrapinTestSupport
@testable import TerrapinNet
@testable import TerrapinTiles

final class RemoteSourceTests: XCTestCase {
    var folder = ""
    var cacheFolder = ""
    let tiles = Repository.fixture("tiles")

    override func setUp() {
        folder = NSTemporaryDirectory() + "terrapin-remote-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        cacheFolder = folder + "/cache"
        try? FileManager.default.createDirectory(atPath: folder + "/site", withIntermediateDirectories: true)
        useClient()
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: folder)
        HTTPClient.useShared(HTTPClient.Configuration())
    }

    func useClient(offline: Bool = false, retries: Int = 1) {
        var c = HTTPClient.Configuration()
        c.cacheDirectory = cacheFolder
        c.offline = offline
        c.retries = retries
        c.retryDelay = 0.01
        c.timeout = 10
        HTTPClient.useShared(c)
    }

    /// Every tile of zooms `zooms` over the archive's bounds.
    func ids(_ source: any TileSource, _ zooms: ClosedRange<Int>) -> [TileID] {
        let b = source.info.bounds ?? [-180, -85, 180, 85]
        return zooms.flatMap { z -> [TileID] in
            let nw = TileID.containing(longitude: b[0], latitude: b[3], zoom: z), se = TileID.containing(longitude: b[2], latitude: b[1], zoom: z)
            return (nw.y...se.y).flatMap { y in (nw.x...se.x).map { TileID(z: z, x: $0, y: y) } }
        }
    }

    func testPMTilesByRangeMatchesTheFile() throws {
        let server = try TestHTTPServer(root: tiles)
        for name in ["monaco-omt.pmtiles", "andorra-terrainrgb-z8-12.pmtiles"] {
            server.clearLog()
            let local = try TileSources.open(tiles + "/" + name)
            let remote = try TileSources.open(server.base + "/" + name)
            XCTAssertEqual(remote.info, local.info)
            XCTAssertEqual(server.log.count, 1, "header and root directory in one request")
            XCTAssertEqual(server.log.first?.range, "bytes=0-16383")
            for id in ids(local, local.info.minZoom...min(local.info.maxZoom, local.info.minZoom + 3)) {
                XCTAssertEqual(try remote.tile(id), try local.tile(id), "\(name) \(id)")
            }
        }
    }

    func testServerIgnoringRangesStillServesASmallArchive() throws {
        let server = try TestHTTPServer(root: tiles)
        server.setFault(.ignoreRange, for: "/monaco-omt.pmtiles")
        let local = try TileSources.open(tiles + "/monaco-omt.pmtiles")
        let remote = try TileSources.open(server.base + "/monaco-omt.pmtiles")
        for id in ids(local, 12...14) { XCTAssertEqual(try remote.tile(id), try local.tile(id)) }
        XCTAssertEqual(server.log.count, 1, "the whole file, once, kept")
    }

    func testTileJSONAndXYZTemplates() throws {
        let server = try TestHTTPServer(root: folder + "/site")
        let local = try TileSources.open(tiles + "/monaco-omt.pmtiles")
        // The archive's tiles as a folder of {z}/{x}/{y}.pbf files, and a TileJSON naming them.
        let all = ids(local, 0...14)
        for id in all {
            guard let bytes = try local.tile(id) else { continue }
            try FileManager.default.createDirectory(atPath: folder + "/site/xyz/\(id.z)/\(id.x)", withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: folder + "/site/xyz/\(id.z)/\(id.x)/\(id.y).pbf", contents: Data(bytes))
        }
        let tileJSON = """
            {"tilejson": "3.0.0", "tiles": ["xyz/{z}/{x}/{y}.pbf"], "minzoom": 0, "maxzoom": 14,
             "bounds": [7.40, 43.72, 7.44, 43.76], "attribution": "<a href=\\"https://openmaptiles.org/\\">&copy; OpenMapTiles</a>", "vector_layers": []}
            """
        _ = FileManager.default.createFile(atPath: folder + "/site/monaco.json", contents: Data(tileJSON.utf8))
        let remote = try TileSources.open(server.base + "/monaco.json")
        XCTAssertEqual(remote.info, TileSourceInfo(type: .mvt, minZoom: 0, maxZoom: 14, bounds: [7.40, 43.72, 7.44, 43.76], attribution: "© OpenMapTiles"))
        for id in all { XCTAssertEqual(try remote.tile(id), try local.tile(id), "\(id)") }
        // Past the TileJSON's zooms, and where the server has no tile: none, without a request.
        server.clearLog()
        XCTAssertNil(try remote.tile(TileID(z: 15, x: 0, y: 0)))
        XCTAssertEqual(server.log.count, 0)
        XCTAssertNil(try remote.tile(TileID(z: 3, x: 0, y: 0)))
        XCTAssertEqual(server.log.map(\.path), ["/xyz/3/0/0.pbf"])
        // 204 No Content is no tile too.
        server.setFault(.noContent, for: "/xyz/14/8530/5968.pbf")
        XCTAssertNil(try remote.tile(TileID(z: 14, x: 8530, y: 5968)))
        // A template straight, with TMS rows and quadkeys.
        let tms = try RemoteXYZTiles(templates: ["http://h/{z}/{x}/{-y}.png", "http://{s}.h/{quadkey}.png"], access: .anyHost, client: .shared)
        XCTAssertEqual(tms.url(TileID(z: 3, x: 2, y: 2)), "http://h/3/2/5.png")
        XCTAssertEqual(tms.url(TileID(z: 3, x: 3, y: 2)), "http://c.h/031.png")
        XCTAssertEqual(tms.info.type, .png)
    }

    /// Imagery from XYZ tiles named by a TileJSON draws what the archive they came from draws.
    func testImageryFromTileJSONRendersTheSameBytes() throws {
        let local = try TileSources.open(tiles + "/usgs-mt-whitney-topo-webp-z8-15.pmtiles")
        let site = folder + "/site"
        for id in ids(local, local.info.minZoom...local.info.maxZoom) {
            guard let bytes = try local.tile(id) else { continue }
            try FileManager.default.createDirectory(atPath: site + "/topo/\(id.z)/\(id.x)", withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: site + "/topo/\(id.z)/\(id.x)/\(id.y).webp", contents: Data(bytes))
        }
        let info = local.info
        let bounds = (info.bounds ?? []).map { String($0) }.joined(separator: ", ")
        let tileJSON = #"{"tilejson": "3.0.0", "tiles": ["topo/{z}/{x}/{y}.webp"], "minzoom": \#(info.minZoom), "maxzoom": \#(info.maxZoom), "bounds": [\#(bounds)]\#(info.attribution.map { ", \"attribution\": \"\($0)\"" } ?? "")}"#
        _ = FileManager.default.createFile(atPath: site + "/topo.json", contents: Data(tileJSON.utf8))
        let server = try TestHTTPServer(root: site)
        let remote = try TileSources.open(server.base + "/topo.json")
        var named = remote.info
        named.name = info.name
        XCTAssertEqual(named, info)
        let scene = try remoteScene("whitney-topo.json", [("../Fixtures/tiles/usgs-mt-whitney-topo-webp-z8-15.pmtiles", server.base + "/topo.json")])
        let expected = try PreparedScene(try SceneDecoder.load(path: Repository.examples + "/whitney-topo.json")).render()
        XCTAssertEqual(try PreparedScene(scene).render().data, expected.data)
        XCTAssertTrue(server.log.contains { $0.path.hasSuffix(".webp") })
    }

    func testFaultsGiveTheirDocumentedResults() throws {
        let server = try TestHTTPServer(root: tiles)
        let local = try TileSources.open(tiles + "/monaco-omt.pmtiles")
        let remote = try TileSources.open(server.base + "/monaco-omt.pmtiles")
        let id = TileID.containing(longitude: 7.4246, latitude: 43.7384, zoom: 14)
        let next = TileID(z: 14, x: id.x + 1, y: id.y)
        XCTAssertNotNil(try local.tile(id))
        // A 500 that persists: the tile read throws a typed error naming the URL and status.
        server.setFault(.status(500, times: 10), for: "/monaco-omt.pmtiles")
        XCTAssertThrowsError(try remote.tile(id)) { error in
            guard case .remote(.status(let url, 500, 2)) = error as? TileError else { return XCTFail("\(error)") }
            XCTAssertEqual(url, server.base + "/monaco-omt.pmtiles")
        }
        server.setFault(nil, for: "/monaco-omt.pmtiles")
        // The file changed under us (a range answered with the wrong length).
        server.setFault(.truncate(bytes: 3), for: "/monaco-omt.pmtiles")
        XCTAssertThrowsError(try remote.tile(next))
        server.setFault(nil, for: "/monaco-omt.pmtiles")
        XCTAssertEqual(try remote.tile(next), try local.tile(next))
        // A 404 for the archive itself.
        XCTAssertThrowsError(try TileSources.open(server.base + "/nothing.pmtiles")) { error in
            XCTAssertEqual(error as? TileError, .remote(.status(url: server.base + "/nothing.pmtiles", code: 404, attempts: 1)))
            XCTAssertTrue(String(describing: error).hasSuffix("answered HTTP 404; check the URL"), "\(error)")
        }
        // Not a TileJSON document.
        XCTAssertThrowsError(try TileSources.open(server.base + "/README.md")) { error in
            guard case .corrupt(_, let what) = error as? TileError else { return XCTFail("\(error)") }
            XCTAssertTrue(what.contains("is not a TileJSON document"), what)
        }
        // MBTiles cannot be read by ranges.
        XCTAssertThrowsError(try TileSources.open(server.base + "/andorra-omt.mbtiles"))
        // A host the render may not read.
        XCTAssertThrowsError(try TileSources.open(server.base + "/monaco-omt.pmtiles", files: FileAccess.unrestricted.with(network: .none))) { error in
            guard case .remote(.notAllowed) = error as? TileError else { return XCTFail("\(error)") }
        }
    }

    /// `scene`'s text with each local archive named by URL instead.
    func remoteScene(_ example: String, _ replacements: [(String, String)]) throws -> SceneFile {
        var text = try String(contentsOfFile: Repository.examples + "/" + example, encoding: .utf8)
        for (from, to) in replacements {
            XCTAssertTrue(text.contains(from), from)
            text = text.replacingOccurrences(of: from, with: to)
        }
        return try SceneDecoder.decode(Array(text.utf8), path: Repository.examples + "/" + example)
    }

    func testARemoteSceneRendersTheSameBytesAsTheLocalOne() throws {
        let server = try TestHTTPServer(root: tiles)
        let local = try PreparedScene(try SceneDecoder.load(path: Repository.examples + "/andorra-roadmap-3d.json")).render()
        let remoteScene = try remoteScene("andorra-roadmap-3d.json", [
            ("../Fixtures/tiles/andorra-terrainrgb-z8-12.pmtiles", server.base + "/andorra-terrainrgb-z8-12.pmtiles"),
            ("../Fixtures/tiles/andorra-omt.pmtiles", server.base + "/andorra-omt.pmtiles"),
        ])
        let prepared = try PreparedScene(remoteScene)
        let remote = try prepared.render()
        XCTAssertEqual(remote.data, local.data, "same tiles in, same bytes out")
        XCTAssertEqual(prepared.warnings(), [])
        XCTAssertGreaterThan(server.log.count, 2)
        XCTAssertTrue(server.log.allSatisfy { $0.range != nil }, "archives are read by ranges, never whole")
    }

    func testATileServerThatDiesMidRenderDrawsMissingTilesWithWarnings() throws {
        let server = try TestHTTPServer(root: tiles)
        useClient(retries: 0)
        let url = server.base + "/monaco-protomaps.pmtiles?dies"
        let scene = try remoteScene("monaco-protomaps.json", [("../Fixtures/tiles/monaco-protomaps.pmtiles", url)])
        // The archive's header and root directory reach the download cache; then the server
        // fails every request, so the render opens the archive from the stale copy
        // (stale-if-error) and every tile fails.
        _ = try TileSources.open(url)
        server.setFault(.status(503, times: 1000), for: "/monaco-protomaps.pmtiles")
        let prepared = try PreparedScene(scene)
        _ = try prepared.render()
        let warnings = prepared.warnings()
        XCTAssertTrue(warnings.contains { $0.contains("answered HTTP 503") && $0.contains("the tile is drawn as missing") }, "\(warnings)")
    }
}

/// Every other file a scene names, by URL: a basemap style (its sprite and relative sources
/// resolved against the style's URL), GeoJSON, a glTF model and a height grid.
final class RemoteFilesTests: XCTestCase {
    override func setUp() {
        var c = HTTPClient.Configuration()
        c.retries = 0
        HTTPClient.useShared(c)
    }

    override func tearDown() { HTTPClient.useShared(HTTPClient.Configuration()) }

    /// The scene at `path` (beneath Fixtures/ or Examples/) rendered from its files, and with
    /// each of `names` (as written in it) replaced by its URL on a server of the repository.
    func compare(_ path: String, _ names: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let server = try TestHTTPServer(root: Repository.root)
        let full = Repository.root + "/" + path
        let local = try PreparedScene(try SceneDecoder.load(path: full))
        var text = try String(contentsOfFile: full, encoding: .utf8)
        let folder = (path as NSString).deletingLastPathComponent
        for name in names {
            let url = server.base + "/" + ((folder + "/" + name) as NSString).standardizingPath
            XCTAssertTrue(text.contains("\"\(name)\""), name, file: file, line: line)
            text = text.replacingOccurrences(of: "\"\(name)\"", with: "\"\(url)\"")
        }
        let remote = try PreparedScene(try SceneDecoder.decode(Array(text.utf8), path: full))
        XCTAssertEqual(try remote.render().data, try local.render().data, "same bytes from the server", file: file, line: line)
        XCTAssertEqual(remote.warnings(), local.warnings(), file: file, line: line)
        XCTAssertFalse(server.log.isEmpty, file: file, line: line)
    }

    func testStyleWithItsSpriteByURL() throws {
        try compare("Fixtures/basemap/monaco-icons.json", ["../tiles/monaco-omt.pmtiles", "styles/icons.json"])
    }

    func testModelAndHeightGridByURL() throws {
        try compare("Examples/duck-on-pine-mountain.json", ["../Fixtures/models/Duck.glb", "../Fixtures/terrain/jacksboro-fault-tn.asc"])
    }

    func testGeoJSONByURL() throws {
        let scene = #"{"output": {"width": 320, "height": 240}, "map": {"mode": "roadmap", "camera": {"center": {"latitude": 37.8015, "longitude": -122.401}, "range": 2500}, "geojson": [{"file": "Fixtures/geojson/embarcadero.geojson"}]}}"#
        try scene.write(toFile: Repository.root + "/.geojson-url-test.json", atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: Repository.root + "/.geojson-url-test.json") }
        try compare(".geojson-url-test.json", ["Fixtures/geojson/embarcadero.geojson"])
    }

    /// A scene's own "hosts" narrows what the renderer allows: a host must be on both lists.
    func testASceneListsTheHostsItMayReach() throws {
        let server = try TestHTTPServer(root: Repository.fixture("tiles"))
        func scene(_ hosts: String) throws -> SceneFile {
            let text = #"{"hosts": \#(hosts), "output": {"width": 64, "height": 48}, "map": {"mode": "roadmap", "camera": {"center": {"latitude": 43.7384, "longitude": 7.4246}, "range": 1500}, "basemap": {"tiles": "\#(server.base)/monaco-omt.pmtiles"}}}"#
            return try SceneDecoder.decode(Array(text.utf8), path: "/tmp/scene.json")
        }
        XCTAssertEqual(try scene(#"["127.0.0.1", ".Example.org"]"#).hosts, ["127.0.0.1", ".example.org"])
        XCTAssertNoThrow(try PreparedScene(try scene(#"["127.0.0.1"]"#)))
        XCTAssertNoThrow(try PreparedScene(try scene(#"["127.0.0.1"]"#), network: NetworkAccess(hosts: ["127.0.0.1", "tiles.example.org"])))
        XCTAssertThrowsError(try PreparedScene(try scene(#"["tiles.example.org"]"#))) { error in
            XCTAssertTrue("\(error)".contains("the host 127.0.0.1 is not allowed (this render reads URLs on the hosts tiles.example.org (the scene's \"hosts\")); add it to the scene's \"hosts\""), "\(error)")
        }
        // On the scene's list but not the renderer's: refused, and the message says --allow-host.
        XCTAssertThrowsError(try PreparedScene(try scene(#"["127.0.0.1"]"#), network: NetworkAccess(hosts: ["tiles.example.org"]))) { error in
            XCTAssertTrue("\(error)".contains("is not allowed (this render reads URLs on the hosts tiles.example.org, and of those the hosts 127.0.0.1 (the scene's \"hosts\")); allow it with --allow-host 127.0.0.1"), "\(error)")
        }
        XCTAssertThrowsError(try scene(#"["tiles example.org"]"#)) { error in
            XCTAssertTrue("\(error)".contains("$.hosts[0]") && "\(error)".contains("expected a host name"), "\(error)")
        }
        XCTAssertThrowsError(try scene("[" + Array(repeating: #""h""#, count: 65).joined(separator: ",") + "]"))
        // Written back as it was read.
        let written = SceneEncoder.encode(try scene(#"["127.0.0.1"]"#))
        XCTAssertTrue(written.contains(#""hosts": ["127.0.0.1"]"#), written)
        XCTAssertEqual(try SceneDecoder.decode(Array(written.utf8), path: "/tmp/scene.json").hosts, ["127.0.0.1"])
    }

    func testAFileThatIsNotThereIsAnErrorNamingTheURL() throws {
        let server = try TestHTTPServer(root: Repository.root)
        let text = #"{"map": {"camera": {"center": {"latitude": 1, "longitude": 1}, "range": 100}, "geojson": [{"file": "\#(server.base)/missing.geojson?token=s3cret"}]}}"#
        XCTAssertThrowsError(try PreparedScene(try SceneDecoder.decode(Array(text.utf8), path: "/tmp/scene.json"))) { error in
            let message = String(describing: error)
            XCTAssertTrue(message.contains("'\(server.base)/missing.geojson?…' answered HTTP 404; check the URL"), message)
            XCTAssertFalse(message.contains("s3cret"), message)
        }
    }
}
