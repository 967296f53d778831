// PMTiles v3 (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md): a 127-byte
// header, a root directory, optional leaf directories, JSON metadata and tile data, in one
// file read by offset. Directories are varint columns (tile-id deltas, run lengths, lengths,
// offsets where 0 means "right after the previous entry"); an entry with run length 0 points at
// a leaf directory. Tile ids number tiles along a Hilbert curve, zoom by zoom.
//
// Hostile-input rules: every offset and length is checked against its section and the file
// before reading; entry counts against the bytes that hold them before allocating; leaf
// directories nest at most 4 deep; directories inflate to at most 64 MiB. Compression: none,
// gzip (zlib), brotli (libbrotlidec) or zstd (libzstd, windows up to 8 MiB).
import TerrapinCodecs
import TerrapinIO

public final class PMTiles: TileSource {
    public let path: String
    public let info: TileSourceInfo
    public let header: Header
    /// The metadata JSON's text, as stored (inflated).
    public let metadata: String
    /// The archive's bytes: a local file, or a URL read by HTTP range requests.
    let file: any ByteRanges
    let root: [Entry]
    /// Leaf directories read so far, by offset (a few dozen at most in practice; bounded).
    private let leaves = Locked<[Int: [Entry]]>([:])

    public struct Header: Equatable, Sendable {
        public var rootOffset = 0, rootLength = 0, metadataOffset = 0, metadataLength = 0
        public var leafOffset = 0, leafLength = 0, dataOffset = 0, dataLength = 0
        public var addressedTiles = 0, tileEntries = 0, tileContents = 0
        public var clustered = false
        public var internalCompression: Compression = .none, tileCompression: Compression = .none
        public var tileType: TileType = .unknown
        public var minZoom = 0, maxZoom = 0
        public var bounds: [Double] = []
        public var centerZoom = 0
        public var center: [Double] = []
    }

    public enum Compression: UInt8, Sendable {
        case unknown = 0, none = 1, gzip = 2, brotli = 3, zstd = 4
    }

    public struct Entry: Equatable, Sendable {
        public var tileID: UInt64
        public var offset: Int
        public var length: Int
        /// Tiles from tileID on that share these bytes; 0: the entry is a leaf directory.
        public var runLength: Int
    }

    static let maxDirectoryBytes = 64 * 1024 * 1024
    /// The most bytes the metadata may have, stored or inflated (a planet's is a few hundred KiB).
    public static let maxMetadataBytes = 16 << 20
    static let maxLeafDepth = 4
    static let maxCachedLeaves = 256

    public convenience init(_ path: String, files: FileAccess = .unrestricted) throws(TileError) {
        let file: RandomAccessFile
        do { file = RandomAccessFile(try files.open(path)) } catch { throw .file(error) }
        try self.init(LocalFile(file))
    }

    /// The archive in `file` (a local file, or `RemoteFile`: the header and root directory come
    /// from its first 16 KiB, which it reads in one request).
    public init(_ file: any ByteRanges) throws(TileError) {
        self.file = file
        let path = file.path
        self.path = path
        let bytes = try file.read(offset: 0, count: min(file.size, 127))
        header = try Self.parseHeader(bytes, path: path, fileSize: file.size)
        root = try Self.directory(file, header: header, offset: header.rootOffset, length: header.rootLength, path: path)
        var metadata = "{}"
        if header.metadataLength > 0 {
            guard header.metadataLength <= Self.maxMetadataBytes else {
                throw .corrupt(path: path, what: "its metadata is \(header.metadataLength) bytes, more than \(Self.maxMetadataBytes)")
            }
            let raw = try file.read(offset: header.metadataOffset, count: header.metadataLength)
            let text = try Self.decompress(raw, header.internalCompression, path: path, what: "metadata", limit: Self.maxMetadataBytes)
            try Self.charge(text.count, "the metadata of '\(path)'", path: path)
            metadata = String(decoding: text, as: UTF8.self)
        }
        self.metadata = metadata
        let fields = TileMetadata.fields(ofJSON: metadata)
        info = TileSourceInfo(type: header.tileType, minZoom: header.minZoom, maxZoom: header.maxZoom,
                              bounds: header.bounds, attribution: fields["attribution"], name: fields["name"])
    }

