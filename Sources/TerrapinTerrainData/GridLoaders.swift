// Loaders for height grids: ESRI ASCII (.asc), SRTM (.hgt) and Terrarium-encoded PNG.
import TerrapinCodecs
import TerrapinGeo
import TerrapinIO
import TerrapinPNG
import TerrapinRaster

public enum GridLoader {
    public static let maxFileBytes = 512 * 1024 * 1024
    /// Largest elevation magnitude an ASCII grid may hold, metres (Everest is 8,849; the
    /// Challenger Deep −10,935).
    public static let maxElevation = 100_000.0

    /// Loads by extension: .asc, .hgt (bounds from the name, e.g. N37W123.hgt); Terrarium PNGs
    /// need their bounds, see `terrarium(_:west:south:east:north:)`.
    /// Every file is read through `files`.
    public static func load(_ path: String, files: FileAccess = .unrestricted) throws(TerrainError) -> HeightGrid {
        let lower = path.lowercased()
        if lower.hasSuffix(".tif") || lower.hasSuffix(".tiff") { return try GeoTIFF.heightGrid(path, files: files) }
        if lower.hasSuffix(".zip") {
            // An SRTM tile as served: N42E001.hgt.zip holding N42E001.hgt.
            let archive: [UInt8]
            do { archive = try files.read(path, limit: maxFileBytes) } catch { throw TerrainError.file(error) }
            let member: (name: String, bytes: [UInt8])
            do { member = try Zip.member(endingWith: ".hgt", in: archive, limit: 3601 * 3601 * 2, source: "'\(path)'") } catch {
                throw TerrainError.image(error.description)
            }
            var grid = try hgt(member.bytes, name: member.name)
            grid.source = GridSource(file: path)
            return grid
        }
        let bytes: [UInt8]
        do { bytes = try files.read(path, limit: maxFileBytes) } catch { throw TerrainError.file(error) }
        var grid = lower.hasSuffix(".hgt") ? try hgt(bytes, name: path) : try esriASCII(bytes, file: path)
        grid.source = GridSource(file: path)
        return grid
    }

    // MARK: ESRI ASCII grid

