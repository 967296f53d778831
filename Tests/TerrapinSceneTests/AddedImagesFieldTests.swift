// A basemap's `images` (MapLibre's `addImage`) as a scene field: read, checked, written back.
import Testing
import TerrapinBasemap
@testable import TerrapinScene

@Suite struct AddedImagesFieldTests {
    /// The scene's `images`: read in order (a name given twice keeps the last), each needing a
    /// file, its pixel ratio within 0.25…8; written back as read.
    @Test func theSceneFieldIsReadCheckedAndWritten() throws {
        func scene(_ images: String) -> [UInt8] {
            Array(#"{"output": {"width": 8, "height": 8}, "map": {"mode": "roadmap", "camera": {"center": {"latitude": 0, "longitude": 0}}, "basemap": {"tiles": "t.pmtiles", "images": IMAGES}}}"#
                .replacingOccurrences(of: "IMAGES", with: images).utf8)
        }
        let read = try SceneDecoder.decode(scene(#"{"a": {"file": "a.png", "pixelRatio": 2, "sdf": true}, "b": {"file": "b.png"}}"#), file: "i.json")
        let images = try #require(read.map?.basemap?.images)
        #expect(images == [AddedImage(name: "a", file: "a.png", pixelRatio: 2, sdf: true), AddedImage(name: "b", file: "b.png")])
        let written = SceneEncoder.encode(read)
        #expect(try SceneDecoder.decode(Array(written.utf8), file: "i.json").map?.basemap?.images == images)
        #expect { try SceneDecoder.decode(scene(#"{"a": {"pixelRatio": 2}}"#), file: "i.json") } throws: { "\($0)".contains("$.map.basemap.images.a") && "\($0)".contains("needs \"file\"") }
        #expect { try SceneDecoder.decode(scene(#"{"a": {"file": "a.png", "pixelRatio": 9}}"#), file: "i.json") } throws: { "\($0)".contains("$.map.basemap.images.a.pixelRatio") }
        #expect { try SceneDecoder.decode(scene(#"{"a": {"file": "a.png", "size": 9}}"#), file: "i.json") } throws: { "\($0)".contains("unknown key \"size\"") }
    }
}
