// GeoTIFF through libtiff (the C shim CTerrapinTIFF owns its error handlers): imagery (any
// compression and photometric libtiff's RGBA interface reads — LZW, DEFLATE, JPEG, none; tiled
// or striped; BigTIFF) and elevation (8–32-bit integers, 32/64-bit floats, GDAL's nodata as
// voids). Georeferencing from ModelTiepoint + ModelPixelScale and the geokeys' EPSG code:
// EPSG:4326 (degrees) and EPSG:3857 (Web Mercator metres) are read directly; a DEM in any other
// CRS with an EPSG code (UTM…) is resampled onto longitude/latitude through PROJ (Reprojection),
// and imagery in one is reprojected as it is drawn (GeoTIFFImagery.swift); a CRS PROJ does not
// know is a typed error naming it.
import TerrapinGeo
import TerrapinIO
import TerrapinPNG
import TerrapinRaster
#if canImport(Glibc)
import Glibc
#endif

public enum GeoTIFF {
    /// What a GeoTIFF says about itself.
    public struct Info: Equatable, Sendable {
        public var width: Int, height: Int
        public var tileWidth: Int, tileHeight: Int
        public var samplesPerPixel: Int, bitsPerSample: Int, sampleFormat: Int, compression: Int
        /// The CRS's EPSG code (0 when the file names none).
        public var epsg: Int
        /// For a CRS other than 4326 and 3857: the file's top-left corner and pixel size in its own units.
        public var projected: (origin: (x: Double, y: Double), size: (x: Double, y: Double))? = nil
        /// West, south, east, north of the outer pixel edges, in degrees.
        public var bounds: [Double]
        /// Pixel size in the CRS's units (degrees or metres).
        public var pixelSize: (x: Double, y: Double)
        public var nodata: Double?
        /// Images in the file: the full resolution and its overviews.
        public var directories: Int

        public static func == (a: Info, b: Info) -> Bool {
            a.width == b.width && a.height == b.height && a.epsg == b.epsg && a.bounds == b.bounds && a.nodata == b.nodata
        }
    }

    static let maxAllocation = 512 * 1024 * 1024

    /// True when the bytes start as a TIFF (classic or BigTIFF, either byte order).
    public static func isTIFF(_ head: [UInt8]) -> Bool {
        head.count >= 4 && ((head[0] == 0x49 && head[1] == 0x49 && (head[2] == 42 || head[2] == 43) && head[3] == 0)
                            || (head[0] == 0x4D && head[1] == 0x4D && head[2] == 0 && (head[3] == 42 || head[3] == 43)))
    }

    /// The TIFF at `path` opened (non-blocking, regular files only, as every archive is;
    /// libtiff reads a duplicate descriptor), with its first image's fields.
    package static func open(_ path: String, files: FileAccess) throws(TerrainError) -> (TIFFReader, TIFFReader.Info) {
        let file: RandomAccessFile
        do { file = RandomAccessFile(try files.open(path)) } catch { throw TerrainError.file(error) }
        var failure = ""
        guard let reader = TIFFReader(descriptor: file.descriptor, name: path, maxAllocation: maxAllocation, failure: &failure) else {
            throw TerrainError.image("'\(path)' is not a readable TIFF: " + failure)
        }
        guard let raw = reader.info() else { throw TerrainError.image("'\(path)': " + reader.message) }
        return (reader, raw)
    }

    package static func withReader<T>(_ path: String, files: FileAccess, _ body: (TIFFReader, Info) throws(TerrainError) -> T) throws(TerrainError) -> T {
        let (reader, raw) = try open(path, files: files)
        return try body(reader, try georeference(raw, path: path))
    }

