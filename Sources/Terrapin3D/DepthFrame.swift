// The depth frame the ground and 3D layers draw into, through the one depth rasteriser
// (DepthRaster.swift): terrain and buildings single-sampled, models with 8 samples a pixel.
import TerrapinIO

/// A depth-tested frame being drawn: premultiplied pixels and per-pixel depth.
public struct DepthFrame {
    public let width: Int, height: Int
    public var pixels: [UInt32]
    public var depth: [Float]

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt32](repeating: 0, count: width * height)
        depth = [Float](repeating: .infinity, count: width * height)
    }

    /// How many bands of rows to draw the frame in (`inBands`): two a processor this process
    /// may use, for balance (one band's rows may hold more of a mesh than another's); one where
    /// there is a single processor, or the frame is under 64 rows, since each band redoes its
    /// share of a mesh's vertices.
    public var bands: Int { height >= 64 && Cores.available > 1 ? Cores.available * 2 : 1 }
}
