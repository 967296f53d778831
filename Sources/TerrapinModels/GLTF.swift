// glTF 2.0 and GLB, read by hand: the binary container, the JSON (with line:column for every
// error), buffers (the GLB chunk, `data:` URIs, files beside the model), accessors of every
// component type with byte strides and sparse substitution, meshes (triangles, strips, fans),
// the node hierarchy (TRS and matrices), materials and textures.
//
// Hostile input: every count is checked before what it sizes is allocated, every accessor and
// buffer view against what holds it, the node graph for cycles, shared children and depth; a
// required extension that is not implemented is an error naming it. Nothing here traps.
import TerrapinCodecs
import TerrapinIO
import TerrapinPNG
import TerrapinRaster
import Terrapin3D

public enum GLTF {
    /// Extensions Terrapin implements (a file may require these).
    public static let supportedExtensions: Set<String> = ["KHR_materials_unlit", "KHR_texture_transform", "KHR_mesh_quantization", "EXT_texture_webp"]
    /// Extensions that are understood well enough to be skipped without changing the shape.
    static let ignoredExtensions: Set<String> = ["KHR_materials_emissive_strength", "KHR_materials_specular", "KHR_materials_ior",
                                                 "KHR_materials_clearcoat", "KHR_materials_sheen", "KHR_materials_transmission",
                                                 "KHR_materials_volume", "KHR_lights_punctual", "KHR_materials_variants"]

    /// Reads a `.glb` or `.gltf` file; buffers and images it names by relative URI are read from
    /// its folder through `files` (so a confined scene's models stay beneath `--root`).
    public static func load(_ path: String, files: FileAccess = .unrestricted, limits: ModelLimits = .default) throws(ModelError) -> ModelAsset {
        let bytes: [UInt8]
        do { bytes = try files.read(path, limit: limits.maxFileBytes) } catch { throw .file(error) }
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        return try decode(bytes, name: path, limits: limits) { (uri: String, limit: Int) throws(ModelError) -> [UInt8] in
            do throws(FileError) { return try files.read(folder + uri, limit: limit) } catch { throw .file(error) }
        }
    }

    /// Decodes a model from its bytes. `external` reads a relative URI (at most `limit` bytes);
    /// nil refuses external files.
    public static func decode(_ bytes: [UInt8], name: String, limits: ModelLimits = .default,
                              external: ((String, Int) throws(ModelError) -> [UInt8])? = nil) throws(ModelError) -> ModelAsset {
        var reader = GLTFReader(source: "'\(name)'", limits: limits, external: external)
        return try reader.read(bytes, name: name)
    }
}

struct GLTFReader {
    let source: String
    let limits: ModelLimits
    let external: ((String, Int) throws(ModelError) -> [UInt8])?
    /// At most `maxWarnings` lines, then one that counts the rest (a file may list 200,000
    /// extensions or primitives, each worth a line).
    private(set) var warnings: [String] = []
    var unsaid = 0
    static let maxWarnings = 32
    var json: [String: JSONNode] = [:]
    var buffers: [[UInt8]] = []
    var glbChunk: [UInt8]?
    /// Accessor components read so far (a budget: accessors without a buffer view cost memory
    /// without costing file bytes).
    var componentsRead = 0
    var floatCache: [Int: (values: [Float], components: Int)] = [:]

    init(source: String, limits: ModelLimits, external: ((String, Int) throws(ModelError) -> [UInt8])?) {
        (self.source, self.limits, self.external) = (source, limits, external)
    }

    // MARK: JSON helpers

    func fail(_ node: JSONNode?, _ path: String, _ detail: String) -> ModelError {
        .malformed(source: source, at: node.map { "\(path) (\($0.location))" } ?? path, detail: detail)
    }

    func object(_ node: JSONNode, _ path: String) throws(ModelError) -> [String: JSONNode] {
        guard case .object(let members) = node.value else { throw fail(node, path, "expected an object, found \(node.typeDescription)") }
        var m: [String: JSONNode] = [:]
        for member in members { m[member.key] = member.value }
        return m
    }

    func array(_ node: JSONNode?, _ path: String) throws(ModelError) -> [JSONNode] {
        guard let node else { return [] }
        guard case .array(let items) = node.value else { throw fail(node, path, "expected an array, found \(node.typeDescription)") }
        return items
    }

    func number(_ node: JSONNode?, _ path: String, default d: Double) throws(ModelError) -> Double {
        guard let node else { return d }
        guard case .number(let v) = node.value, v.isFinite else { throw fail(node, path, "expected a number, found \(node.typeDescription)") }
        return v
    }

    func int(_ node: JSONNode?, _ path: String, range: ClosedRange<Int> = 0...Int(Int32.max), default d: Int? = nil) throws(ModelError) -> Int {
        guard let node else {
            if let d { return d }
            throw fail(nil, path, "is required")
        }
        guard case .number(let v) = node.value, v.isFinite, v == v.rounded(), v >= Double(range.lowerBound), v <= Double(range.upperBound) else {
            throw fail(node, path, "expected an integer in \(range.lowerBound)…\(range.upperBound), found \(Self.show(node))")
        }
        return Int(v)
    }

    func index(_ node: JSONNode?, _ path: String, count: Int, of what: String) throws(ModelError) -> Int {
        guard let node else { throw fail(nil, path, "is required") }
        guard case .number(let v) = node.value, v.isFinite, v == v.rounded(), v >= 0, v < Double(count) else {
            throw fail(node, path, "\(Self.show(node)) is not an index into \(what) (there \(count == 1 ? "is 1" : "are \(count)"))")
        }
        return Int(v)
    }

