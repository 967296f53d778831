import Foundation
import Testing
import Terrapin
import TerrapinDiff
@testable import TerrapinSnapshotTesting
@testable import TerrapinSnapshotCore

func square(_ color: RGBA8, size: Int = 24) -> Pixmap {
    let c = Canvas(width: size, height: size)!
    c.clear(.white)
    c.fill(PathBuilder.roundedRect(Rect(x: 4, y: 4, width: Double(size - 8), height: Double(size - 8)), cornerRadius: 4), paint: Paint(color: color))
    return c.pixmap
}

let red = RGBA8(hex: "#E53935")!, blue = RGBA8(hex: "#1E88E5")!

/// A fresh directory for references and one for artifacts.
struct Sandbox {
    let root = NSTemporaryDirectory() + "terrapin-snap-" + UUID().uuidString
    var references: String { root + "/refs" }
    var artifacts: String { root + "/artifacts" }
    func files(_ dir: String) -> [String] { ((try? FileManager.default.subpathsOfDirectory(atPath: dir)) ?? []).sorted() }
    func remove() { try? FileManager.default.removeItem(atPath: root) }

    func verify(_ pixmap: Pixmap, _ mode: SnapshotRecordMode? = nil, environment: [String: String] = [:], name: String = "square",
                strategy: Snapshotting<Pixmap, Pixmap> = .image) -> SnapshotFailure? {
        verifySnapshot(of: pixmap, as: strategy, named: name, record: mode, snapshotDirectory: references,
                       artifactsDirectory: artifacts, environment: environment, filePath: "/x/SquareTests.swift", testName: "testSquare()")
    }
}

@Suite struct RecordModeTests {
    @Test func environmentDecidesTheDefault() {
        #expect(SnapshotRecordMode.fromEnvironment([:]).mode == .missing)
        #expect(SnapshotRecordMode.fromEnvironment(["CI": "true"]).mode == .never)
        #expect(SnapshotRecordMode.fromEnvironment(["CI": "true", "TERRAPIN_RECORD": "all"]).mode == .all)
        #expect(SnapshotRecordMode.fromEnvironment(["TERRAPIN_RECORD": "failed"]).mode == .failed)
        #expect(SnapshotRecordMode.fromEnvironment(["TERRAPIN_RECORD": "sometimes"]).problem?.contains("use all, missing, failed or never") == true)
    }

    @Test func missingRecordsOnceThenCompares() throws {
        let box = Sandbox()
        defer { box.remove() }
        let first = try #require(box.verify(square(red)))
        #expect(first.message.hasPrefix("recorded a new reference snapshot at \(box.references)/testSquare.square.png"))
        #expect(box.files(box.references) == ["testSquare.square.png"])
        #expect(box.verify(square(red)) == nil)
        // The stored file is canonical PNG of the same pixels.
        let stored = try PNGDecoder.decode(file: box.references + "/testSquare.square.png")
        #expect(stored == square(red))
    }

    @Test func neverAndCIDoNotRecord() throws {
        let box = Sandbox()
        defer { box.remove() }
        let never = try #require(box.verify(square(red), .never))
        #expect(never.message.contains("no reference snapshot at") && never.message.contains("TERRAPIN_RECORD=missing"))
        let ci = try #require(box.verify(square(red), environment: ["CI": "1"]))
        #expect(ci.message.contains("CI is set, so nothing is recorded"))
        #expect(box.files(box.references).isEmpty)
    }

    @Test func failedRewritesOnlyOnFailure() throws {
        let box = Sandbox()
        defer { box.remove() }
        _ = box.verify(square(red))
        let path = box.references + "/testSquare.square.png"
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(box.verify(square(red), .failed) == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let failure = try #require(box.verify(square(blue), .failed))
        #expect(failure.message.contains("record mode is failed: wrote the new snapshot"))
        #expect(box.verify(square(blue), .never) == nil)
    }

    @Test func allNeverRewritesUnchangedPixels() throws {
        let box = Sandbox()
        defer { box.remove() }
        _ = box.verify(square(red))
        let path = box.references + "/testSquare.square.png"
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let unchanged = try #require(box.verify(square(red), .all))
        #expect(unchanged.message.contains("already matches and was left unchanged"))
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == attributes[.modificationDate] as? Date)
        let changed = try #require(box.verify(square(blue), .all))
        #expect(changed.message.contains("rewrote"))
        #expect(try PNGDecoder.decode(file: path) == square(blue))
    }