    package static func georeference(_ r: TIFFReader.Info, path: String) throws(TerrainError) -> Info {
        let w = r.width, h = r.height
        guard let scale = r.scale, let tiepoint = r.tiepoint, scale[0] > 0, scale[1] > 0, scale[0].isFinite, scale[1].isFinite, w > 0, h > 0 else {
            throw TerrainError.image("'\(path)' has no georeferencing (ModelTiepoint and ModelPixelScale); it is a TIFF but not a GeoTIFF")
        }
        let epsg = r.epsg
        guard epsg > 0 else {
            throw TerrainError.image("'\(path)' names no EPSG code for its CRS; Terrapin reads GeoTIFFs whose geokeys give one — reproject it (gdalwarp -t_srs EPSG:4326)")
        }
        let sx = scale[0], sy = scale[1]
        // The tie point maps raster (I, J) to model (X, Y); PixelIsPoint ties pixel centres.
        let shift = r.rasterIsPoint ? 0.5 : 0
        let left = tiepoint[3] - (tiepoint[0] + shift) * sx, top = tiepoint[4] + (tiepoint[1] + shift) * sy
        let right = left + Double(w) * sx, bottom = top - Double(h) * sy
        var bounds = [left, bottom, right, top]
        var projected: (origin: (x: Double, y: Double), size: (x: Double, y: Double))? = nil
        if epsg != 4326 && epsg != 3857 && epsg != 900913 {
            guard [left, bottom, right, top].allSatisfy(\.isFinite) else {
                throw TerrainError.image("'\(path)': its georeferencing is not finite; check ModelTiepoint and ModelPixelScale")
            }
            bounds = try Reprojection(epsg: epsg, file: path).geographicBounds(left: left, bottom: bottom, right: right, top: top)
            projected = (origin: (left, top), size: (sx, sy))
        } else if epsg != 4326 {
            let radius = 6_378_137.0
            func lon(_ x: Double) -> Double { x / radius * 180 / Double.pi }
            func lat(_ y: Double) -> Double { WebMercator.latitude(y: y / radius) }
            bounds = [lon(left), lat(bottom), lon(right), lat(top)]
        }
        guard bounds.allSatisfy(\.isFinite), bounds[0] < bounds[2], bounds[1] < bounds[3], bounds[0] >= -180.000001, bounds[2] <= 180.000001,
              bounds[1] >= (epsg == 3857 || epsg == 900913 ? -85.06 : -90), bounds[3] <= (epsg == 3857 || epsg == 900913 ? 85.06 : 90) else {
            throw TerrainError.image("'\(path)': its georeferencing puts it at [\(bounds.map { String($0) }.joined(separator: ", "))], not on the Earth; check ModelTiepoint and ModelPixelScale")
        }
        var info = Info(width: w, height: h, tileWidth: r.tileWidth, tileHeight: r.tileHeight, samplesPerPixel: r.samplesPerPixel,
                        bitsPerSample: r.bitsPerSample, sampleFormat: r.sampleFormat, compression: r.compression, epsg: epsg == 900913 ? 3857 : epsg,
                        bounds: bounds, pixelSize: (sx, sy), nodata: r.nodata, directories: r.directories)
        info.projected = projected
        return info
    }

    public static func info(_ path: String, files: FileAccess = .unrestricted) throws(TerrainError) -> Info { try withReader(path, files: files) { _, info in info } }

    /// The first band as a height grid (nodata → voids, filled from their neighbours).
    public static func heightGrid(_ path: String, files: FileAccess = .unrestricted) throws(TerrainError) -> HeightGrid {
        try withReader(path, files: files) { (reader, info) throws(TerrainError) in
            guard info.width * info.height <= HeightGrid.maxSamples else {
                throw TerrainError.tooLarge(file: path, columns: Double(info.width), rows: Double(info.height))
            }
            guard WorkMeter.spend(.decodedBytes, Double(info.width * info.height * 4), on: "'\(path)'") else {
                throw TerrainError.image("'\(path)': reading its samples would pass \(WorkMeter.noRoom)")
            }
            var samples = [Float](repeating: 0, count: info.width * info.height)
            let ok = samples.withUnsafeMutableBufferPointer { reader.readSamples(into: $0.baseAddress) }
            guard ok else { throw TerrainError.image("'\(path)': " + reader.message) }
            if let nodata = info.nodata.map(Float.init) { for i in samples.indices where samples[i] == nodata { samples[i] = .nan } }
            let b = info.bounds, w = info.width, h = info.height
            let cellWidth = (b[2] - b[0]) / Double(w)
            let cellHeight = (b[3] - b[1]) / Double(h)
            if let projected = info.projected {
                samples = try Reprojection(epsg: info.epsg, file: path).resample(samples, columns: w, rows: h, origin: projected.origin,
                                                                                  size: projected.size, onto: b)
            } else if info.epsg != 4326 {
                samples = HeightGrid.latitudeRows(mercator: samples, columns: w, rows: h, north: b[3], south: b[1])
            }
            guard var grid = HeightGrid(columns: w, rows: h, westCentre: b[0] + cellWidth / 2, southCentre: b[1] + cellHeight / 2,
                                        cellWidth: cellWidth, cellHeight: cellHeight, samples: samples) else {
                throw TerrainError.image("'\(path)' is \(w)x\(h): too small for a grid")
            }
            grid.source = GridSource(file: path)
            return grid
        }
    }

}