    public func tile(_ id: TileID) throws(TileError) -> [UInt8]? {
        guard id.isValid, id.z >= header.minZoom, id.z <= header.maxZoom else { return nil }
        let target = Self.tileID(id)
        var entries = root
        for depth in 0...Self.maxLeafDepth {
            guard let entry = Self.find(target, in: entries) else { return nil }
            if entry.runLength > 0 {
                guard entry.offset <= header.dataLength, entry.length <= header.dataLength - entry.offset, entry.length <= TileSources.maxTileBytes else {
                    throw .corrupt(path: path, what: "tile \(id) lies outside the tile data section")
                }
                let raw = try file.read(offset: header.dataOffset + entry.offset, count: entry.length)
                if header.tileCompression == .none || header.tileCompression == .unknown {
                    return try TileSources.ungzipped(raw, source: "tile \(id) of '\(path)'")
                }
                return try Self.decompress(raw, header.tileCompression, path: path, what: "tile \(id)", limit: TileSources.maxTileBytes)
            }
            guard depth < Self.maxLeafDepth else { break }
            entries = try leaf(at: entry.offset, length: entry.length)
        }
        throw .corrupt(path: path, what: "leaf directories nest deeper than \(Self.maxLeafDepth)")
    }

    func leaf(at offset: Int, length: Int) throws(TileError) -> [Entry] {
        if let hit = leaves.withLock({ $0[offset] }) { return hit }
        guard offset <= header.leafLength, length <= header.leafLength - offset else {
            throw .corrupt(path: path, what: "a leaf directory lies outside the leaf section")
        }
        let entries = try Self.directory(file, header: header, offset: header.leafOffset + offset, length: length, path: path)
        leaves.withLock { cache in
            if cache.count >= Self.maxCachedLeaves { cache.removeAll() }
            cache[offset] = entries
        }
        return entries
    }

