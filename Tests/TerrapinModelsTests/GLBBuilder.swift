// Small glTF models made in the tests: a JSON document and one binary buffer, as GLB or as
// .gltf with a data: URI.
@testable import TerrapinModels

struct GLBBuilder {
    var bin: [UInt8] = []
    var bufferViews: [String] = []
    var accessors: [String] = []

    /// Appends floats as a buffer view and an accessor; returns the accessor's index.
    mutating func floats(_ values: [Float], type: String, min: [Float]? = nil, max: [Float]? = nil) -> Int {
        align()
        let offset = bin.count
        for v in values { bin += withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } }
        bufferViews.append(#"{"buffer":0,"byteOffset":\#(offset),"byteLength":\#(values.count * 4)}"#)
        let n = ["SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4][type]!
        var extra = ""
        if let min, let max { extra = #","min":\#(min),"max":\#(max)"# }
        accessors.append(#"{"bufferView":\#(bufferViews.count - 1),"componentType":5126,"count":\#(values.count / n),"type":"\#(type)"\#(extra)}"#)
        return accessors.count - 1
    }

    mutating func indices(_ values: [UInt16]) -> Int {
        align()
        let offset = bin.count
        for v in values { bin += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        bufferViews.append(#"{"buffer":0,"byteOffset":\#(offset),"byteLength":\#(values.count * 2)}"#)
        accessors.append(#"{"bufferView":\#(bufferViews.count - 1),"componentType":5123,"count":\#(values.count),"type":"SCALAR"}"#)
        return accessors.count - 1
    }

    /// Raw bytes as a buffer view; returns the view's index.
    mutating func view(_ bytes: [UInt8], stride: Int? = nil) -> Int {
        align()
        let offset = bin.count
        bin += bytes
        bufferViews.append(#"{"buffer":0,"byteOffset":\#(offset),"byteLength":\#(bytes.count)\#(stride.map { ",\"byteStride\":\($0)" } ?? "")}"#)
        return bufferViews.count - 1
    }

    mutating func accessor(_ json: String) -> Int {
        accessors.append(json)
        return accessors.count - 1
    }

    mutating func align() { while bin.count % 4 != 0 { bin.append(0) } }

    /// The document around `rest` (meshes, nodes, materials… as JSON members, no braces).
    func json(_ rest: String) -> String {
        #"{"asset":{"version":"2.0"},"buffers":[{"byteLength":\#(bin.count)}],"bufferViews":[\#(bufferViews.joined(separator: ","))],"accessors":[\#(accessors.joined(separator: ","))],\#(rest)}"#
    }

    func glb(_ rest: String) -> [UInt8] { Self.glb(json: json(rest), bin: bin) }

    static func glb(json: String, bin: [UInt8]) -> [UInt8] {
        var j = Array(json.utf8)
        while j.count % 4 != 0 { j.append(0x20) }
        var b = bin
        while b.count % 4 != 0 { b.append(0) }
        func u32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
        let total = 12 + 8 + j.count + (b.isEmpty ? 0 : 8 + b.count)
        var out = Array("glTF".utf8) + u32(2) + u32(total)
        out += u32(j.count) + u32(0x4E4F_534A) + j
        if !b.isEmpty { out += u32(b.count) + u32(0x004E_4942) + b }
        return out
    }

    /// A unit cube centred on the origin: 24 vertices (flat faces), normals, 12 triangles.
    static func cube(material: String = #"{"pbrMetallicRoughness":{"baseColorFactor":[0.9,0.3,0.2,1]}}"#, nodes: String = #"[{"mesh":0}]"#) -> [UInt8] {
        var b = GLBBuilder()
        var positions: [Float] = [], normals: [Float] = [], idx: [UInt16] = []
        let faces: [([Float], [Float], [Float])] = [
            ([1, 0, 0], [0, 1, 0], [0, 0, 1]), ([-1, 0, 0], [0, 0, 1], [0, 1, 0]),
            ([0, 1, 0], [0, 0, 1], [1, 0, 0]), ([0, -1, 0], [1, 0, 0], [0, 0, 1]),
            ([0, 0, 1], [1, 0, 0], [0, 1, 0]), ([0, 0, -1], [0, 1, 0], [1, 0, 0]),
        ]
        for (n, u, v) in faces {
            let base = UInt16(positions.count / 3)
            for (su, sv) in [(-1, -1), (1, -1), (1, 1), (-1, 1)] as [(Float, Float)] {
                for k in 0..<3 { positions.append(0.5 * (n[k] + su * u[k] + sv * v[k])) }
                normals += n
            }
            idx += [base, base + 1, base + 2, base, base + 2, base + 3]
        }
        let p = b.floats(positions, type: "VEC3", min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5])
        let n = b.floats(normals, type: "VEC3")
        let i = b.indices(idx)
        return b.glb(#""scene":0,"scenes":[{"nodes":[0]}],"nodes":\#(nodes),"meshes":[{"primitives":[{"attributes":{"POSITION":\#(p),"NORMAL":\#(n)},"indices":\#(i),"material":0}]}],"materials":[\#(material)]"#)
    }
}
