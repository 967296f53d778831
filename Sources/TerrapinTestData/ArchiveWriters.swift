// Small writers for the files hostile cases are made of: Mapbox Vector Tile layers, PMTiles v3
// archives (one directory, entries as given — so several may point at one tile's bytes), and a
// tiled GeoTIFF whose tiles are all absent (sparse). Each writes only what the cases need; the
// readers they feed are the product's own (TerrapinTiles, TerrapinBasemap, TerrapinTerrainData).
import TerrapinPNG
import TerrapinTiles

/// One layer of a vector tile: features of one kind, their tags pointing into string values.
public struct VectorTileLayer {
    public enum Kind: UInt32 { case point = 1, line = 2, polygon = 3 }
    public struct Feature {
        public var id: UInt64?
        public var kind: Kind
        /// Key index, value index pairs.
        public var tags: [UInt32]
        /// Command-encoded geometry (`command`, `zigzag`, `path`).
        public var geometry: [UInt32]
        public init(id: UInt64? = nil, kind: Kind, tags: [UInt32] = [], geometry: [UInt32]) { self.id = id; self.kind = kind; self.tags = tags; self.geometry = geometry }
    }
    public var name: String
    public var keys: [String] = []
    public var values: [String] = []
    public var features: [Feature] = []
    public var extent = 4096

    public init(name: String) { self.name = name }

    public static func command(_ id: UInt32, _ count: Int) -> UInt32 { (id & 7) | UInt32(count) << 3 }
    public static func zigzag(_ n: Int) -> UInt32 { UInt32(truncatingIfNeeded: (n << 1) ^ (n >> 63)) }
    /// A ring or line from (x, y) through the given steps, as MoveTo, LineTo (and ClosePath).
    public static func path(from x: Int, _ y: Int, steps: [(Int, Int)], closed: Bool) -> [UInt32] {
        var g = [command(1, 1), zigzag(x), zigzag(y), command(2, steps.count)]
        for (dx, dy) in steps { g.append(zigzag(dx)); g.append(zigzag(dy)) }
        if closed { g.append(command(7, 1)) }
        return g
    }

    /// The layer as protobuf bytes (the `layers` field's content).
    func encoded() -> [UInt8] {
        var out: [UInt8] = []
        Protobuf.field(1, string: name, &out)
        for f in features {
            var body: [UInt8] = []
            if let id = f.id { Protobuf.key(1, 0, &body); Protobuf.varint(id, &body) }
            if !f.tags.isEmpty { Protobuf.field(2, packed: f.tags, &body) }
            Protobuf.key(3, 0, &body); Protobuf.varint(UInt64(f.kind.rawValue), &body)
            Protobuf.field(4, packed: f.geometry, &body)
            Protobuf.field(2, bytes: body, &out)
        }
        for k in keys { Protobuf.field(3, string: k, &out) }
        for v in values {
            var value: [UInt8] = []
            Protobuf.field(1, string: v, &value)
            Protobuf.field(4, bytes: value, &out)
        }
        Protobuf.key(5, 0, &out); Protobuf.varint(UInt64(extent), &out)
        Protobuf.key(15, 0, &out); Protobuf.varint(2, &out)
        return out
    }

    /// A tile of these layers, as protobuf bytes.
    public static func encode(_ layers: [VectorTileLayer]) -> [UInt8] {
        var out: [UInt8] = []
        for l in layers { Protobuf.field(3, bytes: l.encoded(), &out) }
        return out
    }

    /// A tile of these layers, gzip-compressed as archives store them.
    public static func tile(_ layers: [VectorTileLayer]) -> [UInt8] {
        let out = encode(layers)
        return Zlib.gzip(out) ?? out
    }
}

enum Protobuf {
    static func varint(_ v: UInt64, _ out: inout [UInt8]) {
        var v = v
        while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        out.append(UInt8(v))
    }
    static func key(_ field: Int, _ wire: Int, _ out: inout [UInt8]) { varint(UInt64(field << 3 | wire), &out) }
    static func field(_ field: Int, bytes: [UInt8], _ out: inout [UInt8]) {
        key(field, 2, &out); varint(UInt64(bytes.count), &out); out += bytes
    }
    static func field(_ f: Int, string: String, _ out: inout [UInt8]) { field(f, bytes: Array(string.utf8), &out) }
    static func field(_ f: Int, packed: [UInt32], _ out: inout [UInt8]) {
        var body: [UInt8] = []
        body.reserveCapacity(packed.count * 2)
        for v in packed { varint(UInt64(v), &body) }
        field(f, bytes: body, &out)
    }
}

