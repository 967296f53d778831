import Foundation
import Testing
import Terrapin
import TerrapinFuzzing
@testable import TerrapinServe
import TerrapinTestSupport

/// The service asked directly (no sockets): routes, errors, ETags, formats, the cache, metrics.
@Suite struct RenderServiceTests {
    static let fixtures = Repository.fixtures

    static func service(_ configure: (inout ServeOptions) -> Void = { _ in }) throws -> RenderService {
        var options = ServeOptions(root: fixtures)
        options.log = .none
        options.threads = 2
        options.staticMapScene = "serve/monaco.json"
        configure(&options)
        return try RenderService(options)
    }

    static func get(_ target: String, headers: [String: String] = [:]) -> HTTPRequest {
        let parts = target.split(separator: "?", maxSplits: 1)
        let arguments: [(key: String, value: String)] = parts.count > 1 ? parts[1].split(separator: "&").map { pair in
            let kv = pair.split(separator: "=", maxSplits: 1)
            return (String(kv[0]), kv.count > 1 ? String(kv[1]).removingPercentEncoding! : "")
        } : []
        return HTTPRequest(method: "GET", path: String(parts[0]), arguments: arguments, headers: headers)
    }

    /// A response expected to be a PNG of `width`×`height`, decoded.
    static func png(_ response: HTTPResponse, width: Int, height: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> Pixmap {
        #expect(response.status == 200 && response.header("Content-Type") == "image/png", sourceLocation: sourceLocation)
        let pixmap = try PNGDecoder.decode(response.body)
        #expect(pixmap.width == width && pixmap.height == height, sourceLocation: sourceLocation)
        return pixmap
    }

    static func json(_ response: HTTPResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    @Test func healthAndReadiness() throws {
        let service = try Self.service()
        #expect(service.respond(Self.get("/healthz")).status == 200)
        let before = service.respond(Self.get("/readyz"))
        #expect(before.status == 503 && String(decoding: before.body, as: UTF8.self) == "starting\n")
        try service.warmUp()
        #expect(service.respond(Self.get("/readyz")).status == 200)
        service.beginDrain()
        let draining = service.respond(Self.get("/readyz"))
        #expect(draining.status == 503 && draining.header("Connection") == "close")
    }

    @Test func rendersAFileBeneathTheRootWithOverrides() throws {
        let service = try Self.service()
        let response = service.respond(Self.get("/render/serve/red.json?size=8x6&scale=2"))
        let pixmap = try Self.png(response, width: 16, height: 12)
        #expect(pixmap[0, 0] == PremultipliedRGBA8(red: 0xE5, green: 0x39, blue: 0x35, alpha: 255))
        let text = try PNGDecoder.info(response.body).text
        #expect(text.contains { $0.key == "Terrapin-Input-SHA256" && "\"\($0.value)\"" == response.header("ETag") })
        #expect(response.header("Cache-Control") == "public, max-age=300")
    }

    @Test func formatsByParameterOrAccept() throws {
        let service = try Self.service()
        let jpeg = service.respond(Self.get("/render/serve/red.json?format=jpeg&quality=80"))
        #expect(jpeg.status == 200 && jpeg.header("Content-Type") == "image/jpeg" && Array(jpeg.body.prefix(3)) == [0xFF, 0xD8, 0xFF])
        let webp = service.respond(Self.get("/render/serve/red.json", headers: ["accept": "image/avif,image/webp,*/*;q=0.8"]))
        #expect(webp.status == 200 && webp.header("Content-Type") == "image/webp" && Array(webp.body[8..<12]) == Array("WEBP".utf8))
        #expect(webp.header("Vary") == "Accept")
        let any = service.respond(Self.get("/render/serve/red.json", headers: ["accept": "*/*"]))
        #expect(any.header("Content-Type") == "image/png")
        let none = service.respond(Self.get("/render/serve/red.json", headers: ["accept": "text/html"]))
        #expect(none.status == 406)
        // Each format has its own ETag.
        #expect(jpeg.header("ETag") != webp.header("ETag") && webp.header("ETag") != any.header("ETag"))
    }

    @Test func etagIsStableAndAnswers304() throws {
        let service = try Self.service()
        let first = service.respond(Self.get("/render/serve/pin.json?tilt=30"))
        let second = try Self.service().respond(Self.get("/render/serve/pin.json?tilt=30"))
        let etag = try #require(first.header("ETag"))
        #expect(first.status == 200 && second.header("ETag") == etag && first.body == second.body)
        #expect(service.respond(Self.get("/render/serve/pin.json?tilt=31")).header("ETag") != etag)
        #expect(service.respond(Self.get("/render/serve/pin.json?tilt=30&tap=100,130")).header("ETag") != etag)
        let cached = service.respond(Self.get("/render/serve/pin.json?tilt=30", headers: ["if-none-match": "W/\"x\", \(etag)"]))
        #expect(cached.status == 304 && cached.body.isEmpty && cached.header("ETag") == etag)
        // POST answers carry the ETag but are not conditional.
        let body = try Array(Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/serve/red.json")))
        let post = service.respond(HTTPRequest(method: "POST", path: "/render", headers: ["if-none-match": "*"], body: body))
        #expect(post.status == 200 && post.header("Cache-Control") == "no-store")
    }

    @Test func tapsOpenPopovers() throws {
        let service = try Self.service()
        let closed = try PNGDecoder.decode(service.respond(Self.get("/render/serve/pin.json")).body)
        let open = try PNGDecoder.decode(service.respond(Self.get("/render/serve/pin.json?tap=100,65")).body)
        var differing = 0
        for y in 0..<closed.height { for x in 0..<closed.width where closed[x, y] != open[x, y] { differing += 1 } }
        #expect(differing > 200, "the popover is drawn")
    }

    @Test func errorsAreJSONWithPathAndLine() throws {
        let service = try Self.service()
        let invalid = service.respond(HTTPRequest(method: "POST", path: "/render", body: Array("{\n  \"output\": {\"width\": 10, \"heigt\": 5}\n}".utf8)))
        #expect(invalid.status == 422 && invalid.header("Content-Type") == "application/json")
        let j = Self.json(invalid)
        #expect(j["path"] as? String == "$.output" && j["line"] as? Int == 2 && j["column"] as? Int == 27)
        #expect((j["error"] as? String)?.contains("did you mean \"height\"?") == true)
        let syntax = Self.json(service.respond(HTTPRequest(method: "POST", path: "/render", body: Array("{\"output\": ".utf8))))
        #expect(syntax["line"] as? Int == 1 && (syntax["error"] as? String)?.contains("invalid JSON") == true)
        let parameter = service.respond(Self.get("/render/serve/red.json?scael=2"))
        #expect(parameter.status == 400 && Self.json(parameter)["error"] as? String
                == "unknown parameter 'scael'; did you mean 'scale'? (parameters: size, scale, heading, tilt, range, time, tap, format, quality, compression)")
        #expect(service.respond(Self.get("/render/serve/red.json?heading=10")).status == 400, "a camera override on a scene without a camera")
        #expect(service.respond(Self.get("/render/serve/red.json?size=100000x10")).status == 400)
        let method = service.respond(Self.get("/render"))
        #expect(method.status == 405 && method.header("Allow") == "POST")
        #expect(service.respond(Self.get("/nowhere")).status == 404)
        var big = HTTPRequest(method: "POST", path: "/render")
        big.bodyTooLarge = true
        #expect(service.respond(big).status == 413)
    }

    @Test func nothingIsReadOutsideTheRoot() throws {
        let dir = NSTemporaryDirectory() + "terrapin-serve-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir + "/root", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try #"{"output": {"width": 4, "height": 4}}"#.write(toFile: dir + "/outside.json", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/root/link.json", withDestinationPath: dir + "/outside.json")
        let reaching = #"{"output": {"width": 40, "height": 30}, "map": {"imagery": {"file": "../outside.png", "bounds": [0, 0, 1, 1]}}}"#
        try reaching.write(toFile: dir + "/root/reach.json", atomically: true, encoding: .utf8)
        var options = ServeOptions(root: dir + "/root")
        options.log = .none
        let service = try RenderService(options)
        for target in ["/render/../outside.json", "/render/link.json", "/render/%2Fetc%2Fpasswd.json".removingPercentEncoding!, "/render/missing.json"] {
            let r = service.respond(Self.get(target))
            #expect(r.status == 404, "\(target)")
            #expect(!String(decoding: r.body, as: UTF8.self).contains(dir), "the server's paths are not shown")
        }
        let reach = service.respond(Self.get("/render/reach.json"))
        #expect(reach.status == 422)
        #expect(!String(decoding: reach.body, as: UTF8.self).contains(dir + "/root/"))
        let posted = service.respond(HTTPRequest(method: "POST", path: "/render", body: Array(reaching.utf8)))
        #expect(posted.status == 422 && Self.json(posted)["line"] as? Int == 1)
    }

    @Test func overBudgetIs422WithTheReason() throws {
        let service = try Self.service()
        let r = service.respond(HTTPRequest(method: "POST", path: "/render", body: HostileScenes.covering("polygons", count: 4000, side: 4096)))
        #expect(r.status == 422)
        #expect((Self.json(r)["error"] as? String)?.hasPrefix("refusing to render:") == true, "\(String(decoding: r.body, as: UTF8.self))")
        #expect(String(decoding: service.respond(Self.get("/metrics")).body, as: UTF8.self).contains("terrapin_rejected_total{reason=\"budget\"} 1\n"))
    }

    @Test func staticMapsDrawTheBaseSceneUnderTheirMarkers() throws {
        let service = try Self.service()
        let r = service.respond(Self.get("/staticmap?center=43.7384,7.4246&zoom=15&size=200x150&markers=color:blue|label:M|43.7384,7.4246"))
        let pixmap = try Self.png(r, width: 200, height: 150)
        // Blue pin at the centre; the sea of the basemap east of it.
        let pin = pixmap[100, 62]
        #expect(pin.blue > 200 && pin.red < 60, "\(pin)")
        let again = service.respond(Self.get("/staticmap?center=43.7384,7.4246&zoom=15&size=200x150&markers=color:blue|label:M|43.7384,7.4246"))
        #expect(again.header("ETag") == r.header("ETag"))
        let other = service.respond(Self.get("/staticmap?center=43.7384,7.4246&zoom=16&size=200x150&markers=color:blue|label:M|43.7384,7.4246"))
        #expect(other.header("ETag") != r.header("ETag"))
        let bad = service.respond(Self.get("/staticmap?center=43.7,7.4&size=200x150&zoom=99"))
        #expect(bad.status == 400 && Self.json(bad)["parameter"] as? String == "zoom")
        #expect(service.respond(Self.get("/staticmap?center=43.7,7.4&zoom=3&size=200x150&format=jpg")).header("Content-Type") == "image/jpeg")
    }

    @Test func cacheAnswersRepeatsAndStaysBounded() throws {
        let dir = NSTemporaryDirectory() + "terrapin-cache-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let service = try Self.service { $0.cache = dir; $0.cacheBytes = 1 << 20 }
        let miss = service.respond(Self.get("/render/serve/red.json?size=300x200"))
        let hit = service.respond(Self.get("/render/serve/red.json?size=300x200"))
        #expect(miss.header("X-Terrapin-Cache") == "miss" && hit.header("X-Terrapin-Cache") == "hit" && miss.body == hit.body)
        let hash = String(try #require(miss.header("ETag")).dropFirst().dropLast())
        #expect(FileManager.default.fileExists(atPath: "\(dir)/\(hash.prefix(2))/\(hash).png"))
        // A second process's service sharing the folder finds it too.
        let other = try Self.service { $0.cache = dir; $0.cacheBytes = 1 << 20 }
        #expect(other.respond(Self.get("/render/serve/red.json?size=300x200")).header("X-Terrapin-Cache") == "hit")
        let metrics = String(decoding: service.respond(Self.get("/metrics")).body, as: UTF8.self)
        #expect(metrics.contains("terrapin_cache_hits_total 1\n") && metrics.contains("terrapin_cache_misses_total 1\n"))

        // Entries of about 100 KiB (noise does not compress) past a 1 MiB bound: the oldest go.
        let cache = try RenderCache(directory: dir + "/bounded", limit: 1 << 20)
        var rng = SystemRandomNumberGenerator()
        for i in 0..<30 {
            let key = String(format: "%064x", i)
            cache.store(key, "png", (0..<100_000).map { _ in UInt8.random(in: 0...255, using: &rng) })
            #expect(cache.bytes <= 1 << 20)
        }
        let left = RenderCache.entries(dir + "/bounded")
        #expect(left.reduce(0) { $0 + $1.size } <= 1 << 20 && left.count >= 8)
        #expect(cache.read(String(format: "%064x", 29), "png") != nil, "the newest stays")
        #expect(cache.read(String(format: "%064x", 0), "png") == nil, "the oldest went")
    }

    /// A scene path longer than any file path the system opens (3,000 segments, 6 KB) is the
    /// client's error, 414 with a JSON reason, not the server's 500.
    @Test func aPathTooLongToOpenIs414() throws {
        let service = try Self.service()
        let response = service.respond(Self.get("/render/" + String(repeating: "a/", count: 3000) + "x.json"))
        #expect(response.status == 414, "\(response.status) \(String(decoding: response.body, as: UTF8.self))")
        #expect(String(decoding: response.body, as: UTF8.self).contains("\"error\""))
    }

    @Test func metricsCountRequestsByRouteAndStatus() throws {
        let service = try Self.service()
        _ = service.respond(Self.get("/render/serve/red.json"))
        _ = service.respond(Self.get("/render/serve/red.json"))
        _ = service.respond(Self.get("/render/serve/missing.json"))
        let text = String(decoding: service.respond(Self.get("/metrics")).body, as: UTF8.self)
        #expect(text.contains("terrapin_http_requests_total{route=\"render_file\",code=\"200\"} 2\n"))
        #expect(text.contains("terrapin_http_requests_total{route=\"render_file\",code=\"404\"} 1\n"))
        #expect(text.contains("terrapin_http_request_duration_seconds_count{route=\"render_file\"} 3\n"))
        #expect(text.contains("terrapin_render_duration_seconds_count 2\n"))
        #expect(text.contains("# TYPE terrapin_http_request_duration_seconds histogram\n"))
        #expect(text.contains("terrapin_http_requests_in_flight 1\n"), "the metrics request itself")
        #expect(text.contains("terrapin_render_workers 2\n"))
        // Memory from /proc/self/status ("VmRSS:\t  1736 kB"): a test process holds megabytes,
        // never 0 (the tab once hid both figures).
        for name in ["process_resident_memory_bytes", "terrapin_process_peak_resident_memory_bytes"] {
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(name + " ") })
            let bytes = try #require(Int(line.split(separator: " ")[1]))
            #expect(bytes > 1 << 20, "\(line)")
        }
    }
}

