// A regular file read at offsets (pread), for archives too large to read whole (PMTiles,
// GeoTIFF), opened through FileAccess (so never a FIFO, device or kernel file); thread-safe
// (pread has no shared file position).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

public final class RandomAccessFile: Sendable {
    public let path: String
    /// Bytes in the file when it was opened.
    public let size: Int
    /// The open descriptor, for a C library that reads by descriptor (duplicate it to keep it
    /// past this object's life).
    public var descriptor: Int32 { file.fd }
    private let file: OpenFile
    private var fd: Int32 { file.fd }

    public init(_ file: OpenFile) {
        self.file = file
        path = file.path
        size = file.size
    }

    /// `count` bytes from `offset`; throws unless all of them lie within the file.
    public func read(offset: Int, count: Int) throws(FileError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else {
            throw FileError(path: path, operation: "read",
                            reason: .system(code: EINVAL, message: "bytes \(offset)..<\(offset &+ count) lie beyond its end (\(size) bytes); the file is truncated or damaged"))
        }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, operation: "read", errno: errno)
            }
            if n == 0 {
                throw FileError(path: path, operation: "read", reason: .system(code: EIO, message: "it shrank while being read"))
            }
            done += n
        }
        return bytes
    }
}
