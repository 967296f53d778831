// Every way decoding or encoding a JPEG, a WebP or a compressed stream can fail, each with a
// message that names the source and says what to do. (PNG keeps its own PNGError.)
import TerrapinIO
import TerrapinPNG

public enum CodecError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes are no image format Terrapin reads.
    case unknownFormat(source: String, detail: String)
    /// The structure or compressed data is damaged; `reason` comes from the library.
    case corrupt(source: String, format: String, reason: String)
    /// The header declares a size beyond the decoding limits (checked before allocating).
    case tooLarge(source: String, width: Int, height: Int, limit: String)
    /// A stream inflates to more than its limit (checked while inflating).
    case inflatedTooLarge(source: String, limit: Int)
    /// A feature of the format Terrapin does not read (animated WebP, an unknown compression).
    case unsupported(source: String, what: String)
    /// The encoder refused (out of memory, or an internal error).
    case encodingFailed(format: String, reason: String)
    case png(PNGError)
    case file(FileError)

    public var description: String {
        switch self {
        case .unknownFormat(let source, let detail):
            return "\(source) is not a PNG, JPEG or WebP image (\(detail)); give one of those"
        case .corrupt(let source, let format, let reason):
            return "\(source) is a damaged \(format): \(reason); re-export or re-download it"
        case .tooLarge(let source, let width, let height, let limit):
            return "\(source) is \(width)x\(height) pixels, beyond the limit (\(limit)); use a smaller image"
        case .inflatedTooLarge(let source, let limit):
            return "\(source) inflates to more than \(limit) bytes, the limit; it is damaged or not what it claims"
        case .unsupported(let source, let what):
            return "\(source): \(what)"
        case .encodingFailed(let format, let reason):
            return "\(format) encoding failed: \(reason)"
        case .png(let e): return e.description
        case .file(let e): return e.description
        }
    }
}
