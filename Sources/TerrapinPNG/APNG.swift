// Animated PNG (APNG 1.0): frames encoded by libpng, reassembled around acTL/fcTL/fdAT chunks.
//
// The first frame's PNG gives the file its IHDR and its IDAT chunks (so viewers without APNG
// show frame 0); each later frame's IDAT data goes into fdAT chunks. Every frame is full-size
// at (0, 0), disposed of `none` and blended `source` (it replaces the canvas), shown for
// `delay` seconds as a fraction numerator/denominator. Sequence numbers count fcTL and fdAT
// chunks from 0 across the file; every chunk carries its CRC-32.

public enum APNG {
    /// Most frames in one file.
    public static let maxFrames = 10_000

    /// An APNG of `frames` (each a complete PNG of the same size and colour type, as
    /// `PNGEncoder.encode` makes them), each shown `delayNumerator / delayDenominator` seconds,
    /// played `plays` times (0: forever).
    public static func assemble(_ frames: [[UInt8]], delayNumerator: UInt16, delayDenominator: UInt16, plays: UInt32 = 0) throws(PNGError) -> [UInt8] {
        guard !frames.isEmpty, frames.count <= maxFrames else {
            throw PNGError.encodingFailed(reason: "an animated PNG needs 1 to \(maxFrames) frames, found \(frames.count)")
        }
        var out = PNGChunks.signature
        var sequence: UInt32 = 0
        var header: [UInt8] = []
        for (index, frame) in frames.enumerated() {
            let chunks = try PNGChunks.walk(frame, source: "frame \(index)")
            guard let ihdr = chunks.first(where: { $0.type == "IHDR" }) else {
                throw PNGError.encodingFailed(reason: "frame \(index) has no IHDR")
            }
            let thisHeader = Array(frame[ihdr.dataRange])
            if index == 0 {
                header = thisHeader
                out += chunk("IHDR", header)
                out += chunk("acTL", be32(UInt32(frames.count)) + be32(plays))
            } else if thisHeader != header {
                throw PNGError.encodingFailed(reason: "frame \(index) differs from frame 0 in size or format")
            }
            // fcTL: sequence, width, height, x, y, delay num/den, dispose none, blend source.
            out += chunk("fcTL", be32(sequence) + Array(header[0..<8]) + be32(0) + be32(0)
                         + be16(delayNumerator) + be16(delayDenominator) + [0, 0])
            sequence += 1
            for c in chunks where c.type == "IDAT" {
                if index == 0 {
                    out += chunk("IDAT", Array(frame[c.dataRange]))
                } else {
                    out += chunk("fdAT", be32(sequence) + Array(frame[c.dataRange]))
                    sequence += 1
                }
            }
        }
        out += chunk("IEND", [])
        return out
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(PNGChunks.crc32(body))
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
}
