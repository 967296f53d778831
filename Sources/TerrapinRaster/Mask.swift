// An 8-bit coverage mask the size of a canvas: 255 inside, 0 outside, anti-aliased between.
// Clips are masks; drawing multiplies its coverage by the clip's.

public struct Mask: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public var data: [UInt8]
    /// Pixels outside `bounds` are 0.
    public var bounds: IntRect

    public init(width: Int, height: Int, filledWith value: UInt8 = 0) {
        self.width = width
        self.height = height
        self.data = [UInt8](repeating: value, count: width * height)
        self.bounds = value == 0 ? IntRect(x0: 0, y0: 0, x1: 0, y1: 0) : IntRect(x0: 0, y0: 0, x1: width, y1: height)
    }

    /// A mask over `data`, which must be `width` × `height` bytes, all zero.
    init(width: Int, height: Int, zeroed data: [UInt8]) {
        precondition(data.count == width * height)
        self.width = width
        self.height = height
        self.data = data
        self.bounds = IntRect(x0: 0, y0: 0, x1: 0, y1: 0)
    }

    public subscript(x: Int, y: Int) -> UInt8 { data[y * width + x] }
}

/// Writes coverage rows into a byte mask `width` bytes a row, replacing what is there.
public struct MaskSink: CoverageSink {
    let pixels: UnsafeMutablePointer<UInt8>
    let width: Int

    public init(pixels: UnsafeMutablePointer<UInt8>, width: Int) {
        (self.pixels, self.width) = (pixels, width)
    }

    public mutating func blit(y: Int, x: Int, coverage: UnsafeMutableBufferPointer<UInt8>) {
        let row = pixels + y * width + x
        for i in 0..<coverage.count { row[i] = coverage[i] }
    }
}
