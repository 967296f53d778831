// Imagery draped on the ground: an image with geographic bounds, sampled per pixel.
//
// The bounds are the image's outer edges (pixel (0, 0) covers the north-west corner cell), as
// for Terrarium grids. Rows run north to south either evenly in latitude (`.geographic`,
// plate carrée) or evenly in Web Mercator y (`.webMercator`, the projection of XYZ map tiles).
// West > east means the image crosses the antimeridian. The image is a `MipTexture` (clamped at
// its edges) and is sampled by its contract: trilinear, bilinear within a level of a mipmap
// pyramid of premultiplied sRGB bytes and linear between the two levels that bracket a pixel's
// footprint, so imagery far finer than the screen neither shimmers nor aliases.
//
// Imagery can also be a tile archive (`Imagery(tiles:)`, see TileImagery.swift): then its
// pixels are the world's at the archive's deepest zoom, in Web Mercator, and each level of
// detail is a zoom level, read tile by tile as the drawing asks for them.
import TerrapinCodecs
import TerrapinTerrainData
import TerrapinGeo
import TerrapinIO
import TerrapinTiles
import TerrapinPNG
import TerrapinRaster
import Terrapin3D

public struct Imagery: Sendable {
    /// Most pixels an image may have (checked before decoding): 32 Mi, e.g. 8192 × 4096;
    /// with its mipmaps that is 171 MiB.
    public static let maxPixels = 32 * 1024 * 1024

    public enum Projection: String, Sendable, CaseIterable {
        /// Rows evenly spaced in latitude.
        case geographic
        /// Rows evenly spaced in Web Mercator y (EPSG:3857), latitude within ±85.0511°.
        case webMercator
    }

    public let west: Double, south: Double, east: Double, north: Double
    public let projection: Projection
    /// How much the terrain's hillshade darkens the imagery, 0…1: 0 (default) leaves it as it
    /// is (photographs carry their own shading), 1 shades it like the relief palette.
    public var shading: Double
    /// Shade relative to flat ground: flat ground and the sea keep the image's own colours,
    /// slopes facing the sun lighten and those facing away darken (a drawn map's colours stay
    /// true); otherwise the hillshade only darkens. Default false.
    public var shadesRelativeToFlat = false
    /// The file it was read from (nil for imagery made in memory), for writing scene files.
    public var source: String?
    /// Full-resolution pixels across and down (for tiles: the world at the deepest zoom).
    public let width: Int
    public let height: Int

    /// Bytes held, every level of the pyramid (for tiles: none; they live in `TileCache`).
    public var byteCount: Int { texture?.byteCount ?? 0 }
    /// The tile archive behind this imagery, if it is one.
    public let tiles: TileImagery?
    /// Whether its tiles are read one zoom at a time, as MapLibre shows a drawn map (a style's
    /// drape), rather than blended between zooms as photographs are.
    public var readsOneZoom: Bool { tiles?.isDrawn ?? false }
    /// `tiles` unretained (kept alive by `tiles`): sampling through a strong reference retains
    /// and releases the shared object per sample, which threads drawing at once contend on.
    private let tilesReference: Unmanaged<TileImagery>?

    /// The image and its mipmaps (nil for tiles).
    let texture: MipTexture?
    /// Longitude span in degrees (east − west, plus 360 across the antimeridian).
    let span: Double
    /// Mercator y (or latitude, for `.geographic`) of the north and south edges.
    let top: Double, bottom: Double

    /// Nil when the image is empty or beyond `maxPixels`, or the bounds are not finite, not
    /// south < north within ±90 (±85.0511 for Web Mercator), or not within ±180 in longitude.
    public init?(image: Pixmap, west: Double, south: Double, east: Double, north: Double,
                 projection: Projection = .geographic, shading: Double = 0) {
        let maxLatitude = projection == .webMercator ? 85.051_128_78 : 90
        guard image.width * image.height <= Self.maxPixels, [west, south, east, north, shading].allSatisfy(\.isFinite),
              south < north, south >= -maxLatitude, north <= maxLatitude, abs(west) <= 180, abs(east) <= 180, west != east,
              (0...1).contains(shading) else { return nil }
        self.west = west
        self.south = south
        self.east = east
        self.north = north
        self.projection = projection
        self.shading = shading
        span = east > west ? east - west : east + 360 - west
        top = Self.y(north, projection)
        bottom = Self.y(south, projection)
        var texture = MipTexture(image)
        texture.wrapS = .clamp
        texture.wrapT = .clamp
        self.texture = texture
        width = image.width
        height = image.height
        tiles = nil
        tilesReference = nil
    }

    /// Imagery from a tile archive of raster tiles, drawn where the archive has tiles.
    public init(tiles: TileImagery, shading: Double = 0) {
        west = -180
        east = 180
        north = 85.051_128_78
        south = -85.051_128_78
        projection = .webMercator
        self.shading = min(1, max(0, shading.isFinite ? shading : 0))
        span = 360
        top = Self.y(north, .webMercator)
        bottom = -top
        width = tiles.worldPixels
        height = tiles.worldPixels
        texture = nil
        self.tiles = tiles
        tilesReference = Unmanaged.passUnretained(tiles)
        source = tiles.path
    }

