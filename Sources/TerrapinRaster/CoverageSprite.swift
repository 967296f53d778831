// A coverage mask split once into row runs — full (255) and partial — so that compositing it
// in a colour skips what it does not cover and stores the colour where it fully covers: the
// shape-mask counterpart of `Sprite`. Drawing it is the same bytes as `fillMask` of its mask
// (and so as filling the shape there): full runs of an opaque colour are the colour, partial
// pixels take `Pixel.blend`, the scalar formula `fillMask` matches lane by lane.

public struct CoverageSprite: Sendable {
    public let width: Int, height: Int
    let mask: [UInt8]
    /// Row r's runs are `runs[rowStart[r]..<rowStart[r + 1]]`.
    let runs: [LevelRun]
    let rowStart: [Int]

    /// Bytes held (the mask and its runs).
    public var byteCount: Int { mask.count + runs.count * MemoryLayout<LevelRun>.stride + rowStart.count * MemoryLayout<Int>.stride }

    /// `mask` is `width` bytes per row. Nil when it is not whole rows.
    public init?(mask: [UInt8], width: Int) {
        guard width > 0, !mask.isEmpty, mask.count % width == 0 else { return nil }
        self.width = width
        height = mask.count / width
        self.mask = mask
        (runs, rowStart) = LevelRuns.split(width: width, height: height) { UInt32(mask[$0]) }
    }
}

extension Canvas {
    /// Composites `color` through `sprite`'s coverage with its top-left at device pixel
    /// `origin`, source-over; the clip applies (through `fillMask`), the transform does not.
    public func fill(_ sprite: CoverageSprite, at origin: (x: Int, y: Int), color: RGBAColor) {
        let packed = Pixel.pack(RGBAColor(red: color.red, green: color.green, blue: color.blue,
                                          alpha: color.alpha.isFinite ? min(1, max(0, color.alpha)) : 0).premultiplied)
        guard !hasClip, packed >> 24 != 0 else {
            if packed >> 24 != 0 { fillMask(sprite.mask, width: sprite.width, at: origin, color: color) }
            return
        }
        guard max(0, origin.y) < min(height, origin.y + sprite.height), origin.x < width, origin.x + sprite.width > 0 else { return }
        if let composites {
            composites.add(.coverage(sprite, x: origin.x, y: origin.y, source: packed))
            return
        }
        withDevicePixels { Self.composite(sprite, at: origin, source: packed, into: $0, width: width, height: height) }
    }

    /// `fill(_:at:color:)` without a clip: premultiplied `packed` through `sprite` at device
    /// pixel `origin` of `pixels` (`width` × `height`), source-over.
    static func composite(_ sprite: CoverageSprite, at origin: (x: Int, y: Int), source packed: UInt32,
                          into pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int) {
        let y0 = max(0, origin.y), y1 = min(height, origin.y + sprite.height)
        guard y0 < y1, origin.x < width, origin.x + sprite.width > 0 else { return }
        let opaque = packed >> 24 == 255
        sprite.mask.withUnsafeBufferPointer { mask in
            sprite.runs.withUnsafeBufferPointer { runs in
                let columns = max(0, origin.x)..<min(width, origin.x + sprite.width)
                for row in y0..<y1 {
                    Canvas.prefetchAhead(pixels, width: width, row: row, end: y1, columns: columns)
                    let r = row - origin.y
                    let m = mask.baseAddress! + r * sprite.width, d = pixels + row * width + origin.x
                    for k in sprite.rowStart[r]..<sprite.rowStart[r + 1] {
                        let run = runs[k]
                        let a = max(Int(run.x), -origin.x), b = min(Int(run.x + run.length), width - origin.x)
                        guard a < b else { continue }
                        if run.full && opaque {
                            (d + a).update(repeating: packed, count: b - a)
                        } else {
                            for c in a..<b { d[c] = Pixel.blend(packed, into: d[c], coverage: UInt32(m[c]), mode: .sourceOver) }
                        }
                    }
                }
            }
        }
    }
}
