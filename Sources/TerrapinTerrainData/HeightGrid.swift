// Height grids: elevation samples on a regular latitude/longitude lattice, row 0 northmost.
//
// Sampling is bilinear between cell centres (clamped within half a cell of the edge; nil
// outside). Missing samples (NODATA, SRTM voids) are filled from their neighbours (the mean of
// valid ones, repeated until none remain; a grid with no valid sample is sea level).
import TerrapinGeo
import TerrapinIO
import TerrapinPNG
import TerrapinRaster
import TerrapinTiles

public struct HeightGrid: Sendable {
    /// Most samples a grid may hold (checked before allocating): 64 Mi (a 8192² grid).
    public static let maxSamples = 64 * 1024 * 1024

    public let columns: Int
    public let rows: Int
    /// Longitude of the first column's centre and latitude of the last (southmost) row's centre.
    public let westCentre: Double
    public let southCentre: Double
    /// Cell size in degrees.
    public let cellWidth: Double
    public let cellHeight: Double
    /// Metres above sea level, row-major from the north-west corner.
    public let samples: [Float]
    /// The file the grid was read from (and the bounds a Terrarium PNG was given), so a map
    /// can be written out as a scene file naming it; nil for grids made in memory.
    public var source: GridSource?

    public init?(columns: Int, rows: Int, westCentre: Double, southCentre: Double, cellWidth: Double, cellHeight: Double, samples: [Float]) {
        guard columns >= 2, rows >= 2, columns * rows <= Self.maxSamples, samples.count == columns * rows,
              cellWidth > 0, cellHeight > 0, cellWidth.isFinite, cellHeight.isFinite, westCentre.isFinite, southCentre.isFinite else { return nil }
        self.columns = columns
        self.rows = rows
        self.westCentre = westCentre
        self.southCentre = southCentre
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        self.samples = Self.filled(samples, columns: columns, rows: rows)
    }

    public var northCentre: Double { southCentre + Double(rows - 1) * cellHeight }
    public var eastCentre: Double { westCentre + Double(columns - 1) * cellWidth }

    public subscript(row: Int, column: Int) -> Float { samples[row * columns + column] }

    /// Elevation at a position (bilinear), or nil outside the grid.
    public func height(latitude: Double, longitude: Double) -> Double? {
        let fx = (longitude - westCentre) / cellWidth
        let fy = (northCentre - latitude) / cellHeight
        guard fx >= -0.5, fy >= -0.5, fx <= Double(columns) - 0.5, fy <= Double(rows) - 0.5 else { return nil }
        let x = min(max(fx, 0), Double(columns - 1)), y = min(max(fy, 0), Double(rows - 1))
        let x0 = min(Int(x), columns - 2), y0 = min(Int(y), rows - 2)
        let tx = x - Double(x0), ty = y - Double(y0)
        let a = Double(self[y0, x0]), b = Double(self[y0, x0 + 1]), c = Double(self[y0 + 1, x0]), d = Double(self[y0 + 1, x0 + 1])
        return (a * (1 - tx) + b * tx) * (1 - ty) + (c * (1 - tx) + d * tx) * ty
    }

    public func height(at p: LatLngAltitude) -> Double? { height(latitude: p.latitude, longitude: p.longitude) }

    public var range: (min: Float, max: Float) { (samples.min() ?? 0, samples.max() ?? 0) }

    /// Samples whose rows are evenly spaced in Web Mercator y between `north` and `south`
    /// (tiles, EPSG:3857 files), resampled to rows evenly spaced in latitude (linear in y
    /// between the two rows around each; a NaN neighbour gives way to the other).
    static func latitudeRows(mercator samples: [Float], columns: Int, rows: Int, north: Double, south: Double) -> [Float] {
        func y(_ lat: Double) -> Double { WebMercator.y(latitude: lat) }
        let top = y(north), bottom = y(south), cellHeight = (north - south) / Double(rows)
        var out = [Float](repeating: .nan, count: columns * rows)
        for r in 0..<rows {
            let raw = (top - y(north - (Double(r) + 0.5) * cellHeight)) / (top - bottom) * Double(rows) - 0.5
            let fy = raw.isFinite ? min(max(raw, 0), Double(rows - 1)) : 0
            let y0 = Int(fy), y1 = min(y0 + 1, rows - 1)
            let t = Float(fy - Double(y0))
            for c in 0..<columns {
                let u = samples[y0 * columns + c], v = samples[y1 * columns + c]
                out[r * columns + c] = u.isNaN ? v : (v.isNaN ? u : u + (v - u) * t)
            }
        }
        return out
    }

    static func filled(_ input: [Float], columns: Int, rows: Int) -> [Float] {
        var s = input
        var missing = s.indices.filter { s[$0].isNaN }
        guard !missing.isEmpty else { return s }
        guard missing.count < s.count else { return [Float](repeating: 0, count: s.count) }
        while !missing.isEmpty {
            var updates: [(Int, Float)] = []
            var still: [Int] = []
            for i in missing {
                let r = i / columns, c = i % columns
                var sum: Float = 0, n: Float = 0
                for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                    let rr = r + dr, cc = c + dc
                    guard rr >= 0, rr < rows, cc >= 0, cc < columns else { continue }
                    let v = s[rr * columns + cc]
                    if !v.isNaN { sum += v; n += 1 }
                }
                if n > 0 { updates.append((i, sum / n)) } else { still.append(i) }
            }
            if updates.isEmpty { for i in still { s[i] = 0 }; break }
            for (i, v) in updates { s[i] = v }
            missing = still
        }
        return s
    }
}

/// A grid file that could not be read: which file, where, what, and what to do.
/// Where a height grid came from.
public struct GridSource: Equatable, Sendable {
    public var file: String
    /// West, south, east, north: a Terrarium PNG's bounds.
    public var bounds: [Double]?
    /// The file is a tile source of elevation tiles in this encoding.
    public var tiles: ElevationEncoding?
    /// The tile source's attribution (tiles only).
    public var attribution: String?
    public init(file: String, bounds: [Double]? = nil, tiles: ElevationEncoding? = nil, attribution: String? = nil) {
        (self.file, self.bounds, self.tiles, self.attribution) = (file, bounds, tiles, attribution)
    }
}

public enum TerrainError: Error, Equatable, Sendable, CustomStringConvertible {
    case file(FileError)
    case syntax(file: String, line: Int, message: String)
    /// Columns and rows as the file states them (Double: a header may claim any number).
    case tooLarge(file: String, columns: Double, rows: Double)
    case image(String)
    /// Imagery that cannot be read or placed.
    case imagery(file: String, message: String)
    /// A tile archive that cannot be read.
    case tiles(TileError)

    public var description: String {
        switch self {
        case .file(let e): return "height grid: " + e.description
        case .syntax(let file, let line, let message): return "height grid \(file), line \(line): \(message)"
        case .tooLarge(let file, let c, let r):
            func count(_ v: Double) -> String { v < 1e15 ? String(Int(v)) : String(v) }
            return "height grid \(file) is \(count(c))x\(count(r)) samples, more than the limit of \(HeightGrid.maxSamples); resample it to a coarser grid"
        case .image(let m): return "height grid: \(m)"
        case .imagery(let file, let m): return m.contains(file) ? "imagery: \(m)" : "imagery '\(file)': \(m)"
        case .tiles(let e): return e.description
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
