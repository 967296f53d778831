// A structural walk over PNG chunks, done in Swift before libpng sees the bytes.
// It gives precise errors (which chunk, which offset), checks every CRC (libpng only
// warns for ancillary chunks), rejects bytes after IEND, and reads IHDR's size so that
// limits are checked before anything is decoded.

/// One chunk: its four-letter type and where its data lies in the file.
public struct PNGChunk: Equatable, Sendable {
    public let type: String
    public let offset: Int       // offset of the length field
    public let dataRange: Range<Int>
}

public enum PNGChunks {
    /// One chunk: length, type, data and the CRC-32 of type and data (the encoders' and the
    /// animated PNG writer's).
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }

    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// PNG's CRC-32 of `bytes`.
    public static func crc32<Bytes: Collection>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        let array = Array(bytes)
        return array.withUnsafeBufferPointer { LibPNG.crc32($0.baseAddress, $0.count) }
    }

    /// Walks and checks the chunk structure of a whole PNG file.
    public static func walk(_ bytes: [UInt8], source: String) throws(PNGError) -> [PNGChunk] {
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else {
            throw PNGError.notPNG(source: source, detail: describeSignature(bytes))
        }
        var chunks: [PNGChunk] = []
        var offset = 8
        var sawIDAT = false
        while true {
            guard bytes.count - offset >= 12 else {
                throw PNGError.corrupt(source: source, reason: chunks.isEmpty
                    ? "the file ends after the signature (truncated)"
                    : "the file ends at byte \(bytes.count) inside a chunk header, before IEND (truncated)")
            }
            let length = Int(readUInt32(bytes, offset))
            let typeBytes = bytes[(offset + 4)..<(offset + 8)]
            guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw PNGError.corrupt(source: source, reason: "invalid chunk type at byte \(offset + 4)")
            }
            let type = String(decoding: typeBytes, as: UTF8.self)
            guard length <= 0x7FFF_FFFF else {
                throw PNGError.corrupt(source: source, reason: "chunk '\(type)' at byte \(offset) declares an impossible length \(length)")
            }
            guard length <= bytes.count - offset - 12 else {
                throw PNGError.corrupt(source: source, reason: "chunk '\(type)' at byte \(offset) declares \(length) bytes but the file ends first (truncated)")
            }
            let dataStart = offset + 8
            let stored = readUInt32(bytes, dataStart + length)
            let computed = bytes.withUnsafeBufferPointer { LibPNG.crc32($0.baseAddress! + offset + 4, length + 4) }
            guard stored == computed else {
                throw PNGError.corrupt(source: source, reason: "chunk '\(type)' at byte \(offset) has a bad CRC")
            }
            if chunks.isEmpty {
                guard type == "IHDR", length == 13 else {
                    throw PNGError.corrupt(source: source, reason: "the first chunk must be a 13-byte IHDR, found '\(type)' of \(length) bytes")
                }
            } else if type == "IHDR" {
                throw PNGError.corrupt(source: source, reason: "a second IHDR chunk at byte \(offset)")
            }
            if type == "IDAT" { sawIDAT = true }
            chunks.append(PNGChunk(type: type, offset: offset, dataRange: dataStart..<(dataStart + length)))
            offset = dataStart + length + 4
            if type == "IEND" {
                guard sawIDAT else { throw PNGError.corrupt(source: source, reason: "no IDAT chunk (the file holds no image data)") }
                guard offset == bytes.count else {
                    throw PNGError.corrupt(source: source, reason: "\(bytes.count - offset) bytes of unexpected data after IEND")
                }
                return chunks
            }
        }
    }

    /// Width and height from an IHDR chunk found by `walk`.
    static func size(of ihdr: PNGChunk, in bytes: [UInt8]) -> (width: Int, height: Int) {
        (Int(readUInt32(bytes, ihdr.dataRange.lowerBound)), Int(readUInt32(bytes, ihdr.dataRange.lowerBound + 4)))
    }

    /// Checks IHDR's fields (PNG spec 11.2.2) so that errors say which field is wrong.
    static func validateHeader(_ ihdr: PNGChunk, in bytes: [UInt8], source: String) throws(PNGError) {
        let base = ihdr.dataRange.lowerBound
        let (width, height) = size(of: ihdr, in: bytes)
        let (depth, colorType) = (Int(bytes[base + 8]), Int(bytes[base + 9]))
        let allowedDepths: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        func fail(_ reason: String) -> PNGError { .corrupt(source: source, reason: "IHDR: " + reason) }
        guard width > 0, height > 0 else { throw fail("the header declares an empty image (\(width)x\(height))") }
        guard let depths = allowedDepths[colorType] else { throw fail("invalid color type \(colorType)") }
        guard depths.contains(depth) else { throw fail("bit depth \(depth) is not allowed with color type \(colorType)") }
        guard bytes[base + 10] == 0 else { throw fail("unknown compression method \(bytes[base + 10])") }
        guard bytes[base + 11] == 0 else { throw fail("unknown filter method \(bytes[base + 11])") }
        guard bytes[base + 12] <= 1 else { throw fail("unknown interlace method \(bytes[base + 12])") }
    }

    /// tEXt and uncompressed iTXt entries, in file order (zTXt and compressed iTXt are skipped).
    public static func textEntries(_ bytes: [UInt8], chunks: [PNGChunk]) -> [PNGTextEntry] {
        var entries: [PNGTextEntry] = []
        for chunk in chunks where chunk.type == "tEXt" || chunk.type == "iTXt" {
            let data = Array(bytes[chunk.dataRange])
            guard let nul = data.firstIndex(of: 0) else { continue }
            let key = String(data[..<nul].map { Character(Unicode.Scalar($0)) })
            if chunk.type == "tEXt" {
                entries.append(PNGTextEntry(key: key, value: String(data[(nul + 1)...].map { Character(Unicode.Scalar($0)) })))
            } else {
                // compression flag, method, language tag \0, translated keyword \0, text
                var index = nul + 1
                guard index + 2 <= data.count, data[index] == 0 else { continue }
                index += 2
                guard let languageEnd = data[index...].firstIndex(of: 0),
                      let translatedEnd = data[(languageEnd + 1)...].firstIndex(of: 0) else { continue }
                entries.append(PNGTextEntry(key: key, value: String(decoding: data[(translatedEnd + 1)...], as: UTF8.self)))
            }
        }
        return entries
    }

    static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    private static func describeSignature(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "the file is empty" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "it looks like a JPEG" }
        if bytes.starts(with: Array("GIF8".utf8)) { return "it looks like a GIF" }
        if bytes.starts(with: Array("RIFF".utf8)) { return "it looks like a RIFF/WebP file" }
        if bytes.count < 8 && signature.starts(with: bytes) { return "the file ends inside the signature" }
        return "the first bytes are not the PNG signature"
    }
}
