// SceneFile → Pixmap: the background, then the map (terrain, markers, popovers) if the scene has one.
import TerrapinCodecs
import TerrapinGeometry
import TerrapinIO
import TerrapinLoad
import TerrapinNet
import TerrapinPNG
import TerrapinRaster
import TerrapinScene
import TerrapinTypography
import TerrapinViews

public enum RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidSize(String)
    /// A file the scene names could not be loaded (terrain, imagery, tiles, a style, a model, GeoJSON).
    case load(LoadError)
    /// A font family the scene names cannot be found.
    case font(scene: String, reference: FileReference, error: TypographyError)
    /// A view could not be laid out (an unknown symbol, an unreadable image file, …).
    case layout(LayoutError)
    /// A file the scene names cannot be read: missing, not a regular file, or outside the
    /// directory the scene is confined to. Names the scene file and where in it the file is named.
    case file(scene: String, reference: FileReference?, error: FileError)
    /// An override that does not fit the scene (camera overrides without a camera).
    case overrides(String)
    /// The machine lacks what rendering needs (no fonts installed): not the scene's fault.
    case environment(String)
    /// The scene asks for more work than one render may do: its work budget (`WorkMeter`) ran out,
    /// or the drawing forecast alone (`WorkEstimate`) is over it.
    case overBudget(String)
    /// The image could not be encoded.
    case encoding(String)
    /// Whoever asked for the render stopped it (`RenderOverrides.cancellation`: the service, when
    /// the request's deadline passed) before it was done.
    case cancelled

    public var description: String {
        switch self {
        case .invalidSize(let problem): "cannot render: \(problem)"
        case .load(let error): "cannot render: \(error)"
        case .font(let scene, let reference, let error): "cannot render: scene \(scene), \(reference): \(error)"
        case .layout(let error): "cannot render: \(error)"
        case .file(let scene, let reference, let error):
            "cannot render scene \(scene)" + (reference.map { ", \($0) (\"\($0.file)\")" } ?? "") + ": \(error)"
                + (reference.map { $0.file.hasPrefix("/") ? "" : " (\"\($0.file)\" is relative to the scene file's folder)" } ?? "")
        case .overrides(let problem): problem
        case .environment(let problem): "cannot render: \(problem)"
        case .cancelled: "the render was stopped before it was done"
        case .overBudget(let problem): "refusing to render: \(problem)"
        case .encoding(let problem): "cannot encode the image: \(problem)"
        }
    }
}

/// Why views could not be laid out: the lower layer's typed error.
public enum LayoutError: Error, Equatable, Sendable, CustomStringConvertible {
    case view(ViewError)
    case text(TypographyError)
    case image(CodecError)
    case png(PNGError)
    /// An error of a type not listed above, as it describes itself.
    case other(String)

    init(_ error: any Error) {
        switch error {
        case let e as ViewError: self = .view(e)
        case let e as TypographyError: self = .text(e)
        case let e as CodecError: self = .image(e)
        case let e as PNGError: self = .png(e)
        default: self = .other(String(describing: error))
        }
    }

    public var description: String {
        switch self {
        case .view(let e): e.description
        case .text(let e): e.description
        case .image(let e): e.description
        case .png(let e): e.description
        case .other(let m): m
        }
    }
}

/// A scene ready to render and tap: the map is built once, so taps change its state. The map
/// is resolved once per time (`resolve(at:)`) and kept: render paints that display list, and a
/// tap hit-tests it (no second layout), then drops it when the tap ran a handler or closed a
/// popover (either may have changed state).
public final class PreparedScene {
    public let scene: SceneFile
    public let map: Map?
    private var last: (time: Double, resolved: ResolvedScene)?
    /// What loading the scene spent of the work budget: each render's meter starts from it.
    public let loadMeter: WorkMeter
    /// The meter of the last render (what it spent, load included), for `--timings` and tests.
    public private(set) var lastMeter: WorkMeter?

