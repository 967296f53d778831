// Mapbox Vector Tiles (spec 2.1), read by hand from their protocol-buffer bytes.
//
// A tile is layers; a layer is features, the keys and values their tags point into, and an
// extent (4096 by default) that its integer coordinates run across. Geometry is a stream of
// MoveTo / LineTo / ClosePath commands with zig-zag deltas; polygons are rings, an exterior ring
// having positive area by the surveyor's formula in tile coordinates (y down) and the interior
// rings after it negative. Every count and length is checked against the bytes left and the
// limits before anything is allocated; malformed input is a `BasemapError.tile`.
import Foundation
import TerrapinIO

/// A property value of a feature (and the values style expressions compute with).
public enum StyleValue: Equatable, Hashable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case color(StyleColor)
    case array([StyleValue])
    /// `collator`'s value: how `==`, `!=`, `<`, … given it as their third argument compare
    /// strings.
    case collator(StyleCollator)
    /// An object: a `["literal", {…}]`, a feature's `["properties"]`, a style's state default.
    case object([String: StyleValue])

    public var description: String {
        switch self {
        case .collator(let c): "collator(case \(c.caseSensitive), diacritics \(c.diacriticSensitive))"
        case .object(let members): StyleValue.json(.object(members))
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let n): StyleValue.format(n)
        case .string(let s): s
        case .color(let c): c.description
        case .array(let a): "[" + a.map(\.description).joined(separator: ",") + "]"
        }
    }

    /// An object as MapLibre's `to-string` writes one (JSON, its keys sorted here so the text
    /// is the same every run).
    static func json(_ value: StyleValue) -> String {
        switch value {
        case .string(let s): return JSONText.quoted(s)
        case .array(let items): return "[" + items.map(json).joined(separator: ",") + "]"
        case .object(let members): return "{" + members.keys.sorted().map { JSONText.quoted($0) + ":" + json(members[$0]!) }.joined(separator: ",") + "}"
        case .color: return JSONText.quoted(value.description)
        default: return value.description
        }
    }

    /// Numbers as MapLibre's `to-string` writes them: integers without a fraction.
    static func format(_ n: Double) -> String {
        if n.isFinite, n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return String(n)
    }

    public var number: Double? { if case .number(let n) = self { n } else { nil } }
    public var string: String? { if case .string(let s) = self { s } else { nil } }
}

/// A string comparison (`collator`), in the order of Unicode's collation for the root locale
/// at three levels: base letters first (case and diacritics aside), then diacritics when they
/// count (a < â), then case when it counts (lower before upper: a < A). Latin-script text
/// sorts as ICU sorts it; other scripts by code point at the first level. `locale` is kept
/// for `resolved-locale`.
public struct StyleCollator: Equatable, Hashable, Sendable {
    public var caseSensitive = false
    public var diacriticSensitive = false
    public var locale: String?

    /// -1, 0 or 1 as `a` sorts before, with or after `b`.
    func order(_ a: String, _ b: String) -> Int {
        // Canonical decomposition: a diacritic becomes a combining mark after its letter.
        let x = Array(a.decomposedStringWithCanonicalMapping.unicodeScalars), y = Array(b.decomposedStringWithCanonicalMapping.unicodeScalars)
        func isMark(_ s: Unicode.Scalar) -> Bool { s.properties.generalCategory == .nonspacingMark }
        func lower(_ s: Unicode.Scalar) -> UInt32 { s.properties.lowercaseMapping.unicodeScalars.first?.value ?? s.value }
        func compare(_ p: [UInt32], _ q: [UInt32]) -> Int { p == q ? 0 : (p.lexicographicallyPrecedes(q) ? -1 : 1) }
        // Base letters, without case.
        let primary = compare(x.filter { !isMark($0) }.map(lower), y.filter { !isMark($0) }.map(lower))
        if primary != 0 { return primary }
        if diacriticSensitive {
            let secondary = compare(x.map(lower), y.map(lower))
            if secondary != 0 { return secondary }
        }
        if caseSensitive {
            // Lower case first: each letter's case in turn.
            func cases(_ s: [Unicode.Scalar]) -> [UInt32] { s.filter { !isMark($0) }.map { $0.properties.isUppercase ? 1 : 0 } }
            return compare(cases(x), cases(y))
        }
        return 0
    }
}

/// A straight-alpha colour, components 0…1.
public struct StyleColor: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var red: Double, green: Double, blue: Double, alpha: Double
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    public var description: String {
        func c(_ v: Double) -> Int { Int((min(1, max(0, v)) * 255).rounded()) }
        return "rgba(\(c(red)),\(c(green)),\(c(blue)),\(StyleValue.format((alpha * 1000).rounded() / 1000)))"
    }
}

