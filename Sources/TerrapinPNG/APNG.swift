// Animated PNG (APNG 1.0): frames encoded by libpng, reassembled around acTL/fcTL/fdAT chunks.
//
// The first frame's PNG gives the file its IHDR and its IDAT chunks (so viewers without APNG
// show frame 0); each later frame is the rectangle that changed, encoded alone, its IDAT data
// in fdAT chunks at the rectangle's offset, disposed of `none` and blended `source`, shown for
// `delay` seconds as a fraction numerator/denominator. Sequence numbers count fcTL and fdAT
// chunks from 0 across the file; every chunk carries its CRC-32.

import TerrapinRaster

/// Writes an animated PNG frame by frame, storing only what changed: each frame after the
/// first is the rectangle around the pixels that differ from the frame before, at its offset,
/// disposed of `none` (the canvas keeps it) and blended `source` (the rectangle replaces what
/// was there, alpha included), so every frame shows exactly the pixels it was given. A frame
/// equal to the one before is a 1×1 rectangle of the same pixel. Holds one frame, not all.
public final class APNGWriter {
    public let width: Int, height: Int
    /// RGBA when true, else RGB (every frame must then be opaque).
    public let alpha: Bool
    let delayNumerator: UInt16, delayDenominator: UInt16, plays: UInt32
    let options: PNGEncodingOptions
    private var header: [UInt8] = []
    private var body: [UInt8] = []
    private var previous: Pixmap?
    private var sequence: UInt32 = 0
    public private(set) var frameCount = 0

    public init(width: Int, height: Int, alpha: Bool, delayNumerator: UInt16, delayDenominator: UInt16, plays: UInt32 = 0,
                options: PNGEncodingOptions = .default) {
        self.width = width; self.height = height; self.alpha = alpha
        self.delayNumerator = delayNumerator; self.delayDenominator = delayDenominator; self.plays = plays
        self.options = options
    }

    /// Bytes written so far.
    public var byteCount: Int { header.count + body.count }

    public func add(_ frame: Pixmap) throws(PNGError) {
        guard frame.width == width, frame.height == height else {
            throw PNGError.encodingFailed(reason: "frame \(frameCount) is \(frame.width)x\(frame.height), not \(width)x\(height)")
        }
        guard frameCount < APNG.maxFrames else { throw PNGError.encodingFailed(reason: "an animated PNG holds at most \(APNG.maxFrames) frames") }
        guard alpha || frame.isOpaque else { throw PNGError.encodingFailed(reason: "frame \(frameCount) has transparent pixels in an RGB animation") }
        let region: (x: Int, y: Int, width: Int, height: Int)
        if let previous { region = APNG.changed(previous, frame) ?? (0, 0, 1, 1) } else { region = (0, 0, width, height) }
        let piece = region.width == width && region.height == height ? frame : APNG.crop(frame, region)
        let png = try PNGEncoder.encode(piece, options: previous == nil ? options : PNGEncodingOptions(compression: options.compression), alpha: alpha)
        let chunks = try PNGChunks.walk(png, source: "frame \(frameCount)")
        if previous == nil {
            guard let ihdr = chunks.first(where: { $0.type == "IHDR" }) else { throw PNGError.encodingFailed(reason: "frame 0 has no IHDR") }
            header = Array(png[ihdr.dataRange])
            // Text chunks of the first frame (Software, …) stay, before the image data.
            for c in chunks where c.type == "tEXt" || c.type == "iTXt" || c.type == "zTXt" { body += PNGChunks.chunk(c.type, Array(png[c.dataRange])) }
        }
        body += PNGChunks.chunk("fcTL", PNGChunks.be32(sequence) + PNGChunks.be32(UInt32(region.width)) + PNGChunks.be32(UInt32(region.height))
                           + PNGChunks.be32(UInt32(region.x)) + PNGChunks.be32(UInt32(region.y))
                           + PNGChunks.be16(delayNumerator) + PNGChunks.be16(delayDenominator) + [0, 0])
        sequence += 1
        for c in chunks where c.type == "IDAT" {
            if previous == nil {
                body += PNGChunks.chunk("IDAT", Array(png[c.dataRange]))
            } else {
                body += PNGChunks.chunk("fdAT", PNGChunks.be32(sequence) + Array(png[c.dataRange]))
                sequence += 1
            }
        }
        previous = frame
        frameCount += 1
    }

    /// The file: signature, IHDR, acTL (the frame count now known), the frames, IEND.
    public func finish() throws(PNGError) -> [UInt8] {
        guard frameCount > 0 else { throw PNGError.encodingFailed(reason: "an animated PNG needs at least one frame") }
        return PNGChunks.signature + PNGChunks.chunk("IHDR", header) + PNGChunks.chunk("acTL", PNGChunks.be32(UInt32(frameCount)) + PNGChunks.be32(plays))
            + body + PNGChunks.chunk("IEND", [])
    }
}

public enum APNG {
    /// Most frames in one file.
    public static let maxFrames = 10_000

    /// The smallest rectangle holding every pixel that differs between `a` and `b` (same size),
    /// nil when none does.
    static func changed(_ a: Pixmap, _ b: Pixmap) -> (x: Int, y: Int, width: Int, height: Int)? {
        var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
        a.data.withUnsafeBytes { pa in
            b.data.withUnsafeBytes { pb in
                let wa = pa.bindMemory(to: UInt32.self), wb = pb.bindMemory(to: UInt32.self)
                for y in 0..<a.height {
                    let row = y * a.width
                    var first = -1, last = -1
                    for x in 0..<a.width where wa[row + x] != wb[row + x] { first = x; break }
                    guard first >= 0 else { continue }
                    for x in stride(from: a.width - 1, through: first, by: -1) where wa[row + x] != wb[row + x] { last = x; break }
                    minX = min(minX, first); maxX = max(maxX, last); minY = min(minY, y); maxY = y
                }
            }
        }
        return maxY < 0 ? nil : (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    static func crop(_ p: Pixmap, _ r: (x: Int, y: Int, width: Int, height: Int)) -> Pixmap {
        var data = [UInt8](repeating: 0, count: r.width * r.height * 4)
        for row in 0..<r.height {
            let from = ((r.y + row) * p.width + r.x) * 4
            let to = row * r.width * 4, count = r.width * 4
            data.replaceSubrange(to..<(to + count), with: p.data[from..<(from + count)])
        }
        return Pixmap(width: r.width, height: r.height, premultipliedData: data)!
    }
}
