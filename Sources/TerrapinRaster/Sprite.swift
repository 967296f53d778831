// A premultiplied image prepared for drawing many times at whole-pixel positions (map pins,
// capsules, Marker3D styles): each row is split once into runs — transparent runs are skipped,
// opaque runs copied, the rest blended source-over — so a draw touches only what it changes.
// The bytes are exactly those of `Canvas.drawImage` at the same whole-pixel offset.

public struct Sprite: Sendable {
    public let pixmap: Pixmap
    let runs: [LevelRun]
    let rowStart: [Int]

    public init(_ pixmap: Pixmap) {
        self.pixmap = pixmap
        (runs, rowStart) = pixmap.data.withUnsafeBytes { raw in
            let p = raw.bindMemory(to: UInt32.self)
            return LevelRuns.split(width: pixmap.width, height: pixmap.height) { p[$0] >> 24 }
        }
    }
}

extension Canvas {
    /// Draws `sprite` with its top-left at device pixel (x, y), source-over, ignoring the
    /// transform. With a clip it takes `drawImage`'s path (same bytes, slower).
    public func drawSprite(_ sprite: Sprite, x: Int, y: Int) {
        guard !hasClip else {
            let saved = transform
            transform = .identity
            drawImage(sprite.pixmap, transform: .translation(Double(x), Double(y)))
            transform = saved
            return
        }
        guard max(0, y) < min(height, y + sprite.pixmap.height), x < width, x + sprite.pixmap.width > 0 else { return }
        if let composites {
            composites.add(.sprite(sprite, x: x, y: y))
            return
        }
        withDevicePixels { Self.composite(sprite, x: x, y: y, into: $0, width: width, height: height) }
    }

    /// `drawSprite` without a clip: `sprite` with its top-left at device pixel (x, y) of
    /// `pixels` (`width` × `height`), source-over.
    static func composite(_ sprite: Sprite, x: Int, y: Int, into pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int) {
        let y0 = max(0, y), y1 = min(height, y + sprite.pixmap.height)
        guard y0 < y1, x < width, x + sprite.pixmap.width > 0 else { return }
        sprite.pixmap.data.withUnsafeBytes { sourceRaw in
            let source = sourceRaw.bindMemory(to: UInt32.self).baseAddress!
            sprite.runs.withUnsafeBufferPointer { runs in
                let columns = max(0, x)..<min(width, x + sprite.pixmap.width)
                for row in y0..<y1 {
                    Canvas.prefetchAhead(pixels, width: width, row: row, end: y1, columns: columns)
                    let r = row - y
                    let s = source + r * sprite.pixmap.width, d = pixels + row * width + x
                    for k in sprite.rowStart[r]..<sprite.rowStart[r + 1] {
                        let run = runs[k]
                        // Clipped to the canvas: columns a..<b of the sprite.
                        let a = max(Int(run.x), -x), b = min(Int(run.x + run.length), width - x)
                        guard a < b else { continue }
                        if run.full {
                            (d + a).update(from: s + a, count: b - a)
                        } else {
                            for c in a..<b {
                                let p = s[c]
                                d[c] = p &+ Pixel.scale(d[c], 255 - (p >> 24))
                            }
                        }
                    }
                }
            }
        }
    }
}
