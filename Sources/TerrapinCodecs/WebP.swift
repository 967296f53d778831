// WebP through libwebp: lossy (VP8), lossless (VP8L) and alpha, still images; animated WebP is
// written (for `frames`) but not read (a typed error). libwebp returns errors as values, so
// Swift calls it directly. Encoding is single-threaded and so byte-identical run to run.
import CLibWebP
import TerrapinPNG
import TerrapinRaster

public enum WebPDecoder {
    public static func decode(_ bytes: [UInt8], source: String = "WebP data",
                              limits: PNGDecodingLimits = .default) throws(CodecError) -> Pixmap {
        try bytes.withUnsafeBufferPointer { (input) throws(CodecError) -> Pixmap in
            var features = WebPBitstreamFeatures()
            let status = WebPGetFeatures(input.baseAddress, input.count, &features)
            guard status == VP8_STATUS_OK else {
                throw .corrupt(source: source, format: "WebP", reason: describe(status))
            }
            guard features.has_animation == 0 else {
                throw .unsupported(source: source, what: "an animated WebP; give a still image (one frame)")
            }
            let width = Int(features.width), height = Int(features.height)
            try RasterImage.check(width, height, source, limits)
            guard var pixmap = Pixmap(width: width, height: height) else {
                throw .tooLarge(source: source, width: width, height: height, limit: "Pixmap limits")
            }
            let stride = width * 4
            let done = pixmap.data.withUnsafeMutableBufferPointer { out in
                WebPDecodeRGBAInto(input.baseAddress, input.count, out.baseAddress, out.count, Int32(stride)) != nil
            }
            guard done else { throw .corrupt(source: source, format: "WebP", reason: "the image data cannot be decoded") }
            if features.has_alpha != 0 { PNGDecoder.premultiplyInPlace(&pixmap.data) }
            return pixmap
        }
    }

    static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        case VP8_STATUS_INVALID_PARAM: "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: "the bitstream is malformed"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "it uses a feature libwebp does not support"
        case VP8_STATUS_NOT_ENOUGH_DATA: "the file ends early"
        default: "status \(status.rawValue)"
        }
    }
}

public enum WebPEncoder {
    /// `quality` 0…100 for lossy; nil for lossless (exact pixels, alpha kept).
    public static func encode(_ pixmap: Pixmap, quality: Int? = nil) throws(CodecError) -> [UInt8] {
        if let quality, !(0...100).contains(quality) { throw .encodingFailed(format: "WebP", reason: "quality \(quality) is not 0…100") }
        let rgba = PNGDecoder.straightRGBA(pixmap)
        var out: UnsafeMutablePointer<UInt8>?
        let size = rgba.withUnsafeBufferPointer { p in
            if let quality {
                WebPEncodeRGBA(p.baseAddress, Int32(pixmap.width), Int32(pixmap.height), Int32(pixmap.width * 4), Float(quality), &out)
            } else {
                WebPEncodeLosslessRGBA(p.baseAddress, Int32(pixmap.width), Int32(pixmap.height), Int32(pixmap.width * 4), &out)
            }
        }
        defer { WebPFree(out) }
        guard size > 0, let out else { throw .encodingFailed(format: "WebP", reason: "libwebp refused the image") }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// An animated WebP: every frame the same size, each shown for its duration in
    /// milliseconds; `loops` 0 repeats forever.
    public static func encodeAnimation(_ frames: [(image: Pixmap, milliseconds: Int)], quality: Int? = nil,
                                       loops: Int = 0) throws(CodecError) -> [UInt8] {
        guard let first = frames.first?.image else { throw .encodingFailed(format: "WebP", reason: "no frames") }
        guard frames.allSatisfy({ $0.image.width == first.width && $0.image.height == first.height }) else {
            throw .encodingFailed(format: "WebP", reason: "frames differ in size")
        }
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else { throw .encodingFailed(format: "WebP", reason: "libwebp version mismatch") }
        options.anim_params.loop_count = Int32(loops)
        options.allow_mixed = 0
        guard let encoder = WebPAnimEncoderNew(Int32(first.width), Int32(first.height), &options) else {
            throw .encodingFailed(format: "WebP", reason: "out of memory")
        }
        defer { WebPAnimEncoderDelete(encoder) }
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw .encodingFailed(format: "WebP", reason: "libwebp version mismatch") }
        if let quality { config.quality = Float(quality) } else { config.lossless = 1 }
        var timestamp = 0
        for frame in frames {
            var picture = WebPPicture()
            guard WebPPictureInit(&picture) != 0 else { throw .encodingFailed(format: "WebP", reason: "libwebp version mismatch") }
            picture.width = Int32(first.width)
            picture.height = Int32(first.height)
            picture.use_argb = 1
            let rgba = PNGDecoder.straightRGBA(frame.image)
            let imported = rgba.withUnsafeBufferPointer { WebPPictureImportRGBA(&picture, $0.baseAddress, Int32(first.width * 4)) }
            defer { WebPPictureFree(&picture) }
            guard imported != 0, WebPAnimEncoderAdd(encoder, &picture, Int32(timestamp), &config) != 0 else {
                throw .encodingFailed(format: "WebP", reason: String(cString: WebPAnimEncoderGetError(encoder)))
            }
            timestamp += max(1, frame.milliseconds)
        }
        guard WebPAnimEncoderAdd(encoder, nil, Int32(timestamp), nil) != 0 else {
            throw .encodingFailed(format: "WebP", reason: String(cString: WebPAnimEncoderGetError(encoder)))
        }
        var data = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
            throw .encodingFailed(format: "WebP", reason: String(cString: WebPAnimEncoderGetError(encoder)))
        }
        defer { WebPFree(UnsafeMutableRawPointer(mutating: bytes)) }
        return Array(UnsafeBufferPointer(start: bytes, count: data.size))
    }
}

/// libwebpmux: a chunk set in a WebP (which it turns into the extended form that can carry one).
enum WebPMux {
    static func setting(chunk fourCC: String, to payload: [UInt8], in webp: [UInt8]) throws(CodecError) -> [UInt8] {
        try webp.withUnsafeBufferPointer { (image) throws(CodecError) -> [UInt8] in
            var data = WebPData(bytes: image.baseAddress, size: image.count)
            guard let mux = WebPMuxCreate(&data, 0) else { throw .encodingFailed(format: "WebP", reason: "libwebpmux could not read the image") }
            defer { WebPMuxDelete(mux) }
            let status = payload.withUnsafeBufferPointer { bytes -> WebPMuxError in
                var chunk = WebPData(bytes: bytes.baseAddress, size: bytes.count)
                return WebPMuxSetChunk(mux, fourCC, &chunk, 1)
            }
            var assembled = WebPData()
            guard status == WEBP_MUX_OK, WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK, let bytes = assembled.bytes else {
                throw .encodingFailed(format: "WebP", reason: "libwebpmux could not add the text")
            }
            defer { WebPDataClear(&assembled) }
            return Array(UnsafeBufferPointer(start: bytes, count: assembled.size))
        }
    }
}