    @Test func mismatchWritesNamedArtifactsAndAttachments() throws {
        let box = Sandbox()
        defer { box.remove() }
        _ = box.verify(square(red))
        let failure = try #require(box.verify(square(blue), .never))
        #expect(failure.attachments.map(\.name) == ["actual.png", "expected.png", "diff.png", "strip.png"])
        #expect(box.files(box.artifacts) == ["SquareTests", "SquareTests/testSquare.square.actual.png", "SquareTests/testSquare.square.diff.png",
                                             "SquareTests/testSquare.square.expected.png", "SquareTests/testSquare.square.strip.png"])
        #expect(failure.message.contains("snapshot testSquare.square does not match"))
        #expect(failure.message.contains("252 of 576 pixels differ (43.750%)"))
        #expect(failure.message.contains("changed regions: x 4…19, y 4…19 (16x16)"))
        #expect(failure.message.contains("re-record with TERRAPIN_RECORD=failed"))
        #expect(try PNGDecoder.decode(file: box.artifacts + "/SquareTests/testSquare.square.actual.png") == square(blue))
        // The reference is untouched.
        #expect(try PNGDecoder.decode(file: box.references + "/testSquare.square.png") == square(red))
    }

    @Test func sizeMismatchFailsWithBothSizes() throws {
        let box = Sandbox()
        defer { box.remove() }
        _ = box.verify(square(red))
        let failure = try #require(box.verify(square(red, size: 30), .never))
        #expect(failure.message.contains("sizes differ: expected 24x24, actual 30x30"))
    }

    @Test func tolerantStrategyAcceptsSmallChanges() throws {
        let box = Sandbox()
        defer { box.remove() }
        _ = box.verify(square(red))
        var nudged = square(red)
        nudged[12, 12] = RGBA8(red: 0xE3, green: 0x3A, blue: 0x36).premultiplied
        #expect(box.verify(nudged, .never) != nil, "exact by default")
        #expect(box.verify(nudged, .never, strategy: .image(.tolerant)) == nil)
    }

    @Test func parameterisedTestsMustNameSnapshots() throws {
        let failure = try #require(verifySnapshot(of: square(red), as: .image, isParameterized: true, environment: [:],
                                                  filePath: "/x/T.swift", testName: "colours(_:)"))
        #expect(failure.message.contains("must name its snapshots after its arguments"))
    }

    @Test func determinismCheckCatchesNondeterministicRenders() throws {
        let box = Sandbox()
        defer { box.remove() }
        let flaky = Counter()
        let strategy: Snapshotting<Int, Pixmap> = Snapshotting<Pixmap, Pixmap>.image.pullback { (_: Int) in square(flaky.next() % 2 == 0 ? red : blue) }
        let failure = try #require(verifySnapshot(of: 0, as: strategy, named: "x", snapshotDirectory: box.references, artifactsDirectory: box.artifacts,
                                                  checksDeterminism: true, environment: [:], filePath: "/x/T.swift", testName: "t()"))
        #expect(failure.message == "nondeterministic render: two snapshots of the same value differ")
    }

    @Test func linesShowALineDiff() throws {
        let box = Sandbox()
        defer { box.remove() }
        let text = "marker a shown\nmarker b hidden (collided with a)\nmarker c shown"
        _ = verifySnapshot(of: text, as: .lines, named: "r", snapshotDirectory: box.references, artifactsDirectory: box.artifacts,
                           environment: [:], filePath: "/x/T.swift", testName: "t()")
        let failure = try #require(verifySnapshot(of: text.replacingOccurrences(of: "c shown", with: "c occluded"), as: .lines, named: "r",
                                                  snapshotDirectory: box.references, artifactsDirectory: box.artifacts,
                                                  environment: [:], filePath: "/x/T.swift", testName: "t()"))
        #expect(failure.message.contains("- marker c shown\n+ marker c occluded"))
    }

    @Test func namesAreSanitised() {
        #expect(sanitize("testPin()") == "testPin")
        #expect(sanitize("pin(colour:scale:)") == "pin")
        #expect(sanitize("blue pin / 2x") == "blue-pin---2x")
    }
}

