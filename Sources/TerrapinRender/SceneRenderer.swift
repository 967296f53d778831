// Scene → Pixmap. For now the scene is its output options: the canvas and its background.
// Map content (terrain, markers, popovers) is drawn here as it lands.
import TerrapinRaster
import TerrapinScene

public enum RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidSize(String)

    public var description: String {
        switch self {
        case .invalidSize(let problem): "cannot render: \(problem)"
        }
    }
}

public enum SceneRenderer {
    public static func render(_ scene: Scene) throws(RenderError) -> Pixmap {
        let output = scene.output
        if let problem = output.sizeProblem { throw RenderError.invalidSize(problem) }
        guard var pixmap = Pixmap(width: output.pixelWidth, height: output.pixelHeight) else {
            throw RenderError.invalidSize("\(output.pixelWidth)x\(output.pixelHeight) pixels")
        }
        pixmap.fill(output.background.premultiplied)
        return pixmap
    }
}