public enum GeometryType: Int, Sendable {
    case unknown = 0, point = 1, lineString = 2, polygon = 3
    public var name: String { ["Unknown", "Point", "LineString", "Polygon"][rawValue] }
}

public struct VectorTile: Sendable {
    public struct Layer: Sendable {
        /// The decoded layer, shared by every copy: a layer is copied into each feature's
        /// evaluation context, and one reference costs a sixth of the six tables' retains.
        final class Tables: Sendable {
            let name: String
            let extent: Int
            let keys: [String]
            let values: [StyleValue]
            let features: [Feature]
            let keyIndex: [String: Int]
            /// Whether each key is at its own `keyIndex` (no key twice): then a feature's value of
            /// a key is found by comparing its few tags' keys, without hashing the key.
            let keysAreDistinct: Bool
            /// What style filters answered for these features (FilterAnswers.swift).
            let filterAnswers = FilterAnswers.Store()
            /// Each feature's box in the layer's units (min x, min y, max x, max y; a feature
            /// without points has an empty box, max below min): found once, where every style
            /// layer reading these features would scan their coordinates again.
            let boxes: [SIMD4<Int32>]
            init(name: String, extent: Int, keys: [String], values: [StyleValue], features: [Feature], keyIndex: [String: Int]) {
                self.name = name; self.extent = extent; self.keys = keys; self.values = values; self.features = features; self.keyIndex = keyIndex
                keysAreDistinct = keyIndex.count == keys.count && keys.indices.allSatisfy { keyIndex[keys[$0]] == $0 }
                boxes = features.map { feature in
                    var box = SIMD4<Int32>(.max, .max, .min, .min)
                    feature.coordinates.withUnsafeBufferPointer { c in
                        var k = 0
                        while k + 1 < c.count {
                            box = SIMD4(min(box.x, c[k]), min(box.y, c[k + 1]), max(box.z, c[k]), max(box.w, c[k + 1]))
                            k += 2
                        }
                    }
                    return box
                }
            }
        }
        let tables: Tables
        public var name: String { tables.name }
        public var extent: Int { tables.extent }
        public var keys: [String] { tables.keys }
        public var values: [StyleValue] { tables.values }
        public var features: [Feature] { tables.features }
        var keyIndex: [String: Int] { tables.keyIndex }
        /// Feature states by feature id (`FeatureStates.key`), attached where a style layer
        /// reads this layer (`feature-state`); nil: none.
        public var states: [String: [String: StyleValue]]? = nil
        /// The property that stands for a feature's id (a source's `promoteId`); nil: the id.
        public var promoteId: String? = nil
        /// What style filters answered for this layer's features, kept with its decoded data.
        var filterAnswers: FilterAnswers.Store { tables.filterAnswers }
        /// Each feature's box (`Tables.boxes`).
        var boxes: [SIMD4<Int32>] { tables.boxes }

        init(name: String, extent: Int, keys: [String], values: [StyleValue], features: [Feature], keyIndex: [String: Int],
             states: [String: [String: StyleValue]]? = nil, promoteId: String? = nil) {
            tables = Tables(name: name, extent: extent, keys: keys, values: values, features: features, keyIndex: keyIndex)
            self.states = states
            self.promoteId = promoteId
        }

        /// The value of `key` for `feature`, or nil: the first of its tags whose key is the
        /// layer's first key of that name. (A feature has a few tags; comparing their keys costs
        /// less than hashing `key` for `keyIndex`, which a style's filters and properties ask for
        /// hundreds of thousands of times a view.)
        public func property(_ key: String, of feature: Feature) -> StyleValue? { property(key, tags: feature.tags) }

        /// Every property of the feature with these tags (`["properties"]`), the first of a
        /// repeated key kept.
        func properties(tags: [UInt32]) -> [String: StyleValue] {
            let tables = self.tables
            var out: [String: StyleValue] = [:]
            var i = 0
            while i + 1 < tags.count {
                let k = Int(tags[i]), v = Int(tags[i + 1])
                if tables.keys.indices.contains(k), tables.values.indices.contains(v), out[tables.keys[k]] == nil { out[tables.keys[k]] = tables.values[v] }
                i += 2
            }
            return out
        }