/// A render whose request timed out is stopped, not finished for nobody on a worker.
@Suite struct CancellationTests {
    /// 16 Mpx of tilted map (sky and flat ground cast per pixel): about a second optimised.
    static func slower() throws -> SceneFile { try SceneDecoder.load(path: Repository.fixture("serve/slower.json")) }

    @Test func aCancelledRenderStopsWithItsOwnError() throws {
        var overrides = RenderOverrides()
        overrides.cancellation = Cancellation()
        overrides.cancellation?.cancel()
        #expect(throws: RenderError.cancelled) { try SceneImage.render(try Self.slower(), overrides) }
        #expect(RenderError.cancelled.description == "the render was stopped before it was done")
        // Cancelled while it draws (from another thread): the same error, never an image.
        let stop = Cancellation()
        overrides.cancellation = stop
        let scene = try Self.slower()
        DetachedThread.start { usleep(30_000); stop.cancel() }
        #expect(throws: RenderError.cancelled) { try SceneImage.render(scene, overrides) }
        // Not cancelled: the same scene renders.
        overrides.cancellation = Cancellation()
        var small = scene
        small.output.width = 64
        small.output.height = 48
        #expect(try SceneImage.render(small, overrides).width == 128)
    }

    @Test func theServiceStopsARenderItAnswered503() throws {
        let service = try RenderServiceTests.service { $0.timeout = 0.05; $0.threads = 1 }
        let response = service.respond(RenderServiceTests.get("/render/serve/slower.json"))
        #expect(response.status == 503)
        // The worker is freed when the render notices (within a band of rows), and counted.
        var running = 1, text = ""
        for _ in 0..<600 where running > 0 {
            text = String(decoding: service.respond(RenderServiceTests.get("/metrics")).body, as: UTF8.self)
            running = text.contains("terrapin_renders_running 0\n") ? 0 : 1
            if running > 0 { usleep(10_000) }
        }
        #expect(running == 0)
        #expect(text.contains("terrapin_renders_stopped_total 1\n"), "\(text)")
    }
}