/// PMTiles v3 archives: for stress cases (entries that share bytes, gzipped directories) and for
/// the reader's tests (leaf directories, stored directories).
public enum PMTilesWriter {
    public struct Entry {
        public var tile: TileID, offset: Int, length: Int, runLength = 1
        public init(tile: TileID, offset: Int, length: Int, runLength: Int = 1) { self.tile = tile; self.offset = offset; self.length = length; self.runLength = runLength }
    }

    /// `entries` (sorted here by tile id) address `data`. The directory is split into leaves of
    /// `leafSize` entries when given. `compressed`: directories and metadata gzipped, and MVT
    /// tiles (tile type 1) declared gzipped (the caller gives them so); else all stored.
    public static func archive(_ entries: [Entry], data: [UInt8], metadata: String = "{}", tileType: UInt8, minZoom: Int, maxZoom: Int,
                               leafSize: Int? = nil, compressed: Bool = true) -> [UInt8] {
        let sorted = entries.map { (PMTiles.tileID($0.tile), $0) }.sorted { $0.0 < $1.0 }
        func directory(_ list: ArraySlice<(UInt64, Entry)>) -> [UInt8] {
            var out: [UInt8] = []
            Protobuf.varint(UInt64(list.count), &out)
            var last: UInt64 = 0
            for (id, _) in list { Protobuf.varint(id - last, &out); last = id }
            for (_, e) in list { Protobuf.varint(UInt64(e.runLength), &out) }
            for (_, e) in list { Protobuf.varint(UInt64(e.length), &out) }
            var previous: Entry?
            for (_, e) in list {
                // 0: right after the entry before (the format's short form), else offset + 1.
                if let p = previous, e.offset == p.offset + p.length { Protobuf.varint(0, &out) } else { Protobuf.varint(UInt64(e.offset) + 1, &out) }
                previous = e
            }
            return compressed ? Zlib.gzip(out) ?? out : out
        }
        var root: [UInt8], leaves: [UInt8] = []
        if let leafSize {
            var pointers: [(UInt64, Entry)] = []
            for start in stride(from: 0, to: sorted.count, by: max(1, leafSize)) {
                let chunk = sorted[start..<min(sorted.count, start + max(1, leafSize))]
                let bytes = directory(chunk)
                pointers.append((chunk.first!.0, Entry(tile: chunk.first!.1.tile, offset: leaves.count, length: bytes.count, runLength: 0)))
                leaves += bytes
            }
            root = directory(pointers[...])
        } else {
            root = directory(sorted[...])
        }
        let meta = compressed ? Zlib.gzip(Array(metadata.utf8)) ?? [] : Array(metadata.utf8)
        var header = Array("PMTiles".utf8) + [3]
        func u64(_ v: Int) { for i in 0..<8 { header.append(UInt8((UInt64(v) >> (8 * UInt64(i))) & 0xFF)) } }
        let metaOffset = 127 + root.count, leafOffset = metaOffset + meta.count, dataOffset = leafOffset + leaves.count
        u64(127); u64(root.count); u64(metaOffset); u64(meta.count); u64(leafOffset); u64(leaves.count); u64(dataOffset); u64(data.count)
        u64(sorted.reduce(0) { $0 + $1.1.runLength }); u64(sorted.count); u64(Set(sorted.map(\.1.offset)).count)
        // Clustered when the tiles lie in the data in their order, each after the one before.
        let clustered = sorted.first.map { $0.1.offset == 0 } ?? true && zip(sorted, sorted.dropFirst()).allSatisfy { $1.1.offset == $0.1.offset + $0.1.length }
        header += [clustered ? 1 : 0, compressed ? 2 : 1, compressed && tileType == 1 ? 2 : 1, tileType, UInt8(minZoom), UInt8(maxZoom)]
        func i32(_ v: Double) { let n = UInt32(bitPattern: Int32(v * 10_000_000)); for i in 0..<4 { header.append(UInt8((n >> (8 * UInt32(i))) & 0xFF)) } }
        i32(-180); i32(-85); i32(180); i32(85)
        header.append(UInt8(minZoom)); i32(0); i32(0)
        return header + root + meta + leaves + data
    }