        /// As `property(_:of:)`, from the feature's tags alone.
        func property(_ key: String, tags: [UInt32]) -> StyleValue? {
            let tables = self.tables
            if tables.keysAreDistinct {
                let keys = tables.keys
                var i = 0
                while i + 1 < tags.count {
                    if keys[Int(tags[i])] == key { return tables.values[Int(tags[i + 1])] }
                    i += 2
                }
                return nil
            }
            guard let k = tables.keyIndex[key] else { return nil }
            var i = 0
            while i + 1 < tags.count {
                if Int(tags[i]) == k { return tables.values[Int(tags[i + 1])] }
                i += 2
            }
            return nil
        }
    }

    public struct Feature: Sendable {
        public let id: UInt64?
        public let type: GeometryType
        /// Key and value indices, alternately (checked against the layer's tables).
        let tags: [UInt32]
        /// Coordinates, x then y, in the layer's extent (they may stray beyond it: buffers).
        public let coordinates: [Int32]
        /// Where each part (a point run, a line, a ring) ends in `coordinates`, in points.
        public let parts: [Int]
        /// For a GeoJSON source's lines with `lineMetrics`: where each part starts and ends along
        /// its whole line, as fractions of the line's length (geojson-vt's clip start and end).
        public var lineClips: [SIMD2<Double>]? = nil

        /// The points of part `i` (empty when there is no such part: a feature may have no
        /// geometry at all).
        public func part(_ i: Int) -> ArraySlice<Int32> {
            guard parts.indices.contains(i) else { return [] }
            let start = i == 0 ? 0 : parts[i - 1]
            return coordinates[(start * 2)..<(parts[i] * 2)]
        }

        /// Signed area of part `i` by the surveyor's formula (positive = exterior ring).
        public func ringArea(_ i: Int) -> Double {
            let p = part(i), base = p.startIndex, n = p.count / 2
            guard n >= 3 else { return 0 }
            var sum = 0.0
            for k in 0..<n {
                let j = (k + 1) % n
                sum += Double(p[base + 2 * k]) * Double(p[base + 2 * j + 1]) - Double(p[base + 2 * j]) * Double(p[base + 2 * k + 1])
            }
            return sum / 2
        }

        /// Polygons as [exterior, interiors…] lists of part indices (spec 4.3.4.4): each ring of
        /// positive area starts a polygon; negative rings belong to the one before. Rings before
        /// the first exterior and zero-area rings are dropped.
        public var polygons: [[Int]] {
            var out: [[Int]] = []
            for i in parts.indices {
                let a = ringArea(i)
                if a > 0 { out.append([i]) } else if a < 0, !out.isEmpty { out[out.count - 1].append(i) }
            }
            return out
        }
    }

    public let layers: [Layer]

    public func layer(_ name: String) -> Layer? { layers.first { $0.name == name } }

    /// What a tile may hold, checked as it is read.
    public struct Limits: Sendable {
        public var maxLayers = 256
        public var maxFeatures = 200_000
        public var maxPoints = 4_000_000
        public var maxKeys = 65_536
        public init() {}
    }

    /// Decodes an uncompressed tile (`source` names it in errors).
    public static func decode(_ bytes: [UInt8], source: String, limits: Limits = Limits()) throws(BasemapError) -> VectorTile {
        var budget = Budget(features: limits.maxFeatures, points: limits.maxPoints)
        var layers: [Layer] = []
        do {
            try bytes.withUnsafeBufferPointer { (buffer: UnsafeBufferPointer<UInt8>) throws(ProtobufError) in
                var reader = ProtobufReader(buffer, 0, buffer.count)
                while let (field, wire) = try reader.next() {
                    if field == 3, wire == 2 {
                        guard layers.count < limits.maxLayers else { throw ProtobufError("more than \(limits.maxLayers) layers") }
                        let (start, end) = try reader.lengthDelimited()
                        layers.append(try Self.layer(ProtobufReader(buffer, start, end), limits: limits, budget: &budget))
                    } else {
                        try reader.skip(wire)
                    }
                }
            }
        } catch {
            throw BasemapError.tile(source: source, message: error.message)
        }
        return VectorTile(layers: layers)
    }

    struct Budget { var features: Int; var points: Int }