final class Counter: @unchecked Sendable {
    private var value = 0
    private let lock = NSLock()
    func next() -> Int { lock.lock(); defer { lock.unlock() }; value += 1; return value }
}

/// The library used as users would, against references committed beside this file.
@Suite struct AssertSnapshotTests {
    @Test func pinCard() {
        assertSnapshot(of: square(red), as: .image, named: "red")
        assertSnapshot(of: square(blue), as: .image(.tolerant), named: "blue")
    }

    @Test func scenes() {
        var scene = SceneFile()
        scene.output = OutputOptions(width: 16, height: 8, scale: 2, background: RGBA8(hex: "#8AB4F8")!)
        assertSnapshot(of: scene, as: .scene(), named: "background", checksDeterminism: true)
        assertSnapshot(of: scene, as: .scene(size: (4, 4), scale: 1), named: "overridden")
    }

    @Test(arguments: ["red", "blue"])
    func parameterised(colour: String) {
        assertSnapshot(of: square(colour == "red" ? red : blue), as: .image, named: colour)
    }
}

/// Views and maps through `.image(size:scale:)`, and a map's placement through `.resolved`.
@Suite struct ViewAndMapSnapshotTests {
    struct Badge: View {
        var body: some View {
            HStack(spacing: 4) {
                Pin(configuration: .init(backgroundColor: Color(red: 0.1, green: 0.45, blue: 0.9)))
                Text("Ferry").font(.caption).padding(4).background(Color.white).clipShape(Capsule())
            }
            .padding(6)
        }
    }

    static let camera = Camera(center: LatLngAltitude(latitude: 37.7955, longitude: -122.3937), range: 1200)
    static func ferryMap() -> Map {
        Map(initialCamera: camera, mode: .roadmap) {
            Marker(position: LatLngAltitude(latitude: 37.7955, longitude: -122.3937)) {
                Text("Ferry Building").font(.caption).padding(4).background(Color.white).clipShape(Capsule())
            }
        }
    }

    @Test func anyViewAsAnImage() {
        assertSnapshot(of: Badge(), as: .image(scale: 2), named: "badge")
        assertSnapshot(of: Badge(), as: .image(size: (120, 48), background: .white), named: "badge-framed")
    }

    @Test func aMapAsAnImageAndAsText() {
        assertSnapshot(of: Self.ferryMap(), as: .image(size: (240, 160)), named: "ferry-map")
        assertSnapshot(of: Self.ferryMap(), as: .resolved(width: 240, height: 160), named: "ferry-map")
    }
}

/// A lamp that a tap turns on, inside a root that holds no state.
private struct Lamp: View {
    @State var on = false
    var body: some View { (on ? Color.yellow : Color.gray).frame(width: 40, height: 40).onTapGesture { on.toggle() } }
}

private struct Room: View {
    var body: some View { VStack { Lamp() } }
}

@Suite struct ViewHostSnapshotTests {
    /// A hosted view is snapshotted as it is after the host's taps: the lamp stays on.
    @Test func aHostedViewKeepsItsTaps() throws {
        let box = Sandbox()
        defer { box.remove() }
        let host = ViewHost(Room())
        func verify() -> SnapshotFailure? {
            verifySnapshot(of: host, as: .image(), named: "room", record: .missing, snapshotDirectory: box.references,
                           artifactsDirectory: box.artifacts, environment: [:], filePath: "/x/RoomTests.swift", testName: "testRoom()")
        }
        #expect(verify()?.message.hasPrefix("recorded a new reference snapshot") == true)
        #expect(verify() == nil)
        #expect(try host.tap(at: Point(20, 20)) != nil)
        #expect(verify() != nil, "the lamp is on: not the recorded pixels")
        let lit = try host.render()[20, 20]
        #expect(lit.red > 200 && lit.green > 150 && lit.blue < 80, "\(lit)")
    }
}