    /// Header keys (any case): ncols, nrows, xllcorner|xllcenter, yllcorner|yllcenter,
    /// cellsize or dx + dy, NODATA_value (optional). Then ncols × nrows numbers, north row first.
    public static func esriASCII(_ bytes: [UInt8], file: String) throws(TerrainError) -> HeightGrid {
        var header: [String: (Double, Int)] = [:]
        var line = 1
        var i = 0
        let n = bytes.count
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }
        // Tokens, tracking the line each starts on.
        func nextToken() -> (Substring.UTF8View.SubSequence?, String, Int) {
            while i < n && isSpace(bytes[i]) { if bytes[i] == 0x0A { line += 1 }; i += 1 }
            guard i < n else { return (nil, "", line) }
            let start = i
            while i < n && !isSpace(bytes[i]) { i += 1 }
            return (nil, String(decoding: bytes[start..<i], as: UTF8.self), line)
        }
        let known = ["ncols", "nrows", "xllcorner", "xllcenter", "yllcorner", "yllcenter", "cellsize", "dx", "dy", "nodata_value"]
        var firstValue: (String, Int)? = nil
        while true {
            let (_, token, at) = nextToken()
            guard !token.isEmpty else { break }
            let key = token.lowercased()
            if Double(token) != nil || token == "-" { firstValue = (token, at); break }
            guard known.contains(key) else {
                throw TerrainError.syntax(file: file, line: at, message: "it does not read as an ESRI ASCII grid: the header has a key it does not know (expected ncols, nrows, xllcorner or xllcenter, yllcorner or yllcenter, cellsize or dx and dy, NODATA_value); terrain files are .asc, .hgt, .hgt.zip, GeoTIFF, or a Terrarium PNG with \"bounds\"")
            }
            let (_, value, valueLine) = nextToken()
            guard let number = Double(value), number.isFinite else {
                throw TerrainError.syntax(file: file, line: valueLine, message: "the header's '\(key)' needs a number")
            }
            header[key] = (number, at)
        }
        func need(_ key: String) throws(TerrainError) -> Double {
            guard let v = header[key] else { throw TerrainError.syntax(file: file, line: 1, message: "the header has no '\(key)'") }
            return v.0
        }
        let cols = try need("ncols"), rows = try need("nrows")
        guard cols == cols.rounded(), rows == rows.rounded(), cols >= 2, rows >= 2 else {
            throw TerrainError.syntax(file: file, line: header["ncols"]?.1 ?? 1, message: "ncols and nrows must be whole numbers of at least 2")
        }
        guard cols * rows <= Double(HeightGrid.maxSamples) else { throw TerrainError.tooLarge(file: file, columns: cols, rows: rows) }
        let dx: Double, dy: Double
        if let cell = header["cellsize"]?.0 { dx = cell; dy = cell } else {
            guard let x = header["dx"]?.0, let y = header["dy"]?.0 else {
                throw TerrainError.syntax(file: file, line: 1, message: "the header needs 'cellsize', or 'dx' and 'dy'")
            }
            dx = x; dy = y
        }
        guard dx > 0, dy > 0 else { throw TerrainError.syntax(file: file, line: 1, message: "cell sizes must be positive") }
        let west: Double, south: Double
        if let c = header["xllcenter"]?.0 { west = c } else { west = try need("xllcorner") + dx / 2 }
        if let c = header["yllcenter"]?.0 { south = c } else { south = try need("yllcorner") + dy / 2 }
        let nodata = header["nodata_value"]?.0
        let count = Int(cols) * Int(rows)
        // Memory follows the file, not the header: each sample takes at least two bytes (a digit
        // and a separator), so a short file claiming a huge grid reserves only what it can hold.
        let room = (n - (firstValue.map { i - $0.0.utf8.count } ?? i) + 1) / 2
        var samples: [Float] = []
        samples.reserveCapacity(min(count, room))
        var k = 0
        var pending = firstValue
        var lastLine = firstValue?.1 ?? line
        while k < count {
            let (token, at): (String, Int)
            if let p = pending { (token, at) = p; pending = nil } else { let t = nextToken(); (token, at) = (t.1, t.2) }
            guard !token.isEmpty else {
                throw TerrainError.syntax(file: file, line: lastLine, message: "the file ends after \(k) of \(count) samples (row \(k / Int(cols) + 1) of \(Int(rows))); it is truncated or ncols/nrows are wrong")
            }
            lastLine = at
            guard let v = Double(token), v.isFinite else {
                throw TerrainError.syntax(file: file, line: at, message: "sample \(k + 1) is not a number")
            }
            guard abs(v) <= Self.maxElevation || nodata == v else {
                throw TerrainError.syntax(file: file, line: at, message: "sample \(k + 1) is not an elevation in metres; samples must lie within ±\(Int(Self.maxElevation)) m")
            }
            samples.append(nodata == v ? .nan : Float(v))
            k += 1
        }
        let (extra, at) = { let t = nextToken(); return (t.1, t.2) }()
        guard extra.isEmpty else {
            throw TerrainError.syntax(file: file, line: at, message: "more samples than ncols × nrows = \(count)")
        }
        guard let grid = HeightGrid(columns: Int(cols), rows: Int(rows), westCentre: west, southCentre: south, cellWidth: dx, cellHeight: dy, samples: samples) else {
            throw TerrainError.syntax(file: file, line: 1, message: "the header does not describe a valid grid")
        }
        return grid
    }

    // MARK: SRTM .hgt

    /// 1201² (3″) or 3601² (1″) big-endian int16 samples covering one degree; −32768 is a void.
    /// The south-west corner comes from the name (N37W123) unless given.
    public static func hgt(_ bytes: [UInt8], name: String, southWest: (latitude: Int, longitude: Int)? = nil) throws(TerrainError) -> HeightGrid {
        let side: Int
        switch bytes.count {
        case 1201 * 1201 * 2: side = 1201
        case 3601 * 3601 * 2: side = 3601
        default:
            throw TerrainError.syntax(file: name, line: 1, message: "an .hgt file holds 1201² or 3601² samples (2,884,802 or 25,934,402 bytes), this one is \(bytes.count) bytes (truncated?)")
        }
        guard let corner = southWest ?? hgtCorner(name) else {
            throw TerrainError.syntax(file: name, line: 1, message: "the name does not say where the tile is (expected e.g. N37W123.hgt)")
        }
        var samples = [Float](repeating: 0, count: side * side)
        for i in 0..<(side * side) {
            let v = Int16(bitPattern: UInt16(bytes[2 * i]) << 8 | UInt16(bytes[2 * i + 1]))
            samples[i] = v == -32768 ? .nan : Float(v)
        }
        let step = 1.0 / Double(side - 1)
        return HeightGrid(columns: side, rows: side, westCentre: Double(corner.longitude), southCentre: Double(corner.latitude),
                          cellWidth: step, cellHeight: step, samples: samples)!
    }

    static func hgtCorner(_ path: String) -> (latitude: Int, longitude: Int)? {
        let name = path.split(separator: "/").last.map { String($0).uppercased() } ?? ""
        let chars = Array(name)
        guard chars.count >= 7, let lat = Int(String(chars[1...2])), let lon = Int(String(chars[4...6])),
              "NS".contains(chars[0]), "EW".contains(chars[3]) else { return nil }
        return (chars[0] == "N" ? lat : -lat, chars[3] == "E" ? lon : -lon)
    }

    // MARK: Terrarium PNG

    /// elevation = R·256 + G + B/256 − 32768, pixels as cell centres spanning the bounds (edges).
    public static func terrarium(_ bytes: [UInt8], name: String, west: Double, south: Double, east: Double, north: Double) throws(TerrainError) -> HeightGrid {
        let image: Pixmap
        do { image = try PNGDecoder.decode(bytes, source: "'\(name)'", limits: PNGDecodingLimits(maxPixels: HeightGrid.maxSamples)) } catch {
            throw TerrainError.image(error.description)
        }
        guard east > west, north > south, image.width >= 2, image.height >= 2 else {
            throw TerrainError.syntax(file: name, line: 1, message: "the bounds must have east > west and north > south, and the image at least 2x2")
        }
        var samples = [Float](repeating: 0, count: image.width * image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y].straight
                samples[y * image.width + x] = p.alpha == 0 ? .nan : Float(Double(p.red) * 256 + Double(p.green) + Double(p.blue) / 256 - 32768)
            }
        }
        let dx = (east - west) / Double(image.width), dy = (north - south) / Double(image.height)
        var grid = HeightGrid(columns: image.width, rows: image.height, westCentre: west + dx / 2, southCentre: south + dy / 2,
                              cellWidth: dx, cellHeight: dy, samples: samples)!
        grid.source = GridSource(file: name, bounds: [west, south, east, north])
        return grid
    }
}
