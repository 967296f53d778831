// libtiff, through the one C file that installs its error handlers (CTerrapinTIFF): the only
// Swift file that imports it. The reader is a class that closes the file when released; what
// libtiff says on failure is its `message`.
import CTerrapinTIFF

package final class TIFFReader: @unchecked Sendable {
    /// The first image's fields and georeferencing, as the file states them.
    package struct Info {
        package var width = 0, height = 0
        /// 0 when striped.
        package var tileWidth = 0, tileHeight = 0
        package var samplesPerPixel = 0, bitsPerSample = 0, sampleFormat = 0, compression = 0
        /// ModelPixelScale (x, y, z) and ModelTiepoint (I, J, K, X, Y, Z), when present.
        package var scale: [Double]? = nil
        package var tiepoint: [Double]? = nil
        /// From the geokeys: the projected or geographic CRS; 0 when unknown.
        package var epsg = 0
        /// GTRasterTypeGeoKey is PixelIsPoint.
        package var rasterIsPoint = false
        package var nodata: Double? = nil
        /// Images (IFDs) in the file: the full resolution and its overviews.
        package var directories = 0
    }

    /// One image (IFD) of the file.
    package struct Level {
        package let width: Int, height: Int
        /// Its blocks: tiles, or strips the width of the image.
        package let blockWidth: Int, blockHeight: Int
        package let subfileType: UInt32
    }

    private let reader: OpaquePointer

    /// Opens the TIFF on `descriptor` (duplicated: the caller keeps its own), refusing any single
    /// allocation over `maxAllocation` bytes; nil with libtiff's reason in `failure`.
    package init?(descriptor: Int32, name: String, maxAllocation: Int, failure: inout String) {
        var message = [CChar](repeating: 0, count: 256)
        guard let reader = tp_tiff_open(descriptor, name, maxAllocation, &message, message.count) else {
            failure = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return nil
        }
        self.reader = reader
    }

    deinit { tp_tiff_close(reader) }

    /// What libtiff said last.
    package var message: String { String(cString: tp_tiff_message(reader)) }

    /// The first image's fields (nil: see `message`).
    package func info() -> Info? {
        var r = tp_tiff_info()
        guard tp_tiff_read_info(reader, &r) != 0 else { return nil }
        var info = Info()
        info.width = Int(r.width)
        info.height = Int(r.height)
        info.tileWidth = Int(r.tile_width)
        info.tileHeight = Int(r.tile_height)
        info.samplesPerPixel = Int(r.samples_per_pixel)
        info.bitsPerSample = Int(r.bits_per_sample)
        info.sampleFormat = Int(r.sample_format)
        info.compression = Int(r.compression)
        if r.has_scale != 0 { info.scale = [r.scale.0, r.scale.1, r.scale.2] }
        if r.has_tiepoint != 0 { info.tiepoint = [r.tiepoint.0, r.tiepoint.1, r.tiepoint.2, r.tiepoint.3, r.tiepoint.4, r.tiepoint.5] }
        info.epsg = Int(r.epsg)
        info.rasterIsPoint = r.raster_is_point != 0
        info.nodata = r.has_nodata != 0 ? r.nodata : nil
        info.directories = Int(r.directories)
        return info
    }

    /// Image `directory`'s size and blocks (nil: see `message`).
    package func level(_ directory: Int) -> Level? {
        var l = tp_tiff_level()
        guard let d = Int32(exactly: directory), tp_tiff_level_info(reader, d, &l) != 0 else { return nil }
        return Level(width: Int(l.width), height: Int(l.height), blockWidth: Int(l.block_width), blockHeight: Int(l.block_height), subfileType: l.subfile_type)
    }

    /// The whole first image as RGBA8 rows, top row first, into `width` × `height` × 4 bytes.
    package func readRGBA(into pixels: UnsafeMutablePointer<UInt8>?) -> Bool { tp_tiff_read_rgba(reader, pixels) != 0 }

    /// The first image's first sample as floats, top row first, into `width` × `height` floats.
    package func readSamples(into samples: UnsafeMutablePointer<Float>?) -> Bool { tp_tiff_read_samples(reader, samples) != 0 }

    /// The rectangle of image `directory` as RGBA8 rows, top row first; it must lie inside the image.
    package func readRGBA(directory: Int, x: Int, y: Int, width: Int, height: Int, into pixels: UnsafeMutablePointer<UInt8>?) -> Bool {
        guard let d = Int32(exactly: directory), let x = UInt32(exactly: x), let y = UInt32(exactly: y),
              let w = UInt32(exactly: width), let h = UInt32(exactly: height) else { return false }
        return tp_tiff_read_rgba_region(reader, d, x, y, w, h, pixels) != 0
    }
}
