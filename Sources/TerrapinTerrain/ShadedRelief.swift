// A height grid seen straight down, one sample per pixel: Horn hillshade times the hypsometric
// ramp, as an opaque image. The same arithmetic as `TerrainStyle.hillshade` and `rampColor`
// (so the same bytes), written for speed: interior samples read their eight neighbours without
// clamping, the ramp's stops are local, pixels are written straight into the buffer.
import Dispatch
import TerrapinIO
import TerrapinRaster


extension TerrainStyle {
    /// `heights` row-major, row 0 north; cell sizes in metres. Edge samples repeat their
    /// neighbours (clamped). Each pixel is the ramp colour of its height times
    /// `0.25 + 0.75 × hillshade`, rounded. Nil when the size is not a valid `Pixmap`.
    public func shadedRelief(_ heights: [Double], columns: Int, rows: Int, dxMetres: Double, dyMetres: Double) -> Pixmap? {
        guard columns >= 1, rows >= 1, heights.count == columns * rows, var image = Pixmap(width: columns, height: rows) else { return nil }
        let stops = Self.ramp.map { $0.0 }
        let colours = Self.ramp.map { SIMD3<Double>($0.1.0, $0.1.1, $0.1.2) }
        let l = light
        let xDivisor = 8 * dxMetres, yDivisor = 8 * dyMetres
        // Disjoint rows of `out` per band; `h` is only read.
        struct Buffers: @unchecked Sendable { let h: UnsafeBufferPointer<Double>; let out: UnsafeMutableBufferPointer<UInt8> }
        heights.withUnsafeBufferPointer { heightBuffer in
            image.data.withUnsafeMutableBytes { raw in
                let buffers = Buffers(h: heightBuffer, out: raw.bindMemory(to: UInt8.self))
                // Bands of rows on every core; each pixel depends only on the heights, so the
                // bytes are the same for any number of bands.
                let bands = rows >= 64 ? min(Cores.available, 8) : 1
                DispatchQueue.concurrentPerform(iterations: bands) { band in
                let h = buffers.h, out = buffers.out
                for r in (rows * band / bands)..<(rows * (band + 1) / bands) {
                    let up = max(r - 1, 0) * columns, here = r * columns, down = min(r + 1, rows - 1) * columns
                    for c in 0..<columns {
                        let left = max(c - 1, 0), right = min(c + 1, columns - 1)
                        let a = h[up + left], b = h[up + c], cc = h[up + right]
                        let d = h[here + left], f = h[here + right]
                        let g = h[down + left], hh = h[down + c], i = h[down + right]
                        let dzdx = ((cc + 2 * f + i) - (a + 2 * d + g)) / xDivisor
                        let dzdy = ((a + 2 * b + cc) - (g + 2 * hh + i)) / yDivisor
                        let shade = min(1, max(0, (-dzdx * l.0 - dzdy * l.1 + l.2) / (dzdx * dzdx + dzdy * dzdy + 1).squareRoot()))
                        let base = Self.ramp(h[here + c], stops: stops, colours: colours)
                        let k = 0.25 + 0.75 * shade
                        let o = (here + c) * 4
                        out[o] = Self.byte(base.x * k)
                        out[o + 1] = Self.byte(base.y * k)
                        out[o + 2] = Self.byte(base.z * k)
                        out[o + 3] = 255
                    }
                }
                }
            }
        }
        return image
    }

    @inline(__always)
    static func byte(_ v: Double) -> UInt8 {
        // Truncation is the floor here (the value is at least 0.5): no libm call per channel.
        UInt8(min(255, max(0, v)) + 0.5)
    }

    @inline(__always)
    static func ramp(_ h: Double, stops: [Double], colours: [SIMD3<Double>]) -> SIMD3<Double> {
        if h <= stops[0] { return colours[0] }
        for i in 1..<stops.count where h <= stops[i] {
            let t = (h - stops[i - 1]) / (stops[i] - stops[i - 1])
            let a = colours[i - 1], b = colours[i]
            return a + (b - a) * t
        }
        return colours[colours.count - 1]
    }
}