    /// An archive of `tiles`, each stored once in tile order (identical neighbours merged into
    /// runs), directories and metadata stored unless `compressed`.
    public static func tiles(_ tiles: [(TileID, [UInt8])], leafSize: Int? = nil, tileType: UInt8 = 2, metadata: String = "{}", compressed: Bool = false) -> [UInt8] {
        var data: [UInt8] = []
        var entries: [Entry] = []
        for (id, bytes) in tiles.sorted(by: { PMTiles.tileID($0.0) < PMTiles.tileID($1.0) }) {
            if var last = entries.last, PMTiles.tileID(last.tile) + UInt64(last.runLength) == PMTiles.tileID(id),
               Array(data[last.offset..<(last.offset + last.length)]) == bytes {
                last.runLength += 1
                entries[entries.count - 1] = last
                continue
            }
            entries.append(Entry(tile: id, offset: data.count, length: bytes.count))
            data += bytes
        }
        let zooms = tiles.map(\.0.z)
        return archive(entries, data: data, metadata: metadata, tileType: tileType, minZoom: zooms.min() ?? 0, maxZoom: zooms.max() ?? 0,
                       leafSize: leafSize, compressed: compressed)
    }

    /// An archive whose one tile, `bytes`, is addressed by every tile of zooms `zooms`.
    public static func oneTileEverywhere(_ bytes: [UInt8], zooms: ClosedRange<Int>, tileType: UInt8, metadata: String = "{}") -> [UInt8] {
        var entries: [Entry] = []
        for z in zooms { for x in 0..<(1 << z) { for y in 0..<(1 << z) { entries.append(Entry(tile: TileID(z: z, x: x, y: y), offset: 0, length: bytes.count)) } } }
        return archive(entries, data: bytes, metadata: metadata, tileType: tileType, minZoom: zooms.lowerBound, maxZoom: zooms.upperBound)
    }
}

/// A tiled 8-bit RGB GeoTIFF of `side`² pixels whose tiles are all absent (offset and length 0,
/// GDAL's sparse file), georeferenced by a tie point and pixel size in `epsg` (4326 or a
/// projected code).
public enum SparseGeoTIFF {
    public static func make(side: Int, tile: Int = 256, epsg: Int, origin: (Double, Double), pixel: Double) -> [UInt8] {
        let across = (side + tile - 1) / tile, count = across * across
        var entries: [(tag: UInt16, type: UInt16, count: Int, payload: [UInt8])] = []
        func shorts(_ v: [Int]) -> [UInt8] { v.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8 & 0xFF)] } }
        func longs(_ v: [Int]) -> [UInt8] { v.flatMap { n in (0..<4).map { UInt8(n >> (8 * $0) & 0xFF) } } }
        func doubles(_ v: [Double]) -> [UInt8] { v.flatMap { d in (0..<8).map { UInt8(d.bitPattern >> (8 * UInt64($0)) & 0xFF) } } }
        entries.append((256, 4, 1, longs([side])))
        entries.append((257, 4, 1, longs([side])))
        entries.append((258, 3, 3, shorts([8, 8, 8])))
        entries.append((259, 3, 1, shorts([1])))
        entries.append((262, 3, 1, shorts([2])))
        entries.append((277, 3, 1, shorts([3])))
        entries.append((284, 3, 1, shorts([1])))
        entries.append((322, 3, 1, shorts([tile])))
        entries.append((323, 3, 1, shorts([tile])))
        entries.append((324, 4, count, longs([Int](repeating: 0, count: count))))
        entries.append((325, 4, count, longs([Int](repeating: 0, count: count))))
        entries.append((33550, 12, 3, doubles([pixel, pixel, 0])))
        entries.append((33922, 12, 6, doubles([0, 0, 0, origin.0, origin.1, 0])))
        let geographic = epsg == 4326
        entries.append((34735, 3, 16, shorts([1, 1, 0, 3, 1024, 0, 1, geographic ? 2 : 1, 1025, 0, 1, 1, geographic ? 2048 : 3072, 0, 1, epsg])))
        // Header, then the IFD, then the values too large for an entry.
        var out: [UInt8] = Array("II".utf8) + [42, 0] + longs([8])
        let ifdSize = 2 + entries.count * 12 + 4
        var extra: [UInt8] = []
        var ifd: [UInt8] = shorts([entries.count])
        for e in entries {
            ifd += shorts([Int(e.tag), Int(e.type)]) + longs([e.count])
            if e.payload.count <= 4 {
                ifd += e.payload + [UInt8](repeating: 0, count: 4 - e.payload.count)
            } else {
                ifd += longs([8 + ifdSize + extra.count])
                extra += e.payload
                if extra.count % 2 == 1 { extra.append(0) }
            }
        }
        ifd += longs([0])
        out += ifd + extra
        return out
    }
}