@Suite struct RenderPoolTests {
    @Test func turnsAwayWorkWhenWorkersAndQueueAreFull() {
        let pool = RenderPool(workers: 1, queueLimit: 1)
        defer { pool.stop() }
        let release = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0)
        let results = Locked<[String]>([])
        let group = DispatchGroup()
        for i in 0..<2 {
            group.enter()
            DetachedThread.start {
                let r = pool.run(timeout: 30) { () -> Int in
                    if i == 0 { started.signal(); release.wait() }
                    return i
                }
                if case .done(let v) = r { results.withLock { $0.append("done \(v)") } }
                group.leave()
            }
            if i == 0 { started.wait() }
        }
        while pool.load.queued < 1 { usleep(1000) }
        // One running, one queued: the third is refused at once.
        if case .saturated = pool.run(timeout: 30, { 2 }) {} else { Issue.record("not saturated") }
        release.signal()
        group.wait()
        #expect(results.withLock { $0.sorted() } == ["done 0", "done 1"])
    }

    @Test func answersAtTheDeadline() {
        let pool = RenderPool(workers: 1, queueLimit: 4)
        defer { pool.stop() }
        let release = DispatchSemaphore(value: 0)
        let r = pool.run(timeout: 0.05) { () -> Int in release.wait(); return 1 }
        if case .timedOut = r {} else { Issue.record("not timed out") }
        release.signal()
        // The worker is free again once the abandoned job ends.
        if case .done(let v) = pool.run(timeout: 30, { 7 }) { #expect(v == 7) } else { Issue.record("not done") }
    }
}
