// Scene → Pixmap: the background, then the map (terrain, markers, popovers) if the scene has one.
import TerrapinGeometry
import TerrapinRaster
import TerrapinScene
import TerrapinTerrain
import TerrapinViews

public enum RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidSize(String)
    /// The terrain file could not be loaded.
    case terrain(TerrainError)
    /// A view could not be laid out or drawn (an unknown font, an unreadable image file, …).
    case view(String)
    /// A referenced file lies outside the directory the scene is confined to.
    case confined(ConfinementError)

    public var description: String {
        switch self {
        case .invalidSize(let problem): "cannot render: \(problem)"
        case .terrain(let error): "cannot render: \(error)"
        case .view(let message): "cannot render: \(message)"
        case .confined(let error): "refusing to render: \(error)"
        }
    }
}

/// A scene ready to render and tap: the map is built once, so taps change its state.
public struct PreparedScene {
    public let scene: Scene
    public let map: Map?

    /// With `root`, every file the scene reads must resolve inside that directory (for scenes
    /// from untrusted sources): no `..` or absolute path out, no symbolic link out.
    public init(_ scene: Scene, root: String? = nil) throws(RenderError) {
        self.scene = scene
        if let spec = scene.map {
            let builder = SceneBuilder(directory: scene.directory)
            if let root {
                do { try builder.checkConfinement(spec, root: root) } catch { throw RenderError.confined(error) }
            }
            do { map = try builder.map(spec).time(scene.time) } catch { throw RenderError.terrain(error) }
        } else {
            map = nil
        }
    }

    var framed: some View { framed(at: nil) }

    func framed(at time: Double?) -> some View {
        var m = map ?? Map(mode: .roadmap)
        if let time { m.time = time }
        return m.frame(width: Double(scene.output.width), height: Double(scene.output.height))
    }

    /// Taps at `point` (points from the top-left): runs what is hit there. Returns what was hit
    /// (the label of the view that took the tap), or nil when nothing did.
    @discardableResult
    public func tap(at point: Point, time: Double? = nil) throws(RenderError) -> String?? {
        guard map != nil else { return nil }
        let t = time ?? scene.time
        do { return try ViewRenderer.tap(framed(at: t), at: point, time: t) } catch { throw RenderError.view(String(describing: error)) }
    }

    /// Where markers and popovers land, and why hidden ones are hidden.
    public func resolve(at time: Double? = nil) throws(RenderError) -> ResolvedScene? {
        guard var map else { return nil }
        if let time { map.time = time }
        do {
            return try MapResolver.resolve(map, width: Double(scene.output.width), height: Double(scene.output.height))
        } catch {
            throw RenderError.view(String(describing: error))
        }
    }

    /// The scene at its own time, or at `time` seconds (for frames of a flight).
    public func render(at time: Double? = nil) throws(RenderError) -> Pixmap {
        let output = scene.output
        if let problem = output.sizeProblem { throw RenderError.invalidSize(problem) }
        guard map != nil else {
            guard var pixmap = Pixmap(width: output.pixelWidth, height: output.pixelHeight) else {
                throw RenderError.invalidSize("\(output.pixelWidth)x\(output.pixelHeight) pixels")
            }
            pixmap.fill(output.background.premultiplied)
            return pixmap
        }
        let b = output.background
        let background = Color(red: Double(b.red) / 255, green: Double(b.green) / 255, blue: Double(b.blue) / 255, opacity: Double(b.alpha) / 255)
        do {
            return try ViewRenderer.render(framed(at: time), scale: output.scale, background: background, time: time ?? scene.time)
        } catch {
            throw RenderError.view(String(describing: error))
        }
    }
}

public enum SceneRenderer {
    public static func render(_ scene: Scene) throws(RenderError) -> Pixmap {
        try PreparedScene(scene).render()
    }
}
