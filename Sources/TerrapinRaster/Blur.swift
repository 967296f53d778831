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
    /// Rows are blurred one at a time; columns all at once, a row at a time, with one running sum
    /// per column (reading the mask in memory order: column by column it cost 4× as much).
    public static func gaussian(_ mask: inout [UInt8], width: Int, height: Int, sigma: Double) {
        guard sigma.isFinite, sigma > 0, width > 0, height > 0 else { return }
        // Boxes stay under 2^12 pixels for `reciprocal` (callers cap σ at 256 device pixels).
        let passes = boxes(sigma: min(sigma, 1_000))
        guard !passes.isEmpty else { return }
        var lineStorage = [UInt32](repeating: 0, count: width)
        var rowStorage = [UInt8](repeating: 0, count: width)
        var sumStorage = [UInt32](repeating: 0, count: width)
        var copyStorage = [UInt8](repeating: 0, count: width * height)
        lineStorage.withUnsafeMutableBufferPointer { lineBuffer in
            rowStorage.withUnsafeMutableBufferPointer { rowBuffer in
                sumStorage.withUnsafeMutableBufferPointer { sumBuffer in
                    copyStorage.withUnsafeMutableBufferPointer { copyBuffer in
                        mask.withUnsafeMutableBufferPointer { maskBuffer in
                            let line = lineBuffer.baseAddress!, out = rowBuffer.baseAddress!, sums = sumBuffer.baseAddress!
                            let m = maskBuffer.baseAddress!, copy = copyBuffer.baseAddress!
                            for y in 0..<height {
                                let row = m + y * width
                                for pass in passes {
                                    for x in 0..<width { line[x] = UInt32(row[x]) }
                                    box(line, count: width, size: pass.size, offset: pass.offset, into: out)
                                    for x in 0..<width { row[x] = out[x] }
                                }
                            }
                            // Each vertical pass reads one buffer and writes the other; three
                            // passes end in `copy`, copied back.
                            var source = m, target = copy
                            for pass in passes {
                                columns(source, target, width: width, height: height, size: pass.size, offset: pass.offset, sums: sums)
                                swap(&source, &target)
                            }
                            if source != m { m.update(from: source, count: width * height) }
                        }
                    }
                }
            }
        }
    }

    /// n / d, rounded down, for n < 2^20 and 0 < d < 2^12, as a multiply and a shift (exact there:
    /// the reciprocal's error, under n / 2^40, stays below the 1/d a quotient would need to change).
    @inline(__always)
    static func reciprocal(_ d: Int) -> UInt64 { (1 << 40) / UInt64(d) + 1 }

    /// out[i] = round(Σ input[i − lo ... i + hi] / size), with lo = size/2 − offset.
    @inline(__always)
    static func box(_ input: UnsafeMutablePointer<UInt32>, count: Int, size: Int, offset: Int, into out: UnsafeMutablePointer<UInt8>) {
        let lo = size / 2 - offset
        let hi = size - 1 - lo
        var sum: UInt32 = 0
        for k in 0...min(hi, count - 1) { sum += input[k] }
        let half = UInt32(size / 2)
        let r = reciprocal(size)
        for i in 0..<count {
            out[i] = UInt8(truncatingIfNeeded: (UInt64(sum + half) &* r) >> 40)
            let add = i + hi + 1, remove = i - lo
            if add < count { sum += input[add] }
            if remove >= 0 { sum -= input[remove] }
        }
    }

    /// The box of `box` down every column of `source` at once, into `target`.
    static func columns(_ source: UnsafeMutablePointer<UInt8>, _ target: UnsafeMutablePointer<UInt8>, width: Int, height: Int,
                        size: Int, offset: Int, sums: UnsafeMutablePointer<UInt32>) {
        let lo = size / 2 - offset
        let hi = size - 1 - lo
        let half = UInt32(size / 2)
        let r = reciprocal(size)
        for x in 0..<width { sums[x] = 0 }
        for k in 0...min(hi, height - 1) {
            let row = source + k * width
            for x in 0..<width { sums[x] &+= UInt32(row[x]) }
        }
        for y in 0..<height {
            let out = target + y * width
            for x in 0..<width { out[x] = UInt8(truncatingIfNeeded: (UInt64(sums[x] &+ half) &* r) >> 40) }
            let add = y + hi + 1, remove = y - lo
            if add < height {
                let row = source + add * width
                for x in 0..<width { sums[x] &+= UInt32(row[x]) }
            }
            if remove >= 0 {
                let row = source + remove * width
                for x in 0..<width { sums[x] &-= UInt32(row[x]) }
            }
        }
    }
}
