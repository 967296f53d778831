// The strategies that render with Terrapin: scenes and views as images, scenes and maps resolved
// as text. The framework and the image and text strategies are TerrapinSnapshotCore's, exported
// from here (a test of a module below the map imports that alone, and builds before the map).
@_exported import TerrapinSnapshotCore
import Terrapin
import TerrapinDiff

extension Snapshotting where Value == SceneFile, Format == Pixmap {
    /// A scene rendered by Terrapin; `size` (points) and `scale` override the scene's output.
    public static func scene(size: (width: Int, height: Int)? = nil, scale: Int? = nil, _ options: ImageDiffOptions = .exact) -> Snapshotting {
        Snapshotting<Pixmap, Pixmap>.image(options).pullback { (scene: SceneFile) in
            var scene = scene
            if let size { scene.output.width = size.width; scene.output.height = size.height }
            if let scale { scene.output.scale = scale }
            return try SceneRenderer.render(scene)
        }
    }
}

extension Snapshotting where Value: View, Format == Pixmap {
    /// Any view — a marker design, or a `Map` — rendered by `ViewRenderer` at `scale` pixels per
    /// point over `background` at `time`: framed to `size` points when given (a `Map` offered no
    /// size is 512 × 384), else at its ideal size.
    public static func image(size: (width: Double, height: Double)? = nil, scale: Int = 1, background: Color = .clear, time: Double = 0,
                             _ options: ImageDiffOptions = .exact) -> Snapshotting {
        Snapshotting<Pixmap, Pixmap>.image(options).pullback { (view: Value) in
            guard let size else { return try ViewRenderer.render(view, scale: scale, background: background, time: time) }
            return try ViewRenderer.render(view.frame(width: size.width, height: size.height), scale: scale, background: background, time: time)
        }
    }
}

extension Snapshotting where Format == Pixmap {
    /// A hosted view (`ViewHost`: the state under its root lasts from tap to tap) rendered at
    /// its size for `size` points when given, else at its ideal size.
    public static func image<Content: View>(size: (width: Double, height: Double)? = nil, scale: Int = 1, background: Color = .clear, time: Double = 0,
                                            _ options: ImageDiffOptions = .exact) -> Snapshotting where Value == ViewHost<Content> {
        Snapshotting<Pixmap, Pixmap>.image(options).pullback { (host: ViewHost<Content>) in
            try host.render(proposal: size.map { ProposedSize(width: $0.width, height: $0.height) } ?? .unspecified, scale: scale, background: background, time: time)
        }
    }
}

extension Snapshotting where Value == SceneFile, Format == String {
    /// A scene's map resolved, as text: where each marker lands, shown or hidden and why, the
    /// draw order and popovers, then the display list layer by layer — the placement and
    /// collision a test usually means, compared as lines. `size` (points) overrides the scene's.
    public static func resolved(size: (width: Int, height: Int)? = nil) -> Snapshotting {
        Snapshotting<String, String>.lines.pullback { (scene: SceneFile) in
            var scene = scene
            if let size { scene.output.width = size.width; scene.output.height = size.height }
            guard let resolved = try PreparedScene(scene).resolve() else { return "no map\n" }
            return resolved.description + "\n" + resolved.displayList + "\n"
        }
    }
}

extension Snapshotting where Value == Map, Format == String {
    /// A map resolved for `width` × `height` points, as text (see `SceneFile`'s `.resolved`).
    public static func resolved(width: Double = 512, height: Double = 384) -> Snapshotting {
        Snapshotting<String, String>.lines.pullback { (map: Map) in
            let resolved = try MapResolver.resolve(map, width: width, height: height)
            return resolved.description + "\n" + resolved.displayList + "\n"
        }
    }
}