    /// With `root`, every file the scene reads must lie beneath that directory (for scenes from
    /// untrusted sources): no `..` or absolute path out, no symbolic link out — enforced on each
    /// open (FileAccess), so a file swapped after a check cannot lead out either.
    /// `network` says which hosts the scene's URLs may be read from (`root` is for files only).
    /// `budget` scales the work budget every stage draws from (`WorkMeter`; 1, the standard one,
    /// unless a test wants it small).
    public init(_ scene: SceneFile, root: String? = nil, network: NetworkAccess = .anyHost, budget: Double = 1) throws(RenderError) {
        self.scene = scene
        let meter = WorkMeter(scale: budget)
        loadMeter = meter
        if let spec = scene.map {
            var files: FileAccess
            if let root {
                do { files = try FileAccess(root: root) } catch { throw RenderError.file(scene: scene.origin.file, reference: nil, error: error) }
            } else {
                files = .unrestricted
            }
            files = files.with(network: network.narrowed(toScene: scene.hosts), remote: HTTPClient.shared)
            var builder = SceneBuilder(directory: scene.directory, files: files)
            builder.pixelRatio = scene.output.scale
            // The load stage's preflight: every named file opened, the images' headers added up,
            // the fonts looked up, before anything is decoded.
            do throws(PreflightError) { try Preflight.check(scene, builder: builder) } catch {
                switch error {
                case .file(let reference, let error): throw RenderError.file(scene: scene.origin.file, reference: reference, error: error)
                case .font(let reference, let error): throw RenderError.font(scene: scene.origin.file, reference: reference, error: error)
                case .noFonts(let error): throw RenderError.environment(error.description)
                case .imagesOverBudget(let problem): throw RenderError.overBudget(problem)
                }
            }
            // The load stage draws from the render's work budget as it decodes (images of every
            // format, tiles, archives' directories and metadata, GeoTIFF blocks, SQLite reads).
            let loaded = WorkMeter.$current.withValue(meter) { Result { () throws(LoadError) in try builder.map(spec).time(scene.time) } }
            if let refusal = meter.refusal { throw RenderError.overBudget(refusal) }
            do { map = try loaded.get() } catch { throw RenderError.load(error) }
        } else {
            map = nil
        }
    }

    /// Taps at `point` (points from the top-left) at `time` seconds (default: the scene's):
    /// runs what is hit there, at that time (the state changes it makes, and their animations,
    /// happen then). Returns what was hit, or nil when nothing took the tap.
    @discardableResult
    public func tap(at point: Point, time: Double? = nil) throws(RenderError) -> MapHit? {
        guard map != nil else { return nil }
        let t = time ?? scene.time
        guard let hit = try resolve(at: t)?.hitTest(point) else { return nil }
        Transaction.$time.withValue(t) { hit.action() }
        // A handler may have changed any state: resolve again before the next use.
        if hit.mayChangeState { last = nil }
        return hit
    }

    /// What was drawn around at `time`: the map's (a style's unsupported properties, damaged
    /// tiles) and the resolved scene's (characters no font covers), each once.
    public func warnings(at time: Double? = nil) -> [String] {
        var out = map?.warnings ?? []
        for w in (try? resolve(at: time))?.warnings ?? [] where !out.contains(w) { out.append(w) }
        return out
    }

    /// Where markers and popovers land, why hidden ones are hidden, and the display list.
    public func resolve(at time: Double? = nil) throws(RenderError) -> ResolvedScene? {
        guard var map else { return nil }
        let t = time ?? scene.time
        if let last, last.time == t { return last.resolved }
        map.time = t
        let resolved: ResolvedScene
        do {
            let layout = scene.output.layoutPoints
            resolved = try MapResolver.resolve(map, width: layout.width, height: layout.height)
        } catch let error as TypographyError where error == .noFonts {
            throw RenderError.environment(error.description)
        } catch {
            throw RenderError.layout(LayoutError(error))
        }
        last = (t, resolved)
        return resolved
    }

