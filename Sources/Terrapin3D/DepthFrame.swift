// The depth frame the ground and 3D layers draw into, through the one depth rasteriser
// (DepthRaster.swift): terrain and buildings single-sampled, models with 8 samples a pixel.

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
}