    static func layer(_ r: ProtobufReader, limits: Limits, budget: inout Budget) throws(ProtobufError) -> Layer {
        var reader = r
        var name = "", extent = 4096, version = 1
        var keys: [String] = [], values: [StyleValue] = []
        var featureRanges: [(Int, Int)] = []
        while let (field, wire) = try reader.next() {
            switch (field, wire) {
            case (15, 0): version = Int(truncatingIfNeeded: try reader.varint())
            case (1, 2): name = try reader.string()
            case (2, 2):
                guard budget.features > 0 else { throw ProtobufError("more than \(limits.maxFeatures) features") }
                budget.features -= 1
                featureRanges.append(try reader.lengthDelimited())
            case (3, 2):
                guard keys.count < limits.maxKeys else { throw ProtobufError("more than \(limits.maxKeys) keys in a layer") }
                keys.append(try reader.string())
            case (4, 2):
                guard values.count < limits.maxKeys else { throw ProtobufError("more than \(limits.maxKeys) values in a layer") }
                let (s, e) = try reader.lengthDelimited()
                values.append(try value(ProtobufReader(reader.buffer, s, e)))
            case (5, 0):
                let e = try reader.varint()
                guard e >= 16, e <= 1 << 20 else { throw ProtobufError("layer extent \(e) is not within 16…1048576") }
                extent = Int(e)
            default: try reader.skip(wire)
            }
        }
        guard version >= 1, version <= 2 else { throw ProtobufError("layer '\(name)' has version \(version); Mapbox Vector Tiles are version 1 or 2") }
        var features: [Feature] = []
        features.reserveCapacity(featureRanges.count)
        for (s, e) in featureRanges {
            features.append(try feature(ProtobufReader(reader.buffer, s, e), keys: keys.count, values: values.count, layer: name, budget: &budget))
        }
        var keyIndex: [String: Int] = [:]
        for (i, k) in keys.enumerated() where keyIndex[k] == nil { keyIndex[k] = i }
        return Layer(name: name, extent: extent, keys: keys, values: values, features: features, keyIndex: keyIndex)
    }

    static func value(_ r: ProtobufReader) throws(ProtobufError) -> StyleValue {
        var reader = r
        var v = StyleValue.null
        while let (field, wire) = try reader.next() {
            switch (field, wire) {
            case (1, 2): v = .string(try reader.string())
            case (2, 5): v = .number(Double(Float(bitPattern: try reader.fixed(UInt32.self))))
            case (3, 1): v = .number(Double(bitPattern: try reader.fixed(UInt64.self)))
            case (4, 0): v = .number(Double(Int64(bitPattern: try reader.varint())))
            case (5, 0): v = .number(Double(try reader.varint()))
            case (6, 0):
                let z = try reader.varint()
                v = .number(Double(Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1)))))
            case (7, 0): v = .bool(try reader.varint() != 0)
            default: try reader.skip(wire)
            }
        }
        return v
    }

    static func feature(_ r: ProtobufReader, keys: Int, values: Int, layer: String, budget: inout Budget) throws(ProtobufError) -> Feature {
        var reader = r
        var id: UInt64?
        var type = GeometryType.unknown
        var tags: [UInt32] = []
        var geometry: (Int, Int) = (0, 0)
        while let (field, wire) = try reader.next() {
            switch (field, wire) {
            case (1, 0): id = try reader.varint()
            case (2, 2):
                let (s, e) = try reader.lengthDelimited()
                var packed = ProtobufReader(reader.buffer, s, e)
                tags.reserveCapacity(min(e - s, 1 << 16))
                while packed.position < packed.end {
                    let t = try packed.varint()
                    let bound = tags.count % 2 == 0 ? keys : values
                    guard t < UInt64(bound) else { throw ProtobufError("a feature of layer '\(layer)' has a tag \(t) beyond its \(bound) \(tags.count % 2 == 0 ? "keys" : "values")") }
                    tags.append(UInt32(t))
                }
                guard tags.count % 2 == 0 else { throw ProtobufError("a feature of layer '\(layer)' has an odd number of tags") }
            case (3, 0): type = GeometryType(rawValue: Int(truncatingIfNeeded: min(try reader.varint(), 4))) ?? .unknown
            case (4, 2): geometry = try reader.lengthDelimited()
            default: try reader.skip(wire)
            }
        }
        // Geometry: at most one point per command integer pair, so the bytes bound the count.
        var g = ProtobufReader(reader.buffer, geometry.0, geometry.1)
        var coordinates: [Int32] = []
        // Each coordinate takes a byte at least: the geometry's bytes bound them, and small
        // deltas (a byte each, the usual case) come close to it. (Grown by appending, the array
        // was copied about log2(n) times a feature.)
        coordinates.reserveCapacity(min(geometry.1 - geometry.0, 2 * budget.points))
        var parts: [Int] = []
        var x: Int64 = 0, y: Int64 = 0
        var points = 0
        while g.position < g.end {
            let command = try g.varint()
            let id = command & 7, count = Int(truncatingIfNeeded: command >> 3)
            switch id {
            case 1, 2:
                guard count >= 1, count <= (g.end - g.position) / 2 else { throw ProtobufError("a feature of layer '\(layer)' has a command repeated \(count) times with fewer parameters left") }
                guard points + count <= budget.points else { throw ProtobufError("more than \(budget.points + points) points in the tile") }
                // A MoveTo ends the part before it (points: every point is a part of its own).
                if id == 1, coordinates.count / 2 > (parts.last ?? 0) { parts.append(coordinates.count / 2) }
                if id == 2, coordinates.isEmpty { throw ProtobufError("a feature of layer '\(layer)' starts with LineTo") }
                for _ in 0..<count {
                    let dx = try g.varint(), dy = try g.varint()
                    x = x &+ Int64(bitPattern: (dx >> 1) ^ (0 &- (dx & 1)))
                    y = y &+ Int64(bitPattern: (dy >> 1) ^ (0 &- (dy & 1)))
                    guard abs(x) < 1 << 30, abs(y) < 1 << 30 else { throw ProtobufError("a feature of layer '\(layer)' has a coordinate beyond ±2^30") }
                    coordinates.append(Int32(x))
                    coordinates.append(Int32(y))
                    if type == .point { parts.append(coordinates.count / 2) }
                }
                points += count
            case 7:
                guard count == 1 else { throw ProtobufError("a feature of layer '\(layer)' has ClosePath with count \(count)") }
            default:
                throw ProtobufError("a feature of layer '\(layer)' has geometry command \(id) (only MoveTo 1, LineTo 2, ClosePath 7 exist)")
            }
        }
        if coordinates.count / 2 > (parts.last ?? 0) { parts.append(coordinates.count / 2) }
        budget.points -= points
        return Feature(id: id, type: type, tags: tags, coordinates: coordinates, parts: parts)
    }
}