    /// The scene at its own time, or at `time` seconds (for frames of a flight): the
    /// background, then the resolved map painted over it.
    public func render(at time: Double? = nil) throws(RenderError) -> Pixmap {
        try render(at: time, shapes: SpriteStore())
    }

    /// `render(at:)` with the sprite store its markers' shapes share (nil: none); stopped with
    /// `RenderError.cancelled` soon after `cancellation` is cancelled (checked before and after
    /// resolve, in the ground, between the items painted and after painting). `resolved` is
    /// called once the scene is resolved and within the work budget, before painting starts
    /// (`terrapin render --timings` times the stages by it).
    ///
    /// Every stage draws from one work budget (`WorkMeter`): the meter starts with what loading
    /// spent, resolve's drawing forecast is charged before the image is allocated, and painting
    /// charges what it draws as it goes (a style's fills and lines, tiles decoded, models, images);
    /// when it runs out the render stops at its next check and throws `RenderError.overBudget`
    /// naming the input that spent last and the kind of work that spent most.
    public func render(at time: Double?, shapes: SpriteStore?, cancellation: Cancellation? = nil,
                       resolved resolvedStage: () -> Void = {}) throws(RenderError) -> Pixmap {
        let stop = Cancellation(following: cancellation)
        let meter = WorkMeter(scale: loadMeter.scale, continuing: loadMeter, stop: stop)
        let result = WorkMeter.$current.withValue(meter) {
            Result { () throws(RenderError) in try render(at: time, shapes: shapes, stop: stop, meter: meter, resolved: resolvedStage) }
        }
        lastMeter = meter
        if let refusal = meter.refusal { throw RenderError.overBudget(refusal) }
        return try result.get()
    }

    private func render(at time: Double?, shapes: SpriteStore?, stop cancellation: Cancellation, meter: WorkMeter,
                        resolved resolvedStage: () -> Void) throws(RenderError) -> Pixmap {
        if cancellation.isCancelled { throw RenderError.cancelled }
        let output = scene.output
        if let problem = output.sizeProblem { throw RenderError.invalidSize(problem) }
        // Resolved and checked against the work budget before the image is even allocated.
        let resolved = try resolve(at: time)
        if cancellation.isCancelled { throw RenderError.cancelled }
        if let resolved {
            let work = resolved.work(scale: output.drawingScale)
            // Alone over its limits: refused naming the largest kind; else charged to the meter
            // with what the load spent (the two together may still be too much).
            if !(work.share <= 1) { throw RenderError.overBudget(work.largest) }
            guard meter.spend(.forecast, work.share, on: "the drawing forecast") else { throw RenderError.overBudget(meter.refusal ?? work.largest) }
        }
        resolvedStage()
        guard let canvas = Canvas(width: output.pixelWidth, height: output.pixelHeight) else {
            throw RenderError.invalidSize("\(output.pixelWidth)x\(output.pixelHeight) pixels")
        }
        let b = output.background
        canvas.clear(Color(red: Double(b.red) / 255, green: Double(b.green) / 255, blue: Double(b.blue) / 255, opacity: Double(b.alpha) / 255).rgba)
        guard let resolved else { return canvas.pixmap }
        let layout = output.layoutPoints
        canvas.transform = .scale(output.drawingScale)
        MapPainter.paint(resolved, in: Rect(x: 0, y: 0, width: layout.width, height: layout.height), canvas: canvas,
                         scale: output.drawingScale, shapes: shapes, layers: Set(DisplayLayer.allCases), deferComposites: nil, cancellation: cancellation)
        if cancellation.isCancelled { throw RenderError.cancelled }
        return canvas.pixmap
    }
}

public enum SceneRenderer {
    public static func render(_ scene: SceneFile) throws(RenderError) -> Pixmap {
        try PreparedScene(scene).render()
    }
}
