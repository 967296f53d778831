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
}
