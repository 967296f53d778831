// Typed errors for 3D models: which file, where in its JSON (path and line:column), what is
// wrong and what to do. Every way a glTF file can be malformed ends here, never in a trap.
import TerrapinCodecs
import TerrapinIO

public enum ModelError: Error, Equatable, Sendable, CustomStringConvertible {
    case file(FileError)
    /// The structure is wrong: `at` is the JSON path with its line and column (or a place in
    /// the binary container), `detail` what is wrong there.
    case malformed(source: String, at: String, detail: String)
    /// A required extension Terrapin does not implement (mesh compression, Basis textures…).
    case unsupportedExtension(source: String, name: String)
    /// A count beyond its limit, checked before anything that size is allocated.
    case tooLarge(source: String, what: String, count: Int, limit: Int)
    /// A texture image that cannot be decoded.
    case image(source: String, index: Int, CodecError)

    public var description: String {
        switch self {
        case .file(let e): return "model: " + e.description
        case .malformed(let source, let at, let detail):
            return "model \(source): \(at): \(detail); fix or re-export the file (a glTF validator names the same problem)"
        case .unsupportedExtension(let source, let name):
            return "model \(source) requires the extension \(name), which Terrapin does not implement; re-export it without \(name) "
                + "(for example `gltf-transform copy` after decompressing, or the exporter's option to turn it off)"
        case .tooLarge(let source, let what, let count, let limit):
            return "model \(source) has \(count) \(what), more than the limit of \(limit); simplify or split the model"
        case .image(let source, let index, let e):
            return "model \(source), images[\(index)]: \(e.description)"
        }
    }
}

/// What a model may hold; every count is checked before what it sizes is allocated.
public struct ModelLimits: Equatable, Sendable {
    /// The .glb or .gltf file, and each external buffer or image it names.
    public var maxFileBytes = 256 * 1024 * 1024
    /// All buffers together.
    public var maxBufferBytes = 512 * 1024 * 1024
    /// Elements of one accessor (three indices per triangle).
    public var maxAccessorCount = 6_000_000
    /// Components read from all accessors together (an accessor without a buffer view is zeros
    /// that cost memory but no file bytes).
    public var maxComponentsRead = 48_000_000
    /// Vertices and triangles drawn, over every instance of every mesh.
    public var maxVertices = 2_000_000
    public var maxTriangles = 2_000_000
    /// Pixels of one texture image, and of all of them.
    public var maxTexturePixels = 4096 * 4096
    public var maxTotalTexturePixels = 4 * 4096 * 4096
    /// Nodes, and how deep the node hierarchy may nest.
    public var maxNodes = 100_000
    public var maxNodeDepth = 64
    /// Nodes drawn (a mesh referenced by many nodes counts once per node).
    public var maxInstances = 100_000

    public init() {}
    public static let `default` = ModelLimits()
}
