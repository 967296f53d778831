// Writing scenes out: Swift-built maps and decoded scene files become scene-file JSON that reads
// back as the same scene and renders the same pixels (the map goldens check every golden map
// this way too; see `golden(_: Map, …)`).
import Foundation
import Testing
@testable import Terrapin
@testable import TerrapinScene
import TerrapinSnapshotTesting

@Suite struct SceneWriterTests {
    /// Every example, read, written and read again: the same text the second time, the same
    /// pixels as the original.
    @Test func examplesRoundTrip() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: examples).filter { $0.hasSuffix(".json") }.sorted()
        #expect(names.count >= 6)
        for name in names {
            let original = try SceneDecoder.load(path: "\(examples)/\(name)")
            let json = SceneEncoder.encode(original)
            let again = try SceneDecoder.decode(Array(json.utf8), path: "\(examples)/\(name)")
            #expect(again == original, "\(name)")
            #expect(SceneEncoder.encode(again) == json, "\(name)")
            // Rendered small, to keep the test fast.
            var a = again, b = original
            a.output = OutputOptions(width: 200, height: 150)
            b.output = a.output
            #expect(try PreparedScene(a).render() == PreparedScene(b).render(), "\(name)")
        }
    }

    /// The ferry example: its tap action is code, so it is left out and said so; the pixels
    /// before a tap are the same.
    @Test func theFerryExampleNotesItsTapAction() throws {
        let map = FerryBuildingExample().body as! Map
        var notes: [String] = []
        let scene = try SceneFile(describing: map, output: OutputOptions(width: 400, height: 300, scale: 2), directory: examples, notes: &notes)
        #expect(notes == ["a tap action (code cannot be written as data; scene files have \"onTap\": \"togglePopover\" on markers)"])
        let json = SceneEncoder.encode(scene)
        #expect(json.contains(#""text": "Ferry Building""#) && json.contains(#""systemName": "ferry.fill""#), "\(json)")
        let decoded = try SceneDecoder.decode(Array(json.utf8), path: "\(examples)/ferry.json")
        #expect(try PreparedScene(decoded).render() == ViewRenderer.render(FerryBuildingExample().frame(width: 400, height: 300), scale: 2))
    }

    /// Modifier order is kept: padding inside a background and outside it are different files.
    @Test func modifierOrderIsKept() throws {
        let inside = try ViewSpec(describing: Text("A").padding(8).background(Color.white))
        let outside = try ViewSpec(describing: Text("A").background(Color.white).padding(8))
        #expect(inside.modifiers == [.padding(EdgeInsets(top: 8, leading: 8, bottom: 8, trailing: 8)), .background(ViewSpec(.color(.white)))])
        #expect(outside.modifiers == [.background(ViewSpec(.color(.white))), .padding(EdgeInsets(top: 8, leading: 8, bottom: 8, trailing: 8))])
        #expect(SceneEncoder.modifier(inside.modifiers[0]) == SceneEncoder.modifier(outside.modifiers[1]))
    }

    /// Stacks, shapes, images, pins and their modifiers, written and read back into equal data.
    @Test func viewsBecomeTheirData() throws {
        let view = VStack(alignment: .leading, spacing: 4) {
            HStack {
                Image(systemName: "star.fill").foregroundStyle(Color.yellow)
                Text("Hello").font(.system(size: 14, weight: .semibold)).lineLimit(1)
            }
            Circle().stroke(Color.white, lineWidth: 2).frame(width: 10, height: 10)
            Pin(configuration: .init(backgroundColor: .black, borderColor: .white, glyphColor: .white, scale: 1.5) { Image(systemName: "ferry.fill") })
            Spacer(minLength: 2)
        }
        .padding(.horizontal, 8)
        .background(RoundedRectangle(cornerRadius: 6).fill(Color.white))
        .cornerRadius(3)
        .shadow(radius: 2, y: 1)
        .opacity(0.9)
        .rotationEffect(.degrees(5))
        .accessibilityLabel("card")
        let spec = try ViewSpec(describing: view)
        let json = #"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": "# + {
            var text = ""
            SceneEncoder.view(spec).write(to: &text, indent: 0)
            return text
        }() + "}]}}"
        let decoded = try SceneDecoder.decode(Array(json.utf8))
        #expect(decoded.map?.markers.first?.content == spec, "\(json)")
    }

    @Test func whatHasNoSceneFormIsAnErrorNamingIt() throws {
        let pixmap = Pixmap(width: 2, height: 2)!
        func message<V: View>(_ view: V) -> String {
            do { _ = try ViewSpec(describing: view); return "" } catch { return error.description }
        }
        #expect(message(Image(pixmap: pixmap)).contains("an image made from a Pixmap"))
        #expect(message(Text("a").layoutPriority(1)).contains("layoutPriority"))
        #expect(message(Text("a").background(alignment: .leading) { Color.red }).contains("a background aligned other than centre"))
        #expect(message(Divider()).contains("Divider has no scene-file form"))
        #expect(message(HStack {}.frame(idealWidth: 10)).contains("a flexible frame with only ideal sizes"))
        #expect(message(Group { Text("a"); Text("b") }).contains("2 views side by side"))
        // A map with imagery made in memory cannot name its file.
        let imagery = try #require(Imagery(image: Pixmap(width: 4, height: 4)!, west: 0, south: 0, east: 1, north: 1))
        #expect(throws: ViewSpecError.self) { try SceneFile(describing: Map(mode: .satellite).imagery(imagery)) }
    }

    /// A height grid made in memory is written inline and reads back as the same grid.
    @Test func inMemoryTerrainIsWrittenInline() throws {
        var samples: [Float] = []
        for r in 0..<12 { for c in 0..<16 { samples.append(Float(40 * r + 25 * c) + 0.25) } }
        let grid = try #require(HeightGrid(columns: 16, rows: 12, westCentre: 7.0005, southCentre: 46.0005, cellWidth: 0.001, cellHeight: 0.001, samples: samples))
        let map = Map(initialCamera: Camera(center: LatLngAltitude(latitude: 46.006, longitude: 7.008, altitude: 300), heading: 10, tilt: 50, range: 3000), mode: .satellite)
            .terrain(grid, exaggeration: 1.5)
        let scene = try SceneFile(describing: map, output: OutputOptions(width: 160, height: 120))
        let json = SceneEncoder.encode(scene)
        #expect(json.contains(#""columns": 16"#) && json.contains(#""exaggeration": 1.5"#), "\(json)")
        let decoded = try SceneDecoder.decode(Array(json.utf8))
        let back = try #require(decoded.map?.terrain?.inline?.grid)
        #expect(back.samples == grid.samples && back.columns == 16 && abs(back.westCentre - grid.westCentre) < 1e-12 && abs(back.cellHeight - 0.001) < 1e-15)
        #expect(try PreparedScene(decoded).render() == ViewRenderer.render(map.frame(width: 160, height: 120), scale: 1))
    }

    /// The example of docs/scene-format.md.
    @Test func readmeExample() throws {
        let dir = NSTemporaryDirectory() + "terrapin-writer-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir + "/scenes", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let map = FerryBuildingExample().body as! Map
        // (With absolute paths: tests run in parallel and must not change the directory.)
        var notes: [String] = []
        let scene = try SceneFile(describing: map, output: OutputOptions(width: 400, height: 300, scale: 2),
                              directory: dir + "/scenes", notes: &notes)
        try FileIO.writeAtomically(Array(SceneEncoder.encode(scene).utf8), to: dir + "/scenes/ferry.json")

        let read = try SceneDecoder.load(path: dir + "/scenes/ferry.json")
        #expect(read.output.pixelWidth == 800 && read.map?.markers.count == 3 && notes.count == 1)
    }

    @Test func filesAreNamedRelativeToTheSceneDirectory() {
        #expect(relativePath("/a/b/c/grid.asc", from: "/a/b") == "c/grid.asc")
        #expect(relativePath("/a/Fixtures/t.asc", from: "/a/Examples") == "../Fixtures/t.asc")
        #expect(relativePath("/x/t.asc", from: "/a/b") == "/x/t.asc")
        #expect(relativePath("rel/t.asc", from: "/a/b") == "rel/t.asc")
    }
}
