// SwiftUI's app entry, so an iOS app's `@main struct MyApp: App { var body: some Scene {
// WindowGroup { ContentView() } } }` compiles unchanged. Run headless, the app draws its window's
// content once into a PNG: `MyApp --output screen.png [--size 390x844] [--scale 2] [--time 0]`.
import Foundation
import TerrapinGeometry

/// A part of an app's interface (SwiftUI's `Scene`): here, a window group.
public protocol Scene {
    associatedtype Body: Scene
    @AppSceneBuilder var body: Body { get }
}

extension Never: Scene {}

/// What an app's scene shows: the root view of its window.
protocol WindowScene {
    var rootView: AnyView { get }
}

/// The app's window (SwiftUI's `WindowGroup`): its content is what the app draws.
public struct WindowGroup<Content: View>: Scene, WindowScene {
    let content: Content
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    public init(_ title: String, @ViewBuilder content: () -> Content) { self.content = content() }
    public var body: Never { fatalError("WindowGroup is a primitive scene") }
    var rootView: AnyView { AnyView(content) }
}

/// Collects an app's scenes (SwiftUI's `SceneBuilder`; not named so: `SceneBuilder` is the
/// load stage's). The first window group is the one drawn.
@resultBuilder
public enum AppSceneBuilder {
    public static func buildBlock<S: Scene>(_ scene: S) -> S { scene }
    public static func buildBlock<each S: Scene>(_ scenes: repeat each S) -> TupleScene<repeat each S> { TupleScene(repeat each scenes) }
}

/// Several scenes (the builder's).
public struct TupleScene<each S: Scene>: Scene, WindowScene {
    let scenes: (repeat each S)
    init(_ scenes: repeat each S) { self.scenes = (repeat each scenes) }
    public var body: Never { fatalError("TupleScene is a primitive scene") }
    var rootView: AnyView {
        for scene in repeat each scenes { if let window = firstWindow(scene) { return window } }
        return AnyView(EmptyView())
    }
}

/// The root view of the first window group in `scene`.
func firstWindow<S: Scene>(_ scene: S) -> AnyView? {
    if let window = scene as? WindowScene { return window.rootView }
    if S.Body.self == Never.self { return nil }
    return firstWindow(scene.body)
}

/// An app (SwiftUI's `App`). `@main` runs `main()`, which draws the first window's content.
public protocol App {
    associatedtype Body: Scene
    @AppSceneBuilder var body: Body { get }
    init()
}

extension App {
    /// Draws the app's window into the PNG its arguments name; a bad argument is reported on
    /// standard error with exit status 2, and no file is left behind.
    public static func main() {
        exit(run(arguments: Array(CommandLine.arguments.dropFirst())))
    }

    /// `main()`'s work: 0 when the PNG was written, 2 (with a message on standard error) when not.
    public static func run(arguments: [String]) -> Int32 {
        do {
            let options = try AppRunOptions(arguments[...])
            let view = firstWindow(Self().body) ?? AnyView(EmptyView())
            let png = try ViewRenderer.renderPNG(view.frame(width: options.width, height: options.height), scale: options.scale,
                                                 background: .white, time: options.time)
            // Written beside the target and renamed into place: a failed run leaves no partial file.
            let temporary = options.output + ".partial-\(getpid())"
            try Data(png).write(to: URL(fileURLWithPath: temporary))
            if rename(temporary, options.output) != 0 {
                unlink(temporary)
                throw AppRunOptions.Problem("cannot write \(options.output): \(String(cString: strerror(errno)))")
            }
        } catch {
            FileHandle.standardError.write(Data("\(CommandLine.arguments.first ?? "app"): \(error)\n".utf8))
            return 2
        }
        return 0
    }
}

/// `--output PATH` (required), `--size WxH` (points; default an iPhone's 390×844), `--scale N`
/// (1…4, default 2), `--time T` (seconds from the start, default 0).
struct AppRunOptions {
    struct Problem: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
    var output = ""
    var width = 390.0, height = 844.0
    var scale = 2
    var time = 0.0

    init(_ arguments: ArraySlice<String>) throws {
        var rest = arguments[...]
        func value(_ option: String) throws -> String {
            guard let v = rest.popFirst() else { throw Problem("\(option) needs a value") }
            return v
        }
        while let option = rest.popFirst() {
            switch option {
            case "--output", "-o": output = try value(option)
            case "--size":
                let parts = try value(option).split(separator: "x").compactMap { Double($0) }
                guard parts.count == 2, parts.allSatisfy({ $0 >= 1 && $0 <= 4096 }) else { throw Problem("--size takes WIDTHxHEIGHT in points, each 1 to 4096") }
                (width, height) = (parts[0], parts[1])
            case "--scale":
                guard let s = Int(try value(option)), (1...4).contains(s) else { throw Problem("--scale takes 1 to 4") }
                scale = s
            case "--time":
                guard let t = Double(try value(option)), t.isFinite, t >= 0 else { throw Problem("--time takes seconds, 0 or more") }
                time = t
            default: throw Problem("unknown argument '\(option)'; usage: --output PATH [--size WxH] [--scale N] [--time T]")
            }
        }
        guard !output.isEmpty else { throw Problem("--output PATH is needed: the app draws its window into that PNG") }
    }
}