struct ProtobufError: Error { let message: String; init(_ m: String) { message = m } }

/// Reads protocol-buffer fields from a byte range.
struct ProtobufReader {
    let buffer: UnsafeBufferPointer<UInt8>
    var position: Int
    let end: Int

    init(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
        self.buffer = buffer
        position = start
        self.end = end
    }

    @inline(__always)
    mutating func varint() throws(ProtobufError) -> UInt64 {
        // One byte, the usual case (small deltas, tags and commands), read inline.
        if position < end, buffer[position] < 0x80 {
            position += 1
            return UInt64(buffer[position - 1])
        }
        return try longVarint()
    }

    mutating func longVarint() throws(ProtobufError) -> UInt64 {
        var result: UInt64 = 0, shift: UInt64 = 0
        while true {
            guard position < end else { throw ProtobufError("a varint runs past the end of its message") }
            let b = buffer[position]
            position += 1
            guard shift < 64 else { throw ProtobufError("a varint is longer than 10 bytes") }
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// The next field number and wire type, or nil at the end.
    mutating func next() throws(ProtobufError) -> (Int, Int)? {
        guard position < end else { return nil }
        let key = try varint()
        let field = key >> 3
        guard field >= 1, field < 1 << 29 else { throw ProtobufError("field number \(field) is not a protocol-buffer field") }
        return (Int(field), Int(key & 7))
    }

    mutating func lengthDelimited() throws(ProtobufError) -> (Int, Int) {
        let n = try varint()
        guard n <= UInt64(end - position) else { throw ProtobufError("a field of \(n) bytes runs past the end of its message (\(end - position) left)") }
        let start = position
        position += Int(n)
        return (start, position)
    }

    mutating func string() throws(ProtobufError) -> String {
        let (s, e) = try lengthDelimited()
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[s..<e]), as: UTF8.self)
    }

    /// A little-endian fixed-width field (wire types 5 and 1: `fixed32`, `fixed64`, `float`, `double`).
    mutating func fixed<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) throws(ProtobufError) -> T {
        let size = T.bitWidth / 8
        guard end - position >= size else { throw ProtobufError("\(size == 8 ? "an" : "a") \(size)-byte field runs past the end of its message") }
        var v: T = 0
        for k in 0..<size { v |= T(buffer[position + k]) << (8 * k) }
        position += size
        return v
    }

    mutating func skip(_ wire: Int) throws(ProtobufError) {
        switch wire {
        case 0: _ = try varint()
        case 1: guard end - position >= 8 else { throw ProtobufError("an 8-byte field runs past the end") }; position += 8
        case 2: _ = try lengthDelimited()
        case 5: guard end - position >= 4 else { throw ProtobufError("a 4-byte field runs past the end") }; position += 4
        default: throw ProtobufError("wire type \(wire) is not used by vector tiles (groups are not allowed)")
        }
    }
}
