// The package's shape, checked as a user and a newcomer meet it: code outside the package
// that qualifies names with the module (`Terrapin.Polyline`, as iOS code writes
// `GoogleMaps3D.Polyline`) compiles; every import is stated in Package.swift; C modules are
// imported by one Swift file each.
import Foundation
import Testing
import TerrapinCodecs
import TerrapinNet
import TerrapinServe
import TerrapinTerrainData
import TerrapinTestSupport

@Suite struct RepositoryTests {
    /// The targets of Package.swift and the dependencies each states.
    static func manifest() throws -> [String: Set<String>] {
        let text = try String(contentsOfFile: Repository.root + "/Package.swift", encoding: .utf8)
        let target = try NSRegularExpression(pattern: #"\.(?:target|executableTarget|testTarget)\(\s*name:\s*"([^"]+)"(?:\s*,\s*dependencies:\s*\[([^\]]*)\])?"#)
        let quoted = try NSRegularExpression(pattern: #""([^"]+)""#)
        var targets: [String: Set<String>] = [:]
        let whole = NSRange(text.startIndex..., in: text)
        for m in target.matches(in: text, range: whole) {
            let name = String(text[Range(m.range(at: 1), in: text)!])
            var deps: Set<String> = []
            if let r = Range(m.range(at: 2), in: text) {
                let list = String(text[r])
                for q in quoted.matches(in: list, range: NSRange(list.startIndex..., in: list)) { deps.insert(String(list[Range(q.range(at: 1), in: list)!])) }
            }
            targets[name] = deps
        }
        return targets
    }

    /// `import` lines of each Swift file below `directory` (module names only).
    static func imports(below directory: String) -> [(file: String, module: String)] {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
        let line = try! NSRegularExpression(pattern: #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|func|protocol|typealias|var|let)\s+)?(\w+)"#, options: .anchorsMatchLines)
        var found: [(String, String)] = []
        while let path = walker.nextObject() as? String {
            guard path.hasSuffix(".swift"), let text = try? String(contentsOfFile: directory + "/" + path, encoding: .utf8) else { continue }
            for m in line.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                found.append((directory + "/" + path, String(text[Range(m.range(at: 1), in: text)!])))
            }
        }
        return found
    }

    @Test func everyImportOfAPackageModuleIsStatedInPackageSwift() throws {
        let targets = try Self.manifest()
        #expect(targets.count > 40, "Package.swift was not read: \(targets.count) targets")
        let modules = Set(try FileManager.default.contentsOfDirectory(atPath: Repository.root + "/Sources"))
        var missing: [String] = []
        for root in ["Sources", "Tests"] {
            for target in try FileManager.default.contentsOfDirectory(atPath: Repository.root + "/" + root) {
                guard let stated = targets[target] else { continue }
                for (file, module) in Self.imports(below: Repository.root + "/\(root)/\(target)")
                    where modules.contains(module) && module != target && !stated.contains(module) {
                    missing.append("\(target) imports \(module) (\(file.dropFirst(Repository.root.count + 1)))")
                }
            }
        }
        #expect(missing.isEmpty, "imports Package.swift does not state:\n\(Set(missing).sorted().joined(separator: "\n"))")
    }

    /// The swift-nio rule: one Swift file wraps each C module, turning its status codes into
    /// Swift values and errors in one place.
    @Test func eachCModuleIsImportedByOneSwiftFile() throws {
        let cModules = Set(try FileManager.default.contentsOfDirectory(atPath: Repository.root + "/Sources").filter { $0.hasPrefix("C") })
        var files: [String: Set<String>] = [:]
        for (file, module) in Self.imports(below: Repository.root + "/Sources") where cModules.contains(module) {
            files[module, default: []].insert(String(file.dropFirst(Repository.root.count + 1)))
        }
        #expect(files.count >= 15, "the C modules' importers were not found: \(files.keys.sorted())")
        for (module, importers) in files.sorted(by: { $0.key < $1.key }) {
            #expect(importers.count == 1, "\(module) is imported by \(importers.count) files: \(importers.sorted())")
        }
    }

    /// A file outside the package, importing only `Terrapin`, typechecks against the modules
    /// these tests were built with — qualified names included, which a type named like the
    /// module (it was `enum Terrapin`) would shadow.
    @Test func codeOutsideThePackageQualifiesNamesWithTheModule() throws {
        let source = """
        import Terrapin

        let line: Terrapin.Polyline = Terrapin.Polyline(path: [Terrapin.LatLngAltitude(latitude: 37.8, longitude: -122.4, altitude: 0)])
        let marker: Terrapin.Marker = Terrapin.Marker(position: Terrapin.LatLngAltitude(latitude: 37.8, longitude: -122.4, altitude: 0))
        func show(_ map: Terrapin.Map) -> Terrapin.Map { map }
        let version: String = TerrapinInfo.version
        // Map.apiKey is a String, as in the SDK 1.0 (iOS code reads it as one).
        let key: String = Terrapin.Map.apiKey
        """
        let errors = try Self.typecheck(source)
        #expect(errors.isEmpty, "code outside the package does not compile:\n\(errors)")
        // And the check can fail: a name the module does not have is refused.
        let wrong = try Self.typecheck("import Terrapin\nlet x: Terrapin.NoSuchType? = nil\n")
        #expect(wrong.contains("NoSuchType"), "the typecheck accepted a name that does not exist: \(wrong)")
    }

    /// Code shaped like the SDK 1.0's sample app (its map controls, place taps, fly-along-route
    /// and encoded-path demos), with only the imports changed, typechecks outside the package:
    /// both module names
    /// (`GoogleMaps3DKit` re-exports Terrapin), the controls' builder with `if` and `Spacer`,
    /// `onPlaceTap` answering a `PlaceTapAction`, `MapTapInfo.Content`'s two cases, a data
    /// loader and a keyframe flight of `CubicKeyframe<Camera>` built in a loop, Foundation's
    /// names (`TimeInterval`) as SwiftUI's import brings them, and `PathEncodingDimensions`.
    @Test func sdk10SampleShapedCodeCompilesOutsideThePackage() throws {
        // (The second import is spliced in: the import scan above reads this file's lines.)
        let kit = "import " + "GoogleMaps3DKit"
        let source = """
        import Terrapin
        \(kit)

        struct MapControlsDemo: View {
          @State private var camera: Camera = Camera(center: .init(latitude: 37.7955, longitude: -122.3937, altitude: 0),
                                                     heading: 20, tilt: 55, range: 1800, altitudeMode: .relativeToGround)
          @State private var position: MapControlPosition = .trailing
          @State private var orientation: MapControlOrientation = .auto
          @State private var showCompass: Bool = true
          @State private var showTilt: Bool = false
          @State private var lastTappedPlaceID: String? = nil
          @State private var placeInformationEnabled: Bool = true

          var body: some View {
            VStack(spacing: 0) {
              Map(camera: $camera, mode: .hybrid)
                .mapControls(at: position, margin: 16, spacing: 8) {
                  if showCompass {
                    CompassControl()
                  }
                  ZoomControl(orientation: orientation)
                  if showTilt { TiltControl(orientation: orientation) } else { RotateControl(orientation: orientation) }
                  PanHorizontalControl(orientation: orientation)
                  PanVerticalControl(orientation: orientation)
                }
                .mapControls(at: .top) { Spacer(); CompassControl() }
                .placeInformationEnabled(placeInformationEnabled)
                .onPlaceTap { placeId in
                  lastTappedPlaceID = placeId
                  return placeId.hasPrefix("ChIJ") ? .default : .none
                }
                .onTap { info in
                  switch info.content {
                  case .map: print("map at", info.location)
                  case .place(let id): print("place", id)
                  }
                }
              Picker("Position", selection: $position) {
                Text("Trailing").tag(MapControlPosition.trailing)
                Text("Top").tag(MapControlPosition.top)
              }
              .pickerStyle(.segmented)
            }
          }
        }

        // The fly-along-route demo's shape: a data loader, keyframes built in a loop.
        final class FlightDataLoader: ObservableObject {
          @Published var flight: [Camera] = []
          init() { flight = [Camera(center: .init(latitude: 47.263, longitude: 11.3704, altitude: 640.08), heading: 237, tilt: 80, range: 200)] }
        }

        struct FlyAlongRouteDemo: View {
          @State private var camera: Camera = .init(center: .init(latitude: 47.263, longitude: 11.3704, altitude: 640.08),
                                                    heading: 237, tilt: 80.0, roll: 0.0, range: 200)
          @State private var flyToDuration: TimeInterval = 5
          @State var animation: Bool = true
          @StateObject var flightData: FlightDataLoader = FlightDataLoader()

          var body: some View {
            VStack {
              Map(camera: $camera, mode: .hybrid)
                .keyframeAnimator(
                  initialValue: flightData.flight[0],
                  trigger: animation,
                  content: { view, value in
                    Map(camera: .constant(value), mode: .hybrid)
                  },
                  keyframes: { _ in
                    KeyframeTrack(content: {
                      for i in 1...flightData.flight.count-1 {
                        makeKeyFrame(flightData.flight[i])
                      }
                    })
                  }
                )
              Button("Fly Along Route") {
                animation.toggle()
              }
            }
          }

          func makeKeyFrame(_ camera: Camera) -> CubicKeyframe<Camera> {
            return CubicKeyframe(camera, duration: flyToDuration)
          }
        }

        // The Observation era: an `@Observable` model with only `import Terrapin`, read from the
        // environment, bound with `@Bindable`; a pushed screen that dismisses itself.
        @Observable final class Tour { var stop = 0; var name = "Harbour" }
        struct TourControls: View {
          @Bindable var tour: Tour
          @Environment(\\.dismiss) private var dismiss
          var body: some View {
            VStack {
              Slider(value: Binding(get: { Double(tour.stop) }, set: { tour.stop = Int($0) }), in: 0...5)
              Toggle("Named", isOn: Binding(get: { !tour.name.isEmpty }, set: { tour.name = $0 ? "Harbour" : "" }))
              Button("Done") { dismiss() }
            }
          }
        }
        struct TourScreen: View {
          @State private var tour = Tour()
          var body: some View {
            NavigationStack {
              TourMap()
              NavigationLink("Controls") { TourControls(tour: tour) }
            }
            .environment(tour)
          }
        }
        struct TourMap: View {
          @Environment(Tour.self) private var tour
          var body: some View { Map(mode: .roadmap).overlay(Text("\\(tour.name) \\(tour.stop)")) }
        }

        let route = [LatLngAltitude](encodedPath: "_p~iF~ps|U_ulLnnqC_mqNvxq`@", dimensions: .latLng) ?? []
        let line = Polyline(path: route, altitudeMode: .relativeToMesh)
        let text: String = route.encodedPath()
        let dimensions: PathEncodingDimensions = .latLngAltitude
        let action: PlaceTapAction = .none
        // Foundation's names as `import SwiftUI` brings them (a routes API's answer decoded).
        let answer = try? JSONSerialization.jsonObject(with: Data(#"{"routes": []}"#.utf8)) as? [String: Any]
        let when: Date = Date(timeIntervalSince1970: 0)
        let formatted = String(format: "%.1f", cos(0.0))
        """
        let errors = try Self.typecheck(source)
        #expect(errors.isEmpty, "SDK 1.0-shaped code does not compile:\n\(errors)")
    }

    /// Typechecks `source` as a file of its own with the built modules (`<build>/Modules`), the
    /// C modules' maps and their libraries' headers (pkg-config); the compiler's errors, or "".
    static func typecheck(_ source: String, extraFiles: [String] = []) throws -> String {
        let build = Repository.buildDirectory
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("terrapin-outside-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try source.write(toFile: dir + "/main.swift", atomically: true, encoding: .utf8)
        let sources = Repository.root + "/Sources"
        var arguments = ["swiftc", "-typecheck", "-I", build + "/Modules"]
        for module in try FileManager.default.contentsOfDirectory(atPath: sources).sorted() where module.hasPrefix("C") {
            for map in [sources + "/\(module)/module.modulemap", build + "/\(module).build/module.modulemap"] where FileManager.default.fileExists(atPath: map) {
                arguments += ["-Xcc", "-fmodule-map-file=" + map]
            }
            if FileManager.default.fileExists(atPath: sources + "/\(module)/include") { arguments += ["-Xcc", "-I" + sources + "/\(module)/include"] }
        }
        let manifest = try String(contentsOfFile: Repository.root + "/Package.swift", encoding: .utf8)
        let packages = try NSRegularExpression(pattern: #"pkgConfig: "([^"]+)""#).matches(in: manifest, range: NSRange(manifest.startIndex..., in: manifest))
            .map { String(manifest[Range($0.range(at: 1), in: manifest)!]) }
        let flags = try Self.run(["pkg-config", "--cflags-only-I"] + Set(packages).sorted()).output
        for flag in flags.split(whereSeparator: { $0 == " " || $0 == "\n" }) { arguments += ["-Xcc", String(flag)] }
        // `#Preview`'s compiler plugin, as SwiftPM passes it to a package that depends on Terrapin.
        let plugin = build + "/TerrapinMacros-tool"
        if FileManager.default.fileExists(atPath: plugin) { arguments += ["-load-plugin-executable", plugin + "#TerrapinMacros"] }
        let files = [dir + "/main.swift"] + extraFiles
        let result = try Self.run(arguments + (extraFiles.isEmpty ? [] : ["-parse-as-library"]) + files)
        return result.status == 0 ? "" : result.output
    }

    /// The demo app (Examples/SampleApp: an iOS map app's shape, written with only `import
    /// Terrapin`, one `#Preview` a file) typechecks outside the package, as a user's app would;
    /// SampleAppTests renders and taps it.
    @Test func theDemoAppCompilesOutsideThePackage() throws {
        let app = Repository.examples + "/SampleApp"
        // The demos, and the app's `@main` entry (not in the test target, which has its own main).
        let files = try (FileManager.default.contentsOfDirectory(atPath: app).filter { $0.hasSuffix(".swift") }.sorted().map { app + "/" + $0 })
            + [app + "/App/DemoApp.swift"]
        #expect(files.count >= 8)
        for file in files {
            let imports = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("import ") }
            #expect(Set(imports).isSubset(of: ["import Terrapin", "import GoogleMaps3DKit"]), "\(file) imports \(imports)")
        }
        let errors = try Self.typecheck("", extraFiles: files)
        #expect(errors.isEmpty, "the demo app does not compile outside the package:\n\(errors)")
    }

    /// The container image installs what the binary loads: every library it names (its ELF
    /// NEEDED entries) that a Debian package provides comes from a package of
    /// deploy/runtime-packages.txt (libc6 is in every Debian root). The Swift runtime is not a
    /// package: the image's binary has it linked in.
    @Test func theImageInstallsEveryLibraryTheBinaryLoads() throws {
        let listed = Set(try String(contentsOfFile: Repository.root + "/deploy/runtime-packages.txt", encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") })
        let elf = try Self.run(["readelf", "-d", CLI.binary])
        #expect(elf.status == 0, "\(elf.output)")
        let needed = elf.output.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("(NEEDED)"), let open = line.lastIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
        #expect(needed.count > 15)
        let paths = try Self.run(["ldd", CLI.binary]).output
        var files: [(library: String, file: String)] = []
        for library in needed {
            guard let line = paths.split(separator: "\n").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(library + " => /") }) else { continue }
            files.append((library, URL(fileURLWithPath: String(line.split(separator: " ")[2])).resolvingSymlinksInPath().path))
        }
        // One dpkg -S for all of them ("package:arch: /path" a line; a file no package owns —
        // the Swift toolchain's runtime — has none, and makes the status 1).
        let owners = try Self.run(["dpkg", "-S"] + files.map(\.file)).output.split(separator: "\n")
        var checked = 0
        for (library, file) in files {
            let name = "/" + URL(fileURLWithPath: file).lastPathComponent
            guard let owner = owners.first(where: { $0.hasSuffix(name) && !$0.hasPrefix("dpkg-query:") }) else { continue }
            let package = String(owner.split(separator: ":")[0])
            if package == "libc6" { continue }
            checked += 1
            #expect(listed.contains(package), "\(library) comes from \(package), which deploy/runtime-packages.txt does not install")
        }
        // libcurl, PROJ, librsvg and libmicrohttpd (and what they bring) are not among them: their shims load
        // them when first needed (the next test).
        #expect(checked >= 12)
    }

    /// libcurl, PROJ, librsvg and libmicrohttpd are loaded when first needed (a URL, a GeoTIFF in a
    /// projected CRS, an SVG, a server started), not
    /// linked: the binary does not name them, yet they load — here, in this process, through the
    /// same loaders — and the files loaded come from packages the image installs.
    @Test func librariesLoadedWhenNeededAreNotLinkedAndTheImageInstallsThem() throws {
        let elf = try Self.run(["readelf", "-d", CLI.binary]).output
        #expect(elf.contains("(NEEDED)"))
        for name in ["libcurl", "libproj", "librsvg", "libcairo", "libglib", "libmicrohttpd", "libgnutls"] {
            #expect(!elf.split(separator: "\n").contains { $0.contains("(NEEDED)") && $0.contains("[\(name)") }, "the binary links \(name)")
        }
        #expect(HTTPClient.libraryVersion.hasPrefix("libcurl/"))
        let utm = try Reprojection(epsg: 32611, file: "test")
        var x = [500_000.0], y = [4_000_000.0]
        utm.transform(&x, &y, forward: true)
        #expect(abs(x[0] - -117) < 1e-6 && abs(y[0] - 36.14) < 0.01, "\(x) \(y)")
        let svg = try SVGDocument(Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="2"/>"#.utf8))
        #expect(svg.width == 4 && svg.height == 2)
        var configuration = HTTPServer.Configuration()
        configuration.port = 0
        let server = try HTTPServer(configuration) { _ in HTTPResponse(status: 204) }
        #expect(server.port > 0)
        server.stop()
        // Read whole by cat: /proc files report no size, and a read by size stops short.
        let maps = try Self.run(["cat", "/proc/\(getpid())/maps"]).output
        var files = Set<String>()
        for line in maps.split(separator: "\n") {
            guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last, path.hasPrefix("/") else { continue }
            let name = URL(fileURLWithPath: String(path)).lastPathComponent
            if ["libcurl", "libproj", "librsvg", "libmicrohttpd"].contains(where: { name.hasPrefix($0) }) { files.insert(String(path)) }
        }
        for name in ["/libcurl", "/libproj", "/librsvg", "/libmicrohttpd"] { #expect(files.contains { $0.contains(name) }, "\(name) not loaded: \(files)") }
        let listed = Set(try String(contentsOfFile: Repository.root + "/deploy/runtime-packages.txt", encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") })
        for file in files.sorted() {
            let owner = try Self.run(["dpkg", "-S", file]).output
            let package = String(owner.split(separator: ":")[0])
            #expect(listed.contains(package), "\(file) comes from \(package), which deploy/runtime-packages.txt does not install")
        }
    }

    /// deploy/: every terrapin command line in a manifest or script names only options its
    /// command has (checked against the binary's own --help), and where kubectl is installed,
    /// each kustomization renders the resources it should.
    @Test func deploymentManifestsNameRealOptionsAndRender() throws {
        let deploy = Repository.root + "/deploy"
        let files = try FileManager.default.subpathsOfDirectory(atPath: deploy).filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".sbatch") }
        var commands = 0
        for file in files {
            let text = try String(contentsOfFile: deploy + "/" + file, encoding: .utf8)
            // args: ["serve", "--root", …] over one or more lines, or `terrapin batch …` in a script.
            var lists: [[String]] = []
            for match in text.matches(of: /args: \[([^\]]*)\]/) {
                lists.append(String(match.1).matches(of: /"([^"]*)"/).map { String($0.1) })
            }
            for match in text.matches(of: /exec terrapin ([^\n]*(?:\\\n[^\n]*)*)/) {
                lists.append(String(match.1).split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\\" }).map(String.init))
            }
            for list in lists {
                guard let command = list.first else { continue }
                let help = try CLI.run([command, "--help"])
                #expect(help.status == 0, "\(file): terrapin \(command)")
                let text = String(decoding: help.stdout, as: UTF8.self)
                for option in list where option.hasPrefix("-") {
                    #expect(text.contains(option + " ") || text.contains(option + ","), "\(file): terrapin \(command) has no option \(option)")
                }
                commands += 1
            }
        }
        #expect(commands >= 4, "\(files)")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/kubectl") || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/kubectl") else { return }
        for (folder, kinds) in [("", ["Deployment", "HorizontalPodAutoscaler", "PersistentVolumeClaim", "Service"]),
                                ("/serve-remote", ["ConfigMap", "Deployment", "HorizontalPodAutoscaler", "Service"]), ("/batch", ["Job"])] {
            let rendered = try Self.run(["kubectl", "kustomize", deploy + folder])
            #expect(rendered.status == 0, "\(folder): \(rendered.output)")
            let found = rendered.output.split(separator: "\n").filter { $0.hasPrefix("kind: ") }.map { String($0.dropFirst(6)) }.sorted()
            #expect(found == kinds, "deploy\(folder)")
        }
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
