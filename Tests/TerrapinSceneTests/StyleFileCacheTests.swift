// A style file named by a scene is read and parsed once a process (`AssetCache`), as batch and
// serve render scene after scene with one style; a changed file is parsed anew.
import Foundation
import Testing
import TerrapinBasemap
import TerrapinScene
import TerrapinTestSupport
@testable import TerrapinLoad

@Suite struct StyleFileCacheTests {
    @Test func aStyleFileIsParsedOnceUntilItChanges() throws {
        try withTemporaryDirectory("style-cache") { dir in
            let path = dir + "/style.json"
            let url = URL(fileURLWithPath: path)
            let stamp = Date(timeIntervalSince1970: 1_600_000_000)
            func write(_ layer: String) throws {
                try Data(#"{"version": 8, "sources": {}, "layers": [{"id": "\#(layer)", "type": "background"}]}"#.utf8).write(to: url)
                try FileManager.default.setAttributes([.modificationDate: stamp], ofItemAtPath: path)
            }
            try write("aa")
            #expect(try Map.loadStyle(path).layers.map(\.id) == ["aa"])
            // The same identity (device, inode, size, time) with other bytes: the kept style.
            try write("bb")
            #expect(try Map.loadStyle(path).layers.map(\.id) == ["aa"])
            // Another size: parsed anew.
            try write("ccc")
            #expect(try Map.loadStyle(path).layers.map(\.id) == ["ccc"])
            // Gone: the typed error, every time.
            try FileManager.default.removeItem(atPath: path)
            #expect(throws: LoadError.self) { try Map.loadStyle(path) }
        }
    }
}