    /// Reads a PNG, JPEG or WebP image with the given bounds.
    public static func load(_ path: String, west: Double, south: Double, east: Double, north: Double,
                            projection: Projection = .geographic, shading: Double = 0, files: FileAccess = .unrestricted) throws(TerrainError) -> Imagery {
        let image: Pixmap
        do {
            image = try RasterImage.decode(file: path, limits: PNGDecodingLimits(maxPixels: maxPixels), files: files)
        } catch {
            throw TerrainError.imagery(file: path, message: error.description)
        }
        guard var imagery = Imagery(image: image, west: west, south: south, east: east, north: north, projection: projection, shading: shading) else {
            throw TerrainError.imagery(file: path, message: "bounds [\(west), \(south), \(east), \(north)] are not [west, south, east, north] with south < north"
                                       + (projection == .webMercator ? " within ±85.0511° (Web Mercator)" : ""))
        }
        imagery.source = path
        return imagery
    }

    static func y(_ latitude: Double, _ projection: Projection) -> Double {
        switch projection {
        case .geographic: latitude
        case .webMercator: WebMercator.y(latitude: latitude)
        }
    }

    /// Where a position falls in the full-resolution image, in pixels from its north-west
    /// corner (pixel centres at +0.5); outside [0, width] × [0, height] the image does not cover it.
    public func texel(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        (texelX(longitude: longitude), texelY(latitude: latitude))
    }

    /// `texel`'s x, which the longitude alone gives.
    public func texelX(longitude: Double) -> Double {
        var dLon = (longitude - west).truncatingRemainder(dividingBy: 360)
        if dLon < 0 { dLon += 360 }
        // A position just west of the image reads as 360° east of it: put it on the near side.
        if dLon > span + (360 - span) / 2 { dLon -= 360 }
        return dLon / span * Double(width)
    }

    /// `texel`'s y of a Web Mercator y (`WebMercator.y(latitude:)`), for Web Mercator imagery.
    public func texelY(mercatorY y: Double) -> Double {
        (top - y) / (top - bottom) * Double(height)
    }

    /// `texel`'s y, which the latitude alone gives.
    public func texelY(latitude: Double) -> Double {
        (top - Self.y(latitude, projection)) / (top - bottom) * Double(height)
    }

    /// Image pixels per metre on the ground at a latitude, east and north (for a flat ground's
    /// footprint per screen pixel).
    public func texelsPerMetre(latitude: Double) -> (x: Double, y: Double) {
        let phi = latitude * Double.pi / 180
        let metresPerDegLon = max(1e-3, 111_412.84 * cos(phi) - 93.5 * cos(3 * phi))
        let metresPerDegLat = 111_132.954 - 559.822 * cos(2 * phi) + 1.175 * cos(4 * phi)
        let x = Double(width) / span / metresPerDegLon
        let y = switch projection {
        case .geographic: Double(height) / (north - south) / metresPerDegLat
        // d(y_merc)/dφ = 1 / cos φ (per radian).
        case .webMercator: Double(height) / (top - bottom) * (Double.pi / 180) / max(1e-9, cos(phi)) / metresPerDegLat
        }
        return (x, y)
    }

    /// The premultiplied colour (0…255 per channel) at a full-resolution pixel position, at a
    /// level of detail (0 = full resolution, each step halving it; fractional levels blend the
    /// two around them); nil outside the image.
    public func sample(x: Double, y: Double, level: Double) -> SIMD4<Float>? {
        var reader = ImageryReader()
        return sample(x: x, y: y, level: level, reader: &reader)
    }

    /// As `sample(x:y:level:)`, remembering the tiles it read in `reader` (one per drawing
    /// thread: make it with `ImageryReader()` and pass it to every sample of a draw).
    @inline(__always)
    public func sample(x: Double, y: Double, level: Double, reader: inout ImageryReader) -> SIMD4<Float>? {
        if let tilesReference { return tilesReference._withUnsafeGuaranteedRef { $0.sample(x: x, y: y, level: level, reader: &reader) } }
        guard x >= 0, y >= 0, x <= Double(width), y <= Double(height), let texture else { return nil }
        return texture.sample(SIMD2(Float(x / Double(width)), Float(y / Double(height))), lod: Float(level)) * 255
    }

    /// `sample(x:y:level:reader:)` at each of `count` positions (x, y, level) into `out` (a run
    /// of neighbouring pixels: the reader keeps the tile the last one read).
    @inline(__always)
    public func sampleRun(_ positions: UnsafePointer<SIMD3<Double>>, count: Int, reader: inout ImageryReader,
                          into out: UnsafeMutablePointer<SIMD4<Float>?>) {
        for i in 0..<count { out[i] = sample(x: positions[i].x, y: positions[i].y, level: positions[i].z, reader: &reader) }
    }

    /// The four bytes at `o` as floats.
    @inline(__always)
    static func rgba(_ d: UnsafePointer<UInt8>, _ o: Int) -> SIMD4<Float> {
        SIMD4<Float>(Float(d[o]), Float(d[o + 1]), Float(d[o + 2]), Float(d[o + 3]))
    }
}

#if canImport(Glibc)
import Glibc
#endif
