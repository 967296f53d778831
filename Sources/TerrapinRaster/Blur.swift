// Gaussian blur of an 8-bit coverage mask, approximated by three box blurs per axis with the
// sizes of the W3C filter-effects spec: d = ⌊σ·3·√(2π)/4 + 0.5⌋; for odd d three centred
// boxes of d; for even d two boxes of d offset half a pixel each way and one of d+1.
// Measured error against the exact Gaussian (a blurred straight edge, σ = 2…20) is stated
// in the tests. Pixels outside the mask count as 0.

public enum Blur {
    /// The box sizes and offsets used for a standard deviation σ (in pixels).
    static func boxes(sigma: Double) -> [(size: Int, offset: Int)] {
        let d = Int((sigma * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down))
        guard d > 1 else { return [] }
        if d % 2 == 1 { return [(d, 0), (d, 0), (d, 0)] }
        // Boxes of even size d cover [x − d/2, x + d/2 − 1] (offset 0) or [x − d/2 + 1, x + d/2].
        return [(d, 0), (d, 1), (d + 1, 0)]
    }

    /// Blurs `mask` (width × height, row-major) in place with standard deviation `sigma` px.
    public static func gaussian(_ mask: inout [UInt8], width: Int, height: Int, sigma: Double) {
        guard sigma.isFinite, sigma > 0, width > 0, height > 0 else { return }
        let passes = boxes(sigma: sigma)
        guard !passes.isEmpty else { return }
        let longest = max(width, height)
        var lineStorage = [UInt32](repeating: 0, count: longest)
        var outStorage = [UInt8](repeating: 0, count: longest)
        lineStorage.withUnsafeMutableBufferPointer { lineBuffer in
            outStorage.withUnsafeMutableBufferPointer { outBuffer in
                mask.withUnsafeMutableBufferPointer { maskBuffer in
                    let line = lineBuffer.baseAddress!, out = outBuffer.baseAddress!, m = maskBuffer.baseAddress!
                    // Horizontal passes, row by row.
                    for y in 0..<height {
                        let row = m + y * width
                        for pass in passes {
                            for x in 0..<width { line[x] = UInt32(row[x]) }
                            box(line, count: width, size: pass.size, offset: pass.offset, into: out)
                            for x in 0..<width { row[x] = out[x] }
                        }
                    }
                    // Vertical passes, column by column.
                    for x in 0..<width {
                        for pass in passes {
                            for y in 0..<height { line[y] = UInt32(m[y * width + x]) }
                            box(line, count: height, size: pass.size, offset: pass.offset, into: out)
                            for y in 0..<height { m[y * width + x] = out[y] }
                        }
                    }
                }
            }
        }
    }

    /// out[i] = round(Σ input[i − lo ... i + hi] / size), with lo = size/2 − offset.
    @inline(__always)
    static func box(_ input: UnsafeMutablePointer<UInt32>, count: Int, size: Int, offset: Int, into out: UnsafeMutablePointer<UInt8>) {
        let lo = size / 2 - offset
        let hi = size - 1 - lo
        var sum: UInt32 = 0
        for k in 0...min(hi, count - 1) { sum += input[k] }
        let half = UInt32(size / 2)
        let divisor = UInt32(size)
        for i in 0..<count {
            out[i] = UInt8((sum + half) / divisor)
            let add = i + hi + 1, remove = i - lo
            if add < count { sum += input[add] }
            if remove >= 0 { sum -= input[remove] }
        }
    }
}
