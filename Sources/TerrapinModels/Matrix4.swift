// A 4×4 affine transform in double precision, column-major as glTF writes it.

public struct Matrix4: Equatable, Sendable, CustomStringConvertible {
    /// Column-major: `m[column * 4 + row]`.
    public var m: [Double]

    public init(columnMajor m: [Double]) {
        precondition(m.count == 16)
        self.m = m
    }

    public static let identity = Matrix4(columnMajor: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])

    public subscript(row: Int, column: Int) -> Double {
        get { m[column * 4 + row] }
        set { m[column * 4 + row] = newValue }
    }

    /// glTF's translation, rotation (a unit quaternion x, y, z, w) and scale: T · R · S.
    public init(translation t: SIMD3<Double>, rotation q: SIMD4<Double>, scale s: SIMD3<Double>) {
        let length = (q * q).sum().squareRoot()
        let (x, y, z, w) = length > 0 ? (q.x / length, q.y / length, q.z / length, q.w / length) : (0, 0, 0, 1)
        let r: [Double] = [
            1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
            2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
            2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y),
        ]
        m = [r[0] * s.x, r[1] * s.x, r[2] * s.x, 0,
             r[3] * s.y, r[4] * s.y, r[5] * s.y, 0,
             r[6] * s.z, r[7] * s.z, r[8] * s.z, 0,
             t.x, t.y, t.z, 1]
    }

    public static func * (a: Matrix4, b: Matrix4) -> Matrix4 {
        var r = [Double](repeating: 0, count: 16)
        for c in 0..<4 {
            for row in 0..<4 {
                var s = 0.0
                for k in 0..<4 { s += a.m[k * 4 + row] * b.m[c * 4 + k] }
                r[c * 4 + row] = s
            }
        }
        return Matrix4(columnMajor: r)
    }

    public func apply(_ p: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(m[0] * p.x + m[4] * p.y + m[8] * p.z + m[12],
              m[1] * p.x + m[5] * p.y + m[9] * p.z + m[13],
              m[2] * p.x + m[6] * p.y + m[10] * p.z + m[14])
    }

    /// The linear part's determinant: negative when the transform mirrors (glTF then reverses
    /// the winding of front faces).
    public var determinant3: Double {
        m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) + m[8] * (m[1] * m[6] - m[5] * m[2])
    }

    public var isFinite: Bool { m.allSatisfy(\.isFinite) }

    public var description: String {
        (0..<4).map { row in (0..<4).map { c in String(self[row, c]) }.joined(separator: " ") }.joined(separator: "\n")
    }
}
