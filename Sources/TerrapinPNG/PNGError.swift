// Every way reading or writing a PNG can fail, each with a message that says what to do.
import TerrapinIO

public enum PNGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bytes do not start with the PNG signature.
    case notPNG(source: String, detail: String)
    /// The structure or compressed data is damaged; `reason` comes from the chunk walk or libpng.
    case corrupt(source: String, reason: String)
    /// The header declares a size beyond the decoding limits (checked before allocating).
    case tooLarge(source: String, width: Int, height: Int, limit: String)
    /// A text chunk key or value PNG cannot hold.
    case invalidText(key: String, reason: String)
    /// libpng refused to encode (out of memory, or an internal error).
    case encodingFailed(reason: String)
    /// Reading or writing the file failed.
    case file(FileError)

    public var description: String {
        switch self {
        case .notPNG(let source, let detail):
            return "\(source) is not a PNG file (\(detail)); give a PNG image"
        case .corrupt(let source, let reason):
            return "\(source) is a damaged PNG: \(reason); re-export or re-download the image"
        case .tooLarge(let source, let width, let height, let limit):
            return "\(source) is \(width)x\(height) pixels, beyond the limit (\(limit)); use a smaller image"
        case .invalidText(let key, let reason):
            return "PNG text chunk '\(key)': \(reason)"
        case .encodingFailed(let reason):
            return "PNG encoding failed: \(reason)"
        case .file(let error):
            return error.description
        }
    }
}