    /// The entry whose range holds `target`: the last with tileID ≤ target, if it is a leaf or
    /// its run reaches the target.
    static func find(_ target: UInt64, in entries: [Entry]) -> Entry? {
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].tileID <= target { lo = mid + 1 } else { hi = mid }
        }
        guard lo > 0 else { return nil }
        let e = entries[lo - 1]
        if e.runLength == 0 { return e }
        return target - e.tileID < UInt64(e.runLength) ? e : nil
    }

    // MARK: Tile ids

    /// The Hilbert-curve tile id: tiles of all lower zooms first, then the curve index.
    public static func tileID(_ id: TileID) -> UInt64 {
        var acc: UInt64 = 0
        for tz in 0..<id.z { acc += UInt64(1) << (2 * tz) }
        var x = UInt64(id.x), y = UInt64(id.y), d: UInt64 = 0
        var s = (UInt64(1) << id.z) / 2
        while s > 0 {
            let rx: UInt64 = x & s > 0 ? 1 : 0
            let ry: UInt64 = y & s > 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 { x = s - 1 &- x; y = s - 1 &- y }
                swap(&x, &y)
            }
            // Keep only the bits below s (the reflection above works modulo s).
            x &= s - 1
            y &= s - 1
            s /= 2
        }
        return acc + d
    }

    /// The tile a Hilbert id names (the inverse of `tileID`), or nil beyond zoom 30.
    public static func tile(forID value: UInt64) -> TileID? {
        var acc: UInt64 = 0
        for z in 0...30 {
            let count = UInt64(1) << (2 * z)
            if value < acc + count {
                var t = value - acc, x: UInt64 = 0, y: UInt64 = 0
                var s: UInt64 = 1
                let n = UInt64(1) << z
                while s < n {
                    let rx = 1 & (t / 2), ry = 1 & (t ^ rx)
                    if ry == 0 {
                        if rx == 1 { x = s - 1 - x; y = s - 1 - y }
                        swap(&x, &y)
                    }
                    x += s * rx
                    y += s * ry
                    t /= 4
                    s *= 2
                }
                return TileID(z: z, x: Int(x), y: Int(y))
            }
            acc += count
        }
        return nil
    }

    // MARK: Parsing

    public static func parseHeader(_ b: [UInt8], path: String, fileSize: Int) throws(TileError) -> Header {
        guard b.count == 127, b.starts(with: Array("PMTiles".utf8)) else {
            // Versions 1 and 2 start "PM" and a little-endian 16-bit version.
            if b.count >= 4, b[0] == 0x50, b[1] == 0x4D, b[2] == 1 || b[2] == 2, b[3] == 0 {
                throw .unsupported(path: path, what: "PMTiles version \(b[2]); convert it to v3 (`pmtiles convert`)")
            }
            if b.starts(with: Array("PMTiles".utf8)) { throw .corrupt(path: path, what: "it is \(b.count) bytes, shorter than the 127-byte header") }
            throw .corrupt(path: path, what: "it does not start with a PMTiles v3 header (127 bytes, \"PMTiles\")")
        }
        guard b[7] == 3 else { throw .unsupported(path: path, what: "PMTiles version \(b[7]); Terrapin reads version 3") }
        func u64(_ at: Int) -> Int {
            var v: UInt64 = 0
            for i in 0..<8 { v |= UInt64(b[at + i]) << (8 * i) }
            return v > UInt64(Int.max) ? Int.max : Int(v)
        }
        func i32(_ at: Int) -> Double {
            var v: UInt32 = 0
            for i in 0..<4 { v |= UInt32(b[at + i]) << (8 * i) }
            return Double(Int32(bitPattern: v)) / 10_000_000
        }
        var h = Header()
        h.rootOffset = u64(8); h.rootLength = u64(16)
        h.metadataOffset = u64(24); h.metadataLength = u64(32)
        h.leafOffset = u64(40); h.leafLength = u64(48)
        h.dataOffset = u64(56); h.dataLength = u64(64)
        h.addressedTiles = u64(72); h.tileEntries = u64(80); h.tileContents = u64(88)
        h.clustered = b[96] == 1
        guard let ic = Compression(rawValue: b[97]), let tc = Compression(rawValue: b[98]) else {
            throw .corrupt(path: path, what: "compression codes \(b[97]) and \(b[98]) are not 0–4")
        }
        h.internalCompression = ic
        h.tileCompression = tc
        h.tileType = [0: .unknown, 1: .mvt, 2: .png, 3: .jpeg, 4: .webp, 5: .avif][b[99]] ?? .unknown
        h.minZoom = Int(b[100]); h.maxZoom = Int(b[101])
        h.bounds = [i32(102), i32(106), i32(110), i32(114)]
        h.centerZoom = Int(b[118])
        h.center = [i32(119), i32(123)]
        guard h.minZoom <= h.maxZoom, h.maxZoom <= 30 else { throw .corrupt(path: path, what: "zoom range \(h.minZoom)…\(h.maxZoom) is not within 0…30") }
        for (name, offset, length) in [("root directory", h.rootOffset, h.rootLength), ("metadata", h.metadataOffset, h.metadataLength),
                                       ("leaf directories", h.leafOffset, h.leafLength), ("tile data", h.dataOffset, h.dataLength)] {
            guard offset <= fileSize, length <= fileSize - offset else {
                throw .corrupt(path: path, what: "the \(name) (bytes \(offset), length \(length)) lies beyond the file's end (\(fileSize) bytes)")
            }
        }
        guard h.rootLength <= 16384 - 127 || h.rootOffset != 127 else {
            throw .corrupt(path: path, what: "the root directory is \(h.rootLength) bytes; the format allows 16,257")
        }
        return h
    }

    static func directory(_ file: any ByteRanges, header: Header, offset: Int, length: Int, path: String) throws(TileError) -> [Entry] {
        guard length <= maxDirectoryBytes else { throw .corrupt(path: path, what: "a directory of \(length) bytes") }
        let raw = try file.read(offset: offset, count: length)
        let bytes = try decompress(raw, header.internalCompression, path: path, what: "directories")
        try charge(bytes.count, "a directory of '\(path)'", path: path)
        return try parseDirectory(bytes, path: path)
    }

    /// Inflated metadata and directories, charged to the render's work budget (an archive opened
    /// by an earlier render in the process, or a directory it cached, is not charged again).
    static func charge(_ bytes: Int, _ what: @autoclosure () -> String, path: String) throws(TileError) {
        guard WorkMeter.spend(.decodedBytes, Double(bytes), on: what()) else {
            throw .corrupt(path: path, what: "reading it would pass \(WorkMeter.noRoom)")
        }
    }

    /// Gzip, brotli or zstd, inflated within `limit`.
    static func decompress(_ raw: [UInt8], _ compression: Compression, path: String, what: String, limit: Int = maxDirectoryBytes) throws(TileError) -> [UInt8] {
        let source = "\(what) of '\(path)'"
        do {
            switch compression {
            case .none, .unknown: return raw
            case .gzip: return try Inflate.decompress(raw, limit: limit, source: source)
            case .brotli: return try Inflate.brotli(raw, limit: limit, source: source)
            case .zstd: return try Inflate.zstd(raw, limit: limit, source: source)
            }
        } catch { throw .codec(error) }
    }

    /// Decodes a directory's varint columns.
    public static func parseDirectory(_ b: [UInt8], path: String = "PMTiles data") throws(TileError) -> [Entry] {
        var at = 0
        func varint() throws(TileError) -> UInt64 {
            var value: UInt64 = 0, shift: UInt64 = 0
            while true {
                guard at < b.count else { throw .corrupt(path: path, what: "a directory ends inside a number") }
                let byte = b[at]
                at += 1
                guard shift < 64 else { throw .corrupt(path: path, what: "a directory number longer than 64 bits") }
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
        }
        let count = try varint()
        // Each entry takes at least four bytes (one per column).
        guard count <= UInt64(b.count / 4) else {
            throw .corrupt(path: path, what: "a directory claims \(count) entries in \(b.count) bytes")
        }
        let n = Int(count)
        var entries = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: n)
        var last: UInt64 = 0
        for i in 0..<n {
            let (sum, overflow) = last.addingReportingOverflow(try varint())
            guard !overflow else { throw .corrupt(path: path, what: "tile ids overflow") }
            last = sum
            entries[i].tileID = sum
        }
        for i in 0..<n {
            let v = try varint()
            guard v <= UInt64(UInt32.max) else { throw .corrupt(path: path, what: "a run length of \(v)") }
            entries[i].runLength = Int(v)
        }
        for i in 0..<n {
            let v = try varint()
            guard v > 0, v <= UInt64(Int32.max) else { throw .corrupt(path: path, what: "an entry of length \(v)") }
            entries[i].length = Int(v)
        }
        for i in 0..<n {
            let v = try varint()
            if v == 0 {
                guard i > 0 else { throw .corrupt(path: path, what: "the first entry's offset is 'after the previous one'") }
                entries[i].offset = entries[i - 1].offset + entries[i - 1].length
            } else {
                guard v - 1 <= UInt64(Int.max / 2) else { throw .corrupt(path: path, what: "an offset of \(v - 1)") }
                entries[i].offset = Int(v - 1)
            }
        }
        guard at == b.count else { throw .corrupt(path: path, what: "\(b.count - at) bytes after a directory's last entry") }
        return entries
    }
}
