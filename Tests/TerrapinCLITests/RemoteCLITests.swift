// `terrapin render` with a scene whose basemap is a URL, as a user runs it: the same image as
// from the local file; --offline from the download cache once the server is gone (a new
// process: nothing in memory); and the refusals (--offline with a cold cache, a host not
// allowed) exit 2 with a message naming the URL, leaving no output file.
import Foundation
import Testing
import TerrapinTestSupport

@Suite(.serialized) struct RemoteCLITests {
    @Test func remoteBasemapThenOfflineFromTheCache() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try TestHTTPServer(root: Repository.fixture("tiles"))
        let url = server.base + "/monaco-protomaps.pmtiles"
        var scene = try String(contentsOfFile: CLI.examples + "/monaco-protomaps.json", encoding: .utf8)
        scene = scene.replacingOccurrences(of: "../Fixtures/tiles/monaco-protomaps.pmtiles", with: url)
        #expect(scene.contains(url))
        try scene.write(toFile: dir + "/remote.json", atomically: true, encoding: .utf8)
        let cache = dir + "/cache"

        let local = try CLI.run(["render", CLI.examples + "/monaco-protomaps.json", "-o", dir + "/local.png"])
        #expect(local.status == 0, "\(local.stderr)")
        let online = try CLI.run(["render", dir + "/remote.json", "-o", dir + "/online.png", "--download-cache", cache])
        #expect(online.status == 0, "\(online.stderr)")
        #expect(FileManager.default.contents(atPath: dir + "/online.png") == FileManager.default.contents(atPath: dir + "/local.png"))
        #expect(server.log.allSatisfy { $0.range != nil })

        server.stop()
        let offline = try CLI.run(["render", dir + "/remote.json", "-o", dir + "/offline.png", "--download-cache", cache, "--offline"])
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(FileManager.default.contents(atPath: dir + "/offline.png") == FileManager.default.contents(atPath: dir + "/local.png"))

        let cold = try CLI.run(["render", dir + "/remote.json", "-o", dir + "/cold.png", "--download-cache", dir + "/empty", "--offline"])
        #expect(cold.status == 2)
        #expect(cold.stderr.contains("'\(url)' is not in the download cache and --offline is set"), "\(cold.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/cold.png"))

        let refused = try CLI.run(["render", dir + "/remote.json", "-o", dir + "/refused.png", "--allow-host", "tiles.example.org", "--download-cache", "none"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("the host 127.0.0.1 is not allowed (this render reads URLs on the hosts tiles.example.org); allow it with --allow-host 127.0.0.1"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/refused.png"))
    }

    /// Tiles that cannot be fetched draw as missing, with a warning; --strict makes that an
    /// error (exit 2, nothing written).
    @Test func unreachableTilesWarnAndStrictRefuses() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A TileJSON whose tiles are on a port where nothing listens.
        try Array(#"{"tiles": ["http://127.0.0.1:1/{z}/{x}/{y}.pbf"], "minzoom": 0, "maxzoom": 14}"#.utf8).write(to: dir + "/tiles.json")
        let server = try TestHTTPServer(root: dir)
        let scene = #"{"output": {"width": 160, "height": 120}, "map": {"mode": "roadmap", "camera": {"center": {"latitude": 43.7384, "longitude": 7.4246}, "range": 1500}, "basemap": {"tiles": "\#(server.base)/tiles.json"}}}"#
        try Array(scene.utf8).write(to: dir + "/scene.json")
        let lenient = try CLI.run(["render", dir + "/scene.json", "-o", dir + "/lenient.png", "--download-cache", "none"])
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stderr.contains("warning:") && lenient.stderr.contains("cannot reach 'http://127.0.0.1:1/") && lenient.stderr.contains("the tile is drawn as missing"), "\(lenient.stderr)")
        let strict = try CLI.run(["render", dir + "/scene.json", "-o", dir + "/strict.png", "--download-cache", "none", "--strict"])
        #expect(strict.status == 2)
        #expect(strict.stderr.contains("--strict and") && strict.stderr.contains("nothing written"), "\(strict.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/strict.png"))
    }
}
