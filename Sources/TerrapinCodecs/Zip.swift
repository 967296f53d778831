// Reading one member of a ZIP archive held in memory (an SRTM `.hgt.zip` as NASA and most
// mirrors serve it): the central directory at the end, the member's local header, then the
// member stored or deflated (raw DEFLATE through zlib), bounded by its declared size and a limit.

public enum Zip {
    /// The bytes of the first member whose name ends with `suffix` (case-insensitive), and its
    /// name. Zip64, encryption and methods other than stored and deflate are typed errors.
    public static func member(endingWith suffix: String, in bytes: [UInt8], limit: Int, source: String) throws(CodecError) -> (name: String, bytes: [UInt8]) {
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        func fail(_ why: String) -> CodecError { .corrupt(source: source, format: "ZIP archive", reason: why) }
        // The end-of-central-directory record: 22 bytes plus a comment of up to 65,535.
        guard bytes.count >= 22 else { throw fail("it is \(bytes.count) bytes, too short for a ZIP") }
        var eocd = -1
        for at in stride(from: bytes.count - 22, through: max(0, bytes.count - 22 - 65_535), by: -1)
        where bytes[at] == 0x50 && bytes[at + 1] == 0x4B && bytes[at + 2] == 5 && bytes[at + 3] == 6 {
            eocd = at
            break
        }
        guard eocd >= 0 else { throw fail("no end-of-central-directory record") }
        let entries = u16(eocd + 10), directorySize = u32(eocd + 12), directoryOffset = u32(eocd + 16)
        guard directoryOffset <= eocd, directorySize <= eocd - directoryOffset else { throw fail("the central directory lies outside the file") }
        var at = directoryOffset
        let wanted = suffix.lowercased()
        for _ in 0..<entries {
            guard at + 46 <= eocd, u32(at) == 0x0201_4B50 else { throw fail("a central directory entry is damaged") }
            let flags = u16(at + 8), method = u16(at + 10), compressed = u32(at + 20), size = u32(at + 24)
            let nameLength = u16(at + 28), extraLength = u16(at + 30), commentLength = u16(at + 32), local = u32(at + 42)
            guard at + 46 + nameLength <= eocd else { throw fail("a name runs past the directory") }
            let name = String(decoding: bytes[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            at += 46 + nameLength + extraLength + commentLength
            guard name.lowercased().hasSuffix(wanted) else { continue }
            guard flags & 1 == 0 else { throw .unsupported(source: source, what: "'\(name)' is encrypted") }
            guard compressed != 0xFFFF_FFFF, size != 0xFFFF_FFFF else { throw .unsupported(source: source, what: "'\(name)' is a Zip64 member") }
            guard size <= limit else { throw .inflatedTooLarge(source: source, limit: limit) }
            guard local + 30 <= bytes.count, u32(local) == 0x0403_4B50 else { throw fail("the local header of '\(name)' is damaged") }
            let start = local + 30 + u16(local + 26) + u16(local + 28)
            guard start <= bytes.count, compressed <= bytes.count - start else { throw fail("'\(name)' runs past the file's end") }
            let data = Array(bytes[start..<(start + compressed)])
            switch method {
            case 0:
                guard compressed == size else { throw fail("stored '\(name)' has two sizes") }
                return (name, data)
            case 8:
                let out = try Inflate.raw(data, limit: size, source: "'\(name)' in \(source)")
                guard out.count == size else { throw fail("'\(name)' inflates to \(out.count) bytes, not the \(size) it declares") }
                return (name, out)
            default:
                throw .unsupported(source: source, what: "'\(name)' uses compression method \(method); Terrapin reads stored and deflated members")
            }
        }
        throw .unsupported(source: source, what: "it holds no member ending in \(suffix)")
    }
}
