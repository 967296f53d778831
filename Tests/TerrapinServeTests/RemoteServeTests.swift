// serve and remote sources: a client's scene reaches only the hosts the operator allows.
import Foundation
import Testing
import Terrapin
@testable import TerrapinServe
import TerrapinTestSupport

@Suite struct RemoteServeTests {
    func scene(_ url: String) -> [UInt8] {
        Array(#"{"output": {"width": 64, "height": 48}, "map": {"camera": {"center": {"latitude": 43.7384, "longitude": 7.4246}, "range": 1500}, "basemap": {"tiles": "\#(url)"}}}"#.utf8)
    }

    @Test func urlsReachOnlyTheHostsTheOperatorAllows() throws {
        // No download cache: nothing written outside the test.
        HTTPClient.useShared(HTTPClient.Configuration())
        let server = try TestHTTPServer(root: Repository.fixture("tiles"))
        let url = server.base + "/monaco-protomaps.pmtiles"
        // By default, none.
        let closed = try RenderServiceTests.service()
        let refused = closed.respond(HTTPRequest(method: "POST", path: "/render", body: scene(url)))
        #expect(refused.status == 422 || refused.status == 400)
        let message = RenderServiceTests.json(refused)["error"] as? String ?? ""
        #expect(message.contains("the host 127.0.0.1 is not allowed (this render reads URLs on no host)"), "\(message)")
        #expect(server.log.isEmpty, "the host is never contacted")
        // The operator allows it.
        let open = try RenderServiceTests.service { $0.network = NetworkAccess(hosts: ["127.0.0.1"]) }
        let drawn = open.respond(HTTPRequest(method: "POST", path: "/render", body: scene(url)))
        #expect(drawn.status == 200, "\(String(decoding: drawn.body, as: UTF8.self))")
        #expect(!server.log.isEmpty)
        // What it cost the origin is in /metrics.
        let metrics = String(decoding: open.respond(RenderServiceTests.get("/metrics")).body, as: UTF8.self)
        let downloads = metrics.split(separator: "\n").first { $0.hasPrefix("terrapin_downloads_total ") }.flatMap { Int($0.split(separator: " ")[1]) }
        #expect((downloads ?? 0) >= server.log.count, "\(metrics)")
        #expect(metrics.contains("terrapin_download_bytes_total ") && metrics.contains("terrapin_download_cache_hits_total "))
    }
}
