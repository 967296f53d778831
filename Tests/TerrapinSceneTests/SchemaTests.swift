import TerrapinIO
import Foundation
import Testing
@testable import TerrapinScene
import TerrapinTestSupport

/// The JSON Schema in schema/ agrees with the decoder: every example and fixture scene passes
/// both, and the malformed scenes the decoder rejects, the schema rejects too.
@Suite struct SchemaTests {
    static let repository = Repository.root
    let validator = try! SchemaValidator(SceneSchema.json)

    func node(_ text: String) throws -> JSONNode { try JSONParser.parse(Array(text.utf8)) }

    @Test func theRepositoryCopyIsWhatTheCLIPrints() throws {
        let file = try String(contentsOfFile: Self.repository + "/schema/scene.schema.json", encoding: .utf8)
        #expect(file == SceneSchema.json + "\n")
    }

    @Test func theFieldReferenceIsWhatTheCLIPrints() throws {
        let file = try String(contentsOfFile: Self.repository + "/docs/scene-fields.md", encoding: .utf8)
        #expect(file == SceneSchema.markdown + "\n", "run make schema")
    }

    /// Adding a field is one row: a row added to the camera's table is read and checked by the
    /// decoder (its range, a misspelling's "did you mean"), written by the encoder (left out at
    /// its default), described by the schema and listed in the reference.
    @Test func aNewRowAppearsInDecoderEncoderSchemaAndDocs() throws {
        let camera = SceneTables.camera
        let table = ObjectTable(name: camera.name, doc: camera.doc, initial: camera.initial, required: camera.required, requiredMessage: camera.requiredMessage,
                                fields: camera.fields + [.number("spin", \.roll, in: -10...10, unit: "degrees", initial: camera.initial, doc: "A row added by a test.", since: "9.9.9")])
        var reader = Reader()
        let read = reader.read(table, try node(#"{"center": {"latitude": 1, "longitude": 2}, "spin": 5}"#), "$.map.camera")
        #expect(reader.issues.isEmpty)
        #expect(read?.roll == 5)
        var outOfRange = Reader()
        _ = outOfRange.read(table, try node(#"{"center": {"latitude": 1, "longitude": 2}, "spin": 50}"#), "$.map.camera")
        #expect(outOfRange.issues.map(\.path) == ["$.map.camera.spin"])
        #expect(outOfRange.issues.first?.message == "expected a number of degrees from -10 to 10, found 50")
        var misspelt = Reader()
        _ = misspelt.read(table, try node(#"{"center": {"latitude": 1, "longitude": 2}, "spni": 5}"#), "$.map.camera")
        #expect(misspelt.issues.first?.message == "unknown key \"spni\"; did you mean \"spin\"?")
        // Without the row, the same file is an unknown key.
        var without = Reader()
        _ = without.read(camera, try node(#"{"center": {"latitude": 1, "longitude": 2}, "spin": 5}"#), "$.map.camera")
        #expect(without.issues.count == 1)

        #expect(table.write(try #require(read)).text.contains("\"spin\": 5"))
        #expect(!table.write(table.initial).text.contains("spin"))
        #expect(table.schema["properties"]?["spin"] == .object([("type", .string("number")), ("minimum", .number(-10)), ("maximum", .number(10)),
                                                                ("description", .string("A row added by a test. In degrees. Default 0."))]))
        #expect(table.markdown.contains("| `spin` | number -10…10 | degrees | `0` | 9.9.9 | A row added by a test. |"), "\(table.markdown)")
    }

    @Test func theValidatorCanFail() throws {
        #expect(validator.validate(try node(#"{"output": {"width": 10}}"#)).isEmpty)
        #expect(!validator.validate(try node(#"{"outptu": {}}"#)).isEmpty)
        #expect(!validator.validate(try node(#"{"output": {"width": 1.5}}"#)).isEmpty)
        #expect(!validator.validate(try node(#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {"text": "a", "color": "red"}}]}}"#)).isEmpty)
        #expect(!validator.validate(try node(#"{"map": {"markers": [{"type": "marker3D", "position": {"latitude": 1, "longitude": 2}, "content": {"text": "a"}}]}}"#)).isEmpty)
        #expect(validator.validate(try node(#"{"map": {"markers": [{"type": "marker3D", "position": {"latitude": 1, "longitude": 2}, "label": "a"}]}}"#)).isEmpty)
    }

    /// Examples/, Fixtures/cli and every fixture case folder (one holding a CASES file).
    static func sceneFolders() -> [String] {
        var folders = ["Examples", "Fixtures/cli"]
        let walker = FileManager.default.enumerator(atPath: Repository.fixtures)
        while let path = walker?.nextObject() as? String {
            if (path as NSString).lastPathComponent == "CASES" { folders.append("Fixtures/" + (path as NSString).deletingLastPathComponent) }
        }
        return folders.sorted()
    }

    @Test func everyExampleAndFixtureSceneIsValid() throws {
        var checked = 0
        for dir in Self.sceneFolders() {
            for name in try FileManager.default.contentsOfDirectory(atPath: Self.repository + "/" + dir).sorted() where name.hasSuffix(".json") {
                let path = Self.repository + "/" + dir + "/" + name
                let text = try String(contentsOfFile: path, encoding: .utf8)
                // Fixtures named bad-* are meant to fail, in both.
                let decodes = (try? SceneDecoder.decode(Array(text.utf8))) != nil
                let errors = (try? validator.validate(node(text))) ?? ["not JSON"]
                if name.hasPrefix("bad") {
                    #expect(!decodes && !errors.isEmpty, "\(dir)/\(name)")
                } else {
                    #expect(decodes && errors.isEmpty, "\(dir)/\(name): \(errors)")
                }
                checked += 1
            }
        }
        #expect(checked >= 50)
    }

    /// The same files through an outside validator: Python's jsonschema (draft 2020-12), as
    /// Debian packages it (`make setup` installs python3-jsonschema).
    @Test func anOutsideValidatorAgrees() throws {
        let (status, output) = try ExternalTool.run("/usr/bin/python3", [Self.repository + "/Tools/validate-scenes.py"])
        #expect(status == 0, "\(output)")
        #expect(output.contains(", 0 not as they should be"), "\(output)")
    }

    /// Checks only the decoder can make (they need arithmetic or order the schema cannot express).
    static let decoderOnly = ["west < east", "must be its first modifier", "a Terrarium PNG needs", "must be below the roof", "with south < north", "within ±85.0511°", "columns × rows", "animate, found", "a spring has a", "min ≤ max"]

    @Test(arguments: MapSceneDecoderTests.malformed)
    func theSchemaRejectsWhatTheDecoderRejects(json: String, expected: String) throws {
        guard !Self.decoderOnly.contains(where: { expected.contains($0) }) else { return }
        guard let parsed = try? node(json) else { return }   // not JSON at all: nothing for a schema to say
        if expected.contains("beyond the limit") { return }   // a product of width, height and scale
        #expect(!validator.validate(parsed).isEmpty, "the schema accepts \(json)")
    }

    @Test func theSchemaAcceptsWhatTheDecoderReads() throws {
        let scenes = [
            #"{}"#,
            #"{"map": {"occludedMarkers": "hidden", "earth": "sphere", "markers": [{"position": {"latitude": 1, "longitude": 2}}]}}"#,
            #"{"map": {"terrain": {"file": "t.png", "bounds": [-1, -1, 1, 1]}, "occludedMarkers": {"dimmed": 0.3}}}"#,
            #"{"map": {"terrain": {"columns": 2, "rows": 2, "bounds": [0, 0, 0.01, 0.01], "samples": [1, 2, 3.5, -4]}}}"#,
            #"{"map": {"imagery": {"file": "i.png", "bounds": [170, -1, -170, 1], "projection": "webMercator", "shading": 0.5}, "sun": {"azimuth": 135, "altitude": 30}}}"#,
            ##"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {"zstack": {"alignment": "topLeading", "children": [{"circle": {"fill": "#FF000080"}}, {"spacer": {}}]}, "modifiers": [{"frame": {"maxWidth": "infinity", "height": 20}}, {"font": {"size": 12, "weight": "bold", "design": "serif"}}, {"clipShape": {"roundedRectangle": {"cornerRadius": 4}}}, {"shadow": {"radius": 2}}, {"padding": {"top": 1, "horizontal": 2}}]}}]}}"##,
            #"{"map": {"markers": [{"type": "marker3D", "position": {"latitude": 1, "longitude": 2}, "style": "default"}, {"type": "marker3D", "position": {"latitude": 1, "longitude": 2}, "style": {"image": {"systemName": "star.fill"}}}]}}"#,
        ]
        for scene in scenes {
            #expect((try? SceneDecoder.decode(Array(scene.utf8))) != nil, "decoder rejects \(scene)")
            let errors = validator.validate(try node(scene))
            #expect(errors.isEmpty, "schema rejects \(scene): \(errors)")
        }
    }
}