    func numbers(_ node: JSONNode?, _ path: String, count: Int, default d: [Double]) throws(ModelError) -> [Double] {
        guard let node else { return d }
        let items = try array(node, path)
        guard items.count == count else { throw fail(node, path, "expected \(count) numbers, found \(items.count)") }
        var out: [Double] = []
        for (i, item) in items.enumerated() { out.append(try number(item, path + "[\(i)]", default: 0)) }
        return out
    }

    func string(_ node: JSONNode?, _ path: String) throws(ModelError) -> String? {
        guard let node else { return nil }
        guard case .string(let s) = node.value else { throw fail(node, path, "expected a string, found \(node.typeDescription)") }
        return s
    }

    func bool(_ node: JSONNode?, _ path: String, default d: Bool) throws(ModelError) -> Bool {
        guard let node else { return d }
        guard case .bool(let b) = node.value else { throw fail(node, path, "expected true or false, found \(node.typeDescription)") }
        return b
    }

    static func show(_ node: JSONNode) -> String {
        if case .number(let v) = node.value { return v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
        return node.typeDescription
    }

    func list(_ key: String) throws(ModelError) -> [JSONNode] { try array(json[key], key) }

    // MARK: Container

    mutating func read(_ bytes: [UInt8], name: String) throws(ModelError) -> ModelAsset {
        let text: [UInt8]
        if bytes.count >= 4, bytes[0] == 0x67, bytes[1] == 0x6C, bytes[2] == 0x54, bytes[3] == 0x46 {
            text = try container(bytes)
        } else {
            text = bytes
        }
        let root: JSONNode
        do { root = try JSONParser.parse(text) } catch {
            throw ModelError.malformed(source: source, at: "\(error.location)", detail: "not JSON: \(error.message)")
        }
        json = try object(root, "the file")
        try checkAssetAndExtensions()
        try loadBuffers()
        return try build(name: name)
    }

    /// GLB: a 12-byte header ("glTF", version 2, length), a JSON chunk, then an optional BIN chunk.
    mutating func container(_ bytes: [UInt8]) throws(ModelError) -> [UInt8] {
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        guard bytes.count >= 20 else { throw ModelError.malformed(source: source, at: "GLB header", detail: "the file is \(bytes.count) bytes, shorter than a GLB header and chunk header") }
        guard u32(4) == 2 else { throw ModelError.malformed(source: source, at: "GLB header", detail: "version \(u32(4)); only glTF 2.0 is read") }
        let length = u32(8)
        guard length <= bytes.count, length >= 20 else {
            throw ModelError.malformed(source: source, at: "GLB header", detail: "it declares \(length) bytes but the file has \(bytes.count) (truncated?)")
        }
        var offset = 12
        var jsonChunk: [UInt8]?
        while offset + 8 <= length {
            let size = u32(offset), type = u32(offset + 4)
            guard size <= length - offset - 8 else {
                throw ModelError.malformed(source: source, at: "GLB chunk at byte \(offset)", detail: "its length \(size) runs past the end of the file")
            }
            let body = Array(bytes[(offset + 8)..<(offset + 8 + size)])
            if jsonChunk == nil {
                guard type == 0x4E4F_534A else { throw ModelError.malformed(source: source, at: "GLB chunk at byte 12", detail: "the first chunk must be JSON") }
                jsonChunk = body
            } else if type == 0x004E_4942 {
                if glbChunk == nil { glbChunk = body }
            }
            // Chunks are padded to 4 bytes; a last chunk may end unpadded.
            offset += 8 + (size + 3) / 4 * 4
        }
        guard let jsonChunk else { throw ModelError.malformed(source: source, at: "GLB", detail: "no JSON chunk") }
        return jsonChunk
    }

    mutating func warn(_ line: String) {
        if warnings.count < Self.maxWarnings { warnings.append(line) } else { unsaid += 1 }
    }

    /// The warnings, the last of them counting those left unsaid.
    var allWarnings: [String] { unsaid == 0 ? warnings : warnings + ["\(unsaid) more warnings like these"] }

    mutating func checkAssetAndExtensions() throws(ModelError) {
        guard let asset = json["asset"] else { throw fail(nil, "asset", "is required (a glTF file states its version there)") }
        let a = try object(asset, "asset")
        let version = try string(a["version"], "asset.version") ?? ""
        guard version.hasPrefix("2.") else {
            throw fail(a["version"] ?? asset, "asset.version", "\"\(version)\": only glTF 2.x is read (convert glTF 1.0 files with a current exporter)")
        }
        for (i, node) in try list("extensionsRequired").enumerated() {
            let name = try string(node, "extensionsRequired[\(i)]") ?? ""
            if !GLTF.supportedExtensions.contains(name) { throw ModelError.unsupportedExtension(source: source, name: name) }
        }
        for (i, node) in try list("extensionsUsed").enumerated() {
            let name = try string(node, "extensionsUsed[\(i)]") ?? ""
            if !GLTF.supportedExtensions.contains(name) {
                warn(GLTF.ignoredExtensions.contains(name) ? "\(name) is not drawn (the model is drawn without it)"
                                                                    : "extension \(name) is not implemented and was ignored")
            }
        }
        if !(try list("animations")).isEmpty { warn("animations are not played: the model is drawn in its rest pose") }
    }

    // MARK: Buffers

    mutating func loadBuffers() throws(ModelError) {
        let list = try self.list("buffers")
        var total = 0
        var declared: [Int] = []
        for (i, node) in list.enumerated() {
            let b = try object(node, "buffers[\(i)]")
            let length = try int(b["byteLength"], "buffers[\(i)].byteLength", range: 1...Int(Int32.max))
            total += length
            guard total <= limits.maxBufferBytes else { throw ModelError.tooLarge(source: source, what: "bytes of buffers", count: total, limit: limits.maxBufferBytes) }
            declared.append(length)
        }
        // Charged to the render's work budget as declared, before one is read.
        guard WorkMeter.spend(.decodedBytes, Double(total), on: "the buffers of \(source)") else {
            throw ModelError.malformed(source: source, at: "buffers", detail: "its \(total) bytes would pass \(WorkMeter.noRoom)")
        }
        for (i, node) in list.enumerated() {
            let b = try object(node, "buffers[\(i)]")
            let path = "buffers[\(i)]"
            var data: [UInt8]
            if let uri = try string(b["uri"], path + ".uri") {
                data = try resource(uri, node: b["uri"]!, path: path + ".uri", limit: declared[i])
            } else if i == 0, let chunk = glbChunk {
                data = chunk
            } else {
                throw fail(node, path, "has no uri and is not the GLB's binary chunk")
            }
            guard data.count >= declared[i] else {
                throw fail(node, path, "declares \(declared[i]) bytes but holds \(data.count)")
            }
            if data.count > declared[i] { data.removeLast(data.count - declared[i]) }
            buffers.append(data)
        }
    }

    /// The bytes a URI names: a `data:` URI, or a relative file beside the model.
    mutating func resource(_ uri: String, node: JSONNode, path: String, limit: Int) throws(ModelError) -> [UInt8] {
        if uri.hasPrefix("data:") {
            guard let comma = uri.firstIndex(of: ",") else { throw fail(node, path, "a data: URI needs a comma before its data") }
            let header = uri[uri.index(uri.startIndex, offsetBy: 5)..<comma]
            let body = uri[uri.index(after: comma)...]
            // Base64 holds 3 bytes in 4 characters: the limit is checked before decoding.
            guard body.utf8.count / 4 * 3 <= limit + 3 else { throw fail(node, path, "the data: URI holds more than the \(limit) bytes declared") }
            let decoded = header.hasSuffix(";base64") ? Self.base64(body.utf8) : Self.percentDecoded(String(body))
            guard let decoded else { throw fail(node, path, "the data: URI's data is not valid \(header.hasSuffix(";base64") ? "base64" : "percent-encoded text")") }
            return decoded
        }
        if uri.contains("://") || uri.hasPrefix("/") || uri.hasPrefix("file:") {
            throw fail(node, path, "\"\(uri.prefix(80))\": only relative file names and data: URIs are read (no absolute paths or network URLs)")
        }
        guard let external else { throw fail(node, path, "names the file \"\(uri.prefix(80))\", but this model was given as bytes with no folder") }
        guard let name = Self.percentDecoded(uri).flatMap({ String(validating: $0, as: UTF8.self) }), !name.isEmpty, !name.contains("\0") else {
            throw fail(node, path, "\"\(uri.prefix(80))\" is not a valid URI")
        }
        return try external(name, limit)
    }

    static func base64(_ text: Substring.UTF8View) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        var acc: UInt32 = 0, bits = 0
        var ended = false
        for c in text {
            let v: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - 65)
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - 97 + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c - 48 + 52)
            case UInt8(ascii: "+"), UInt8(ascii: "-"): v = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): v = 63
            case UInt8(ascii: "="): ended = true; continue
            default: return nil
            }
            if ended { return nil }
            acc = acc << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: acc >> UInt32(bits)))
            }
        }
        return out
    }

    static func percentDecoded(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, let h = hex(bytes[i + 1]), let l = hex(bytes[i + 2]) else { return nil }
                out.append(h << 4 | l)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: c - 48
        case 65...70: c - 55
        case 97...102: c - 87
        default: nil
        }
    }

    // MARK: Accessors

    struct View { var buffer: Int; var offset: Int; var length: Int; var stride: Int? }

    func view(_ i: Int, _ path: String) throws(ModelError) -> View {
        let views = try list("bufferViews")
        let p = "bufferViews[\(i)]"
        let v = try object(views[i], p)
        let buffer = try index(v["buffer"], p + ".buffer", count: buffers.count, of: "buffers")
        let offset = try int(v["byteOffset"], p + ".byteOffset", default: 0)
        let length = try int(v["byteLength"], p + ".byteLength", range: 1...Int(Int32.max))
        guard offset + length <= buffers[buffer].count else {
            throw fail(views[i], p, "bytes \(offset)..<\(offset + length) run past the end of buffer \(buffer) (\(buffers[buffer].count) bytes)")
        }
        var stride: Int?
        if let s = v["byteStride"] { stride = try int(s, p + ".byteStride", range: 4...252) }
        return View(buffer: buffer, offset: offset, length: length, stride: stride)
    }

    static func componentSize(_ type: Int) -> Int? {
        switch type {
        case 5120, 5121: 1
        case 5122, 5123: 2
        case 5125, 5126: 4
        default: nil
        }
    }

    static func components(_ type: String) -> Int? {
        switch type {
        case "SCALAR": 1
        case "VEC2": 2
        case "VEC3": 3
        case "VEC4": 4
        case "MAT2": 4
        case "MAT3": 9
        case "MAT4": 16
        default: nil
        }
    }

    /// Reads one component as a Float (normalised integers to 0…1 or −1…1).
    @inline(__always)
    static func component(_ b: [UInt8], _ at: Int, _ type: Int, normalized: Bool) -> Float {
        switch type {
        case 5120:
            let v = Float(Int8(bitPattern: b[at]))
            return normalized ? max(v / 127, -1) : v
        case 5121: return normalized ? Float(b[at]) / 255 : Float(b[at])
        case 5122:
            let v = Float(Int16(bitPattern: UInt16(b[at]) | UInt16(b[at + 1]) << 8))
            return normalized ? max(v / 32767, -1) : v
        case 5123:
            let v = Float(UInt16(b[at]) | UInt16(b[at + 1]) << 8)
            return normalized ? v / 65535 : v
        case 5125:
            return Float(UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24)
        default:
            return Float(bitPattern: UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24)
        }
    }

    /// Accessor `i`'s elements as floats, `allowed` the component counts the use accepts.
    mutating func floats(_ i: Int, _ usePath: String, allowed: Set<Int>) throws(ModelError) -> (values: [Float], components: Int) {
        if let hit = floatCache[i], allowed.contains(hit.components) { return hit }
        let accessors = try list("accessors")
        let p = "accessors[\(i)]"
        let a = try object(accessors[i], p)
        let type = try string(a["type"], p + ".type") ?? ""
        guard let n = Self.components(type), allowed.contains(n) else {
            throw fail(a["type"] ?? accessors[i], p + ".type", "\"\(type)\" cannot be used for \(usePath)")
        }
        let componentType = try int(a["componentType"], p + ".componentType")
        guard let size = Self.componentSize(componentType) else {
            throw fail(a["componentType"], p + ".componentType", "\(componentType) is not a glTF component type (5120–5126)")
        }
        let normalized = try bool(a["normalized"], p + ".normalized", default: false)
        let count = try int(a["count"], p + ".count", range: 1...Int(Int32.max))
        guard count <= limits.maxAccessorCount else { throw ModelError.tooLarge(source: source, what: "elements in \(p)", count: count, limit: limits.maxAccessorCount) }
        componentsRead += count * n
        guard componentsRead <= limits.maxComponentsRead else {
            throw ModelError.tooLarge(source: source, what: "accessor components in all", count: componentsRead, limit: limits.maxComponentsRead)
        }
        var values = [Float](repeating: 0, count: count * n)
        let element = size * n
        if let vi = a["bufferView"] {
            let v = try view(try index(vi, p + ".bufferView", count: try list("bufferViews").count, of: "bufferViews"), p)
            let offset = try int(a["byteOffset"], p + ".byteOffset", default: 0)
            let stride = v.stride ?? element
            guard stride >= element else { throw fail(accessors[i], p, "its elements (\(element) bytes) are wider than the buffer view's stride \(stride)") }
            guard offset + stride * (count - 1) + element <= v.length else {
                throw fail(accessors[i], p, "\(count) elements from byte \(offset) with stride \(stride) run past its buffer view (\(v.length) bytes)")
            }
            let base = v.offset + offset
            let bytes = buffers[v.buffer]
            for e in 0..<count {
                let at = base + e * stride
                for c in 0..<n { values[e * n + c] = Self.component(bytes, at + c * size, componentType, normalized: normalized) }
            }
        }
        if let s = a["sparse"] {
            try sparse(s, p + ".sparse", into: &values, count: count, components: n, componentType: componentType, normalized: normalized)
        }
        let result = (values, n)
        floatCache[i] = result
        return result
    }

    mutating func sparse(_ node: JSONNode, _ p: String, into values: inout [Float], count: Int, components n: Int, componentType: Int, normalized: Bool) throws(ModelError) {
        let s = try object(node, p)
        let k = try int(s["count"], p + ".count", range: 1...count)
        let viewCount = try list("bufferViews").count
        guard let ind = s["indices"], let val = s["values"] else { throw fail(node, p, "needs \"indices\" and \"values\"") }
        let io = try object(ind, p + ".indices"), vo = try object(val, p + ".values")
        let iv = try view(try index(io["bufferView"], p + ".indices.bufferView", count: viewCount, of: "bufferViews"), p)
        let vv = try view(try index(vo["bufferView"], p + ".values.bufferView", count: viewCount, of: "bufferViews"), p)
        let indexType = try int(io["componentType"], p + ".indices.componentType")
        guard [5121, 5123, 5125].contains(indexType), let isize = Self.componentSize(indexType) else {
            throw fail(io["componentType"], p + ".indices.componentType", "sparse indices are 5121, 5123 or 5125")
        }
        let ioff = try int(io["byteOffset"], p + ".indices.byteOffset", default: 0)
        let voff = try int(vo["byteOffset"], p + ".values.byteOffset", default: 0)
        let vsize = Self.componentSize(componentType)! * n
        guard ioff + k * isize <= iv.length else { throw fail(ind, p + ".indices", "\(k) indices run past their buffer view") }
        guard voff + k * vsize <= vv.length else { throw fail(val, p + ".values", "\(k) values run past their buffer view") }
        let ib = buffers[iv.buffer], vb = buffers[vv.buffer]
        for j in 0..<k {
            let target = Int(Self.component(ib, iv.offset + ioff + j * isize, indexType, normalized: false))
            guard target < count else { throw fail(ind, p + ".indices", "index \(target) (entry \(j)) is beyond the accessor's \(count) elements") }
            for c in 0..<n {
                values[target * n + c] = Self.component(vb, vv.offset + voff + j * vsize + c * Self.componentSize(componentType)!, componentType, normalized: normalized)
            }
        }
    }

    /// An index accessor (unsigned bytes, shorts or ints), each index checked against `vertices`.
    mutating func indices(_ i: Int, _ usePath: String, vertices: Int) throws(ModelError) -> [UInt32] {
        let accessors = try list("accessors")
        let a = try object(accessors[i], "accessors[\(i)]")
        let t = try int(a["componentType"], "accessors[\(i)].componentType")
        guard [5121, 5123, 5125].contains(t) else {
            throw fail(a["componentType"], "accessors[\(i)].componentType", "indices (\(usePath)) are unsigned bytes, shorts or ints (5121, 5123, 5125), not \(t)")
        }
        let (values, _) = try floats(i, usePath, allowed: [1])
        var out = [UInt32](repeating: 0, count: values.count)
        for (k, v) in values.enumerated() {
            // Float holds integers exactly up to 2^24; vertex counts are limited far below that.
            guard v >= 0, Int(v) < vertices else {
                throw fail(accessors[i], "accessors[\(i)]", "index \(Int(v)) (element \(k)) is beyond the primitive's \(vertices) vertices")
            }
            out[k] = UInt32(v)
        }
        return out
    }

    // MARK: Scene

    mutating func build(name: String) throws(ModelError) -> ModelAsset {
        let nodes = try list("nodes")
        guard nodes.count <= limits.maxNodes else { throw ModelError.tooLarge(source: source, what: "nodes", count: nodes.count, limit: limits.maxNodes) }
        // The hierarchy must be a set of trees: each node a child of one parent at most.
        var parent = [Int?](repeating: nil, count: nodes.count)
        var children = [[Int]](repeating: [], count: nodes.count)
        for (i, node) in nodes.enumerated() {
            let n = try object(node, "nodes[\(i)]")
            for (k, c) in try array(n["children"], "nodes[\(i)].children").enumerated() {
                let child = try index(c, "nodes[\(i)].children[\(k)]", count: nodes.count, of: "nodes")
                if child == i { throw fail(c, "nodes[\(i)].children[\(k)]", "a node cannot be its own child") }
                if let other = parent[child] { throw fail(c, "nodes[\(i)].children[\(k)]", "node \(child) is already a child of node \(other) (glTF's nodes form trees)") }
                parent[child] = i
                children[i].append(child)
            }
        }
        var roots: [Int]
        let scenes = try list("scenes")
        if !scenes.isEmpty {
            let s = try index(json["scene"], "scene", count: scenes.count, of: "scenes", default: 0)
            let scene = try object(scenes[s], "scenes[\(s)]")
            roots = []
            for (k, r) in try array(scene["nodes"], "scenes[\(s)].nodes").enumerated() {
                let root = try index(r, "scenes[\(s)].nodes[\(k)]", count: nodes.count, of: "nodes")
                if let p = parent[root] { throw fail(r, "scenes[\(s)].nodes[\(k)]", "node \(root) is a child of node \(p); a scene lists root nodes only") }
                roots.append(root)
            }
        } else {
            roots = nodes.indices.filter { parent[$0] == nil }
        }
        var primitivesOfMesh: [Int: [Int]] = [:]
        var asset = ModelAsset(name: name, primitives: [], instances: [], materials: [], textures: [],
                               boundsMin: SIMD3(repeating: .infinity), boundsMax: SIMD3(repeating: -.infinity), warnings: [])
        var materialIndex: [Int: Int] = [:]
        var textureIndex: [Int: Int] = [:]
        var texturePixels = 0
        var vertices = 0, triangles = 0
        var warnedSkin = false
        // Depth-first, iteratively (a deep hierarchy must not exhaust the stack): (node, parent's transform, depth).
        var stack: [(Int, Matrix4, Int)] = roots.reversed().map { ($0, Matrix4.identity, 1) }
        var visited = [Bool](repeating: false, count: nodes.count)
        while let (i, parentTransform, depth) = stack.popLast() {
            let p = "nodes[\(i)]"
            guard depth <= limits.maxNodeDepth else { throw ModelError.tooLarge(source: source, what: "levels of nested nodes", count: depth, limit: limits.maxNodeDepth) }
            guard !visited[i] else { throw fail(nodes[i], p, "is reached twice: the node hierarchy has a cycle") }
            visited[i] = true
            let n = try object(nodes[i], p)
            let local = try transform(n, p)
            let global = parentTransform * local
            if n["skin"] != nil, !warnedSkin { warn("skins are not applied: skinned meshes are drawn in their bind pose"); warnedSkin = true }
            if let m = n["mesh"] {
                let meshes = try list("meshes")
                let mi = try index(m, p + ".mesh", count: meshes.count, of: "meshes")
                if primitivesOfMesh[mi] == nil {
                    primitivesOfMesh[mi] = try mesh(mi, meshes[mi], into: &asset, materialIndex: &materialIndex, textureIndex: &textureIndex, texturePixels: &texturePixels)
                }
                for k in primitivesOfMesh[mi]! {
                    let prim = asset.primitives[k]
                    vertices += prim.positions.count
                    triangles += prim.triangleCount
                    guard asset.instances.count < limits.maxInstances else { throw ModelError.tooLarge(source: source, what: "mesh instances", count: asset.instances.count + 1, limit: limits.maxInstances) }
                    guard vertices <= limits.maxVertices else { throw ModelError.tooLarge(source: source, what: "vertices drawn", count: vertices, limit: limits.maxVertices) }
                    guard triangles <= limits.maxTriangles else { throw ModelError.tooLarge(source: source, what: "triangles drawn", count: triangles, limit: limits.maxTriangles) }
                    asset.instances.append(ModelInstance(primitive: k, transform: global))
                    for v in prim.positions {
                        let q = global.apply(SIMD3(Double(v.x), Double(v.y), Double(v.z)))
                        asset.boundsMin = pointwiseMin(asset.boundsMin, q)
                        asset.boundsMax = pointwiseMax(asset.boundsMax, q)
                    }
                }
            }
            for c in children[i].reversed() { stack.append((c, global, depth + 1)) }
        }
        if asset.instances.isEmpty { throw ModelError.malformed(source: source, at: "scene", detail: "it draws no triangles (no node of the scene has a mesh with triangles)") }
        guard asset.boundsMin.x.isFinite, asset.boundsMax.x.isFinite, asset.boundsMin.y.isFinite, asset.boundsMax.y.isFinite,
              asset.boundsMin.z.isFinite, asset.boundsMax.z.isFinite else {
            throw ModelError.malformed(source: source, at: "nodes", detail: "positions or transforms are not finite numbers")
        }
        asset.warnings = allWarnings
        return asset
    }

    func index(_ node: JSONNode?, _ path: String, count: Int, of what: String, default d: Int) throws(ModelError) -> Int {
        guard node != nil else { return d }
        return try index(node, path, count: count, of: what)
    }

    func transform(_ n: [String: JSONNode], _ p: String) throws(ModelError) -> Matrix4 {
        if let m = n["matrix"] {
            let values = try numbers(m, p + ".matrix", count: 16, default: [])
            return Matrix4(columnMajor: values)
        }
        let t = try numbers(n["translation"], p + ".translation", count: 3, default: [0, 0, 0])
        let r = try numbers(n["rotation"], p + ".rotation", count: 4, default: [0, 0, 0, 1])
        let s = try numbers(n["scale"], p + ".scale", count: 3, default: [1, 1, 1])
        return Matrix4(translation: SIMD3(t[0], t[1], t[2]), rotation: SIMD4(r[0], r[1], r[2], r[3]), scale: SIMD3(s[0], s[1], s[2]))
    }

    /// Mesh `mi`'s drawable primitives, appended to `asset`; returns their indices.
    mutating func mesh(_ mi: Int, _ node: JSONNode, into asset: inout ModelAsset, materialIndex: inout [Int: Int],
                       textureIndex: inout [Int: Int], texturePixels: inout Int) throws(ModelError) -> [Int] {
        let p = "meshes[\(mi)]"
        let m = try object(node, p)
        var out: [Int] = []
        for (k, primNode) in try array(m["primitives"], p + ".primitives").enumerated() {
            let pp = p + ".primitives[\(k)]"
            let prim = try object(primNode, pp)
            let mode = try int(prim["mode"], pp + ".mode", range: 0...6, default: 4)
            guard mode >= 4 else {
                warn("\(pp): points and lines are not drawn")
                continue
            }
            if prim["targets"] != nil { warn("\(pp): morph targets are not applied (drawn with the base shape)") }
            guard let attrs = prim["attributes"] else { throw fail(primNode, pp, "needs \"attributes\"") }
            let at = try object(attrs, pp + ".attributes")
            let accessorCount = try list("accessors").count
            guard let positionNode = at["POSITION"] else { warn("\(pp): no POSITION, not drawn"); continue }
            let (pos, _) = try floats(try index(positionNode, pp + ".attributes.POSITION", count: accessorCount, of: "accessors"), pp + ".attributes.POSITION", allowed: [3])
            let vertexCount = pos.count / 3
            guard vertexCount <= limits.maxVertices else { throw ModelError.tooLarge(source: source, what: "vertices in \(pp)", count: vertexCount, limit: limits.maxVertices) }
            func attribute(_ name: String, _ allowed: Set<Int>) throws(ModelError) -> (values: [Float], components: Int)? {
                guard let a = at[name] else { return nil }
                let r = try floats(try index(a, pp + ".attributes.\(name)", count: accessorCount, of: "accessors"), pp + ".attributes.\(name)", allowed: allowed)
                guard r.values.count / r.components == vertexCount else {
                    throw fail(a, pp + ".attributes.\(name)", "has \(r.values.count / r.components) elements but POSITION has \(vertexCount)")
                }
                return r
            }
            // The material first: it says which texture coordinate sets are read.
            let material: Int
            if let mn = prim["material"] {
                let materials = try list("materials")
                let index = try self.index(mn, pp + ".material", count: materials.count, of: "materials")
                if let known = materialIndex[index] { material = known } else {
                    asset.materials.append(try self.material(index, materials[index], into: &asset, textureIndex: &textureIndex, texturePixels: &texturePixels))
                    material = asset.materials.count - 1
                    materialIndex[index] = material
                }
            } else if let known = materialIndex[-1] {
                material = known
            } else {
                asset.materials.append(ModelMaterial())
                material = asset.materials.count - 1
                materialIndex[-1] = material
            }
            let mat = asset.materials[material]
            let baseSet = mat.baseColorTexture?.texCoord ?? 0
            let emissiveSet = mat.emissiveTexture?.texCoord ?? baseSet
            var primitive = ModelPrimitive(positions: [], normals: [], uvs: [], emissiveUVs: [], colors: [], indices: [], material: material)
            primitive.positions = (0..<vertexCount).map { SIMD3(pos[$0 * 3], pos[$0 * 3 + 1], pos[$0 * 3 + 2]) }
            if let (n, _) = try attribute("NORMAL", [3]) { primitive.normals = (0..<vertexCount).map { SIMD3(n[$0 * 3], n[$0 * 3 + 1], n[$0 * 3 + 2]) } }
            if mat.baseColorTexture != nil || mat.emissiveTexture != nil, let (t, _) = try attribute("TEXCOORD_\(baseSet)", [2]) {
                primitive.uvs = (0..<vertexCount).map { SIMD2(t[$0 * 2], t[$0 * 2 + 1]) }
            }
            if mat.emissiveTexture != nil, emissiveSet != baseSet, let (t, _) = try attribute("TEXCOORD_\(emissiveSet)", [2]) {
                primitive.emissiveUVs = (0..<vertexCount).map { SIMD2(t[$0 * 2], t[$0 * 2 + 1]) }
            }
            if let (c, n) = try attribute("COLOR_0", [3, 4]) {
                primitive.colors = (0..<vertexCount).map { n == 4 ? SIMD4(c[$0 * 4], c[$0 * 4 + 1], c[$0 * 4 + 2], c[$0 * 4 + 3]) : SIMD4(c[$0 * 3], c[$0 * 3 + 1], c[$0 * 3 + 2], 1) }
            }
            var list: [UInt32]
            if let i = prim["indices"] {
                list = try indices(try index(i, pp + ".indices", count: accessorCount, of: "accessors"), pp + ".indices", vertices: vertexCount)
            } else {
                list = (0..<UInt32(vertexCount)).map { $0 }
            }
            primitive.indices = Self.triangles(list, mode: mode)
            guard primitive.indices.count / 3 <= limits.maxTriangles else {
                throw ModelError.tooLarge(source: source, what: "triangles in \(pp)", count: primitive.indices.count / 3, limit: limits.maxTriangles)
            }
            guard !primitive.indices.isEmpty else { continue }
            asset.primitives.append(primitive)
            out.append(asset.primitives.count - 1)
        }
        return out
    }

    /// A triangle list from triangles (4), a strip (5) or a fan (6), as glTF defines them.
    static func triangles(_ v: [UInt32], mode: Int) -> [UInt32] {
        switch mode {
        case 5:
            guard v.count >= 3 else { return [] }
            var out: [UInt32] = []
            out.reserveCapacity((v.count - 2) * 3)
            for i in 0..<(v.count - 2) {
                if i % 2 == 0 { out += [v[i], v[i + 1], v[i + 2]] } else { out += [v[i + 1], v[i], v[i + 2]] }
            }
            return out
        case 6:
            guard v.count >= 3 else { return [] }
            var out: [UInt32] = []
            out.reserveCapacity((v.count - 2) * 3)
            for i in 0..<(v.count - 2) { out += [v[i + 1], v[i + 2], v[0]] }
            return out
        default:
            return Array(v.prefix(v.count / 3 * 3))
        }
    }

    mutating func material(_ i: Int, _ node: JSONNode, into asset: inout ModelAsset, textureIndex: inout [Int: Int], texturePixels: inout Int) throws(ModelError) -> ModelMaterial {
        let p = "materials[\(i)]"
        let m = try object(node, p)
        var out = ModelMaterial()
        out.name = try string(m["name"], p + ".name") ?? ""
        if let pbr = m["pbrMetallicRoughness"] {
            let o = try object(pbr, p + ".pbrMetallicRoughness")
            let f = try numbers(o["baseColorFactor"], p + ".pbrMetallicRoughness.baseColorFactor", count: 4, default: [1, 1, 1, 1])
            out.baseColorFactor = SIMD4(Float(f[0]), Float(f[1]), Float(f[2]), Float(f[3])).clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 1))
            if let t = o["baseColorTexture"] {
                out.baseColorTexture = try textureReference(t, p + ".pbrMetallicRoughness.baseColorTexture", into: &asset, textureIndex: &textureIndex, texturePixels: &texturePixels)
            }
        }
        let e = try numbers(m["emissiveFactor"], p + ".emissiveFactor", count: 3, default: [0, 0, 0])
        out.emissiveFactor = SIMD3(Float(e[0]), Float(e[1]), Float(e[2])).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
        if let t = m["emissiveTexture"] {
            out.emissiveTexture = try textureReference(t, p + ".emissiveTexture", into: &asset, textureIndex: &textureIndex, texturePixels: &texturePixels)
        }
        let mode = try string(m["alphaMode"], p + ".alphaMode") ?? "OPAQUE"
        guard let alpha = AlphaMode(rawValue: mode) else { throw fail(m["alphaMode"], p + ".alphaMode", "\"\(mode)\" is not OPAQUE, MASK or BLEND") }
        out.alphaMode = alpha
        out.alphaCutoff = Float(max(0, try number(m["alphaCutoff"], p + ".alphaCutoff", default: 0.5)))
        out.doubleSided = try bool(m["doubleSided"], p + ".doubleSided", default: false)
        if let ext = m["extensions"] {
            out.unlit = try object(ext, p + ".extensions")["KHR_materials_unlit"] != nil
        }
        return out
    }

    mutating func textureReference(_ node: JSONNode, _ p: String, into asset: inout ModelAsset, textureIndex: inout [Int: Int], texturePixels: inout Int) throws(ModelError) -> TextureReference? {
        let o = try object(node, p)
        let textures = try list("textures")
        let ti = try index(o["index"], p + ".index", count: textures.count, of: "textures")
        var set = try int(o["texCoord"], p + ".texCoord", range: 0...7, default: 0)
        var transform: [Float] = [1, 0, 0, 0, 1, 0]
        if let ext = o["extensions"], let tt = try object(ext, p + ".extensions")["KHR_texture_transform"] {
            let q = p + ".extensions.KHR_texture_transform"
            let t = try object(tt, q)
            let offset = try numbers(t["offset"], q + ".offset", count: 2, default: [0, 0])
            let rotation = try number(t["rotation"], q + ".rotation", default: 0)
            let scale = try numbers(t["scale"], q + ".scale", count: 2, default: [1, 1])
            if t["texCoord"] != nil { set = try int(t["texCoord"], q + ".texCoord", range: 0...7) }
            // T · R · S as the extension defines it (rotation counter-clockwise in UV space).
            let c = cos(rotation), s = sin(rotation)
            transform = [Float(c * scale[0]), Float(s * scale[1]), Float(offset[0]),
                         Float(-s * scale[0]), Float(c * scale[1]), Float(offset[1])]
        }
        let texture: Int
        if let known = textureIndex[ti] { texture = known } else {
            guard let made = try self.texture(ti, textures[ti], texturePixels: &texturePixels) else { return nil }
            asset.textures.append(made)
            texture = asset.textures.count - 1
            textureIndex[ti] = texture
        }
        var ref = TextureReference(texture: texture)
        ref.transform = transform
        ref.texCoord = set
        return ref
    }

    /// Texture `i` decoded, or nil (with a warning) when it has no image Terrapin can read.
    mutating func texture(_ i: Int, _ node: JSONNode, texturePixels: inout Int) throws(ModelError) -> ModelTexture? {
        let p = "textures[\(i)]"
        let t = try object(node, p)
        let images = try list("images")
        var source = t["source"]
        if let ext = t["extensions"] {
            let e = try object(ext, p + ".extensions")
            if let webp = e["EXT_texture_webp"] { source = try object(webp, p + ".extensions.EXT_texture_webp")["source"] ?? source }
        }
        guard let source else {
            warn("\(p) has no image Terrapin reads (a KHR_texture_basisu texture?): drawn untextured")
            return nil
        }
        let ii = try index(source, p + ".source", count: images.count, of: "images")
        let ip = "images[\(ii)]"
        let image = try object(images[ii], ip)
        let bytes: [UInt8]
        if let uri = try string(image["uri"], ip + ".uri") {
            bytes = try resource(uri, node: image["uri"]!, path: ip + ".uri", limit: limits.maxFileBytes)
        } else if let vi = image["bufferView"] {
            let v = try view(try index(vi, ip + ".bufferView", count: try list("bufferViews").count, of: "bufferViews"), ip)
            bytes = Array(buffers[v.buffer][v.offset..<(v.offset + v.length)])
        } else {
            throw fail(images[ii], ip, "needs a \"uri\" or a \"bufferView\"")
        }
        let decodeLimits = PNGDecodingLimits(maxPixels: limits.maxTexturePixels, maxFileBytes: limits.maxFileBytes)
        let pixmap: Pixmap
        do { pixmap = try RasterImage.decode(bytes, source: "\(self.source) \(ip)", limits: decodeLimits) } catch { throw ModelError.image(source: self.source, index: ii, error) }
        texturePixels += pixmap.width * pixmap.height
        guard texturePixels <= limits.maxTotalTexturePixels else {
            throw ModelError.tooLarge(source: self.source, what: "texture pixels in all", count: texturePixels, limit: limits.maxTotalTexturePixels)
        }
        var texture = ModelTexture(pixmap)
        if let s = t["sampler"] {
            let samplers = try list("samplers")
            let si = try index(s, p + ".sampler", count: samplers.count, of: "samplers")
            let sp = "samplers[\(si)]"
            let o = try object(samplers[si], sp)
            func wrap(_ key: String) throws(ModelError) -> ModelTexture.Wrap {
                switch try int(o[key], sp + "." + key, default: 10497) {
                case 10497: return .repeat
                case 33071: return .clamp
                case 33648: return .mirror
                default: throw fail(o[key], sp + "." + key, "is not 10497 (repeat), 33071 (clamp) or 33648 (mirrored repeat)")
                }
            }
            texture.wrapS = try wrap("wrapS")
            texture.wrapT = try wrap("wrapT")
            let mag = try int(o["magFilter"], sp + ".magFilter", default: 9729)
            guard [9728, 9729].contains(mag) else { throw fail(o["magFilter"], sp + ".magFilter", "is not 9728 (nearest) or 9729 (linear)") }
            texture.magnifyNearest = mag == 9728
            let min = try int(o["minFilter"], sp + ".minFilter", default: 9987)
            guard [9728, 9729, 9984, 9985, 9986, 9987].contains(min) else { throw fail(o["minFilter"], sp + ".minFilter", "is not a glTF minification filter (9728, 9729, 9984–9987)") }
            texture.minifyNearest = min == 9728 || min == 9984 || min == 9986
            texture.mipmapped = min >= 9984
            texture.mipLinear = min == 9986 || min == 9987
        }
        return texture
    }
}

#if canImport(Glibc)
import Glibc
#endif
