// Projected coordinate systems through PROJ (Debian libproj-dev): a GeoTIFF DEM in any CRS with
// an EPSG code (UTM zones are the common case) is resampled onto a longitude/latitude grid, the
// form every height grid has. PROJ reports errors per context (an errno and its text) and logs
// nothing here; each reprojection has its own context, so threads never share one.
//
// The geographic bounds are those of the file's edges, each transformed at 64 points; every
// output sample's centre is transformed back into the file's CRS, a row at a time, and sampled
// bilinearly. Samples outside the file's footprint (the corners of a rotated UTM rectangle) are
// voids, which the height grid fills from their neighbours as it fills SRTM voids.
//
// PROJ is loaded when the first reprojection is made (CTerrapinPROJ), not linked: most scenes
// never need it, and it brings some forty libraries with it.
import CTerrapinPROJ
#if canImport(Glibc)
import Glibc
#endif

package final class Reprojection {
    package let epsg: Int
    private let context: OpaquePointer
    private let transform: OpaquePointer
    private let proj: terrapin_proj_functions

    /// A transformation between EPSG:`epsg` and EPSG:4326 in longitude, latitude order.
    package init(epsg: Int, file: String) throws(TerrainError) {
        self.epsg = epsg
        guard let loaded = terrapin_proj() else {
            throw TerrainError.image("'\(file)' is in EPSG:\(epsg), and \(String(cString: terrapin_proj_load_error())); or reproject it to EPSG:4326 (gdalwarp -t_srs EPSG:4326)")
        }
        let proj = loaded.pointee
        guard let context = proj.context_create() else { throw TerrainError.image("'\(file)': PROJ could not start") }
        _ = proj.log_level(context, PJ_LOG_NONE)
        func failure(_ what: String) -> TerrainError {
            let code = proj.context_errno(context)
            let reason = proj.context_errno_string(context, code).map { String(cString: $0) } ?? "error \(code)"
            _ = proj.context_destroy(context)
            return TerrainError.image("'\(file)' is in EPSG:\(epsg), \(what) (\(reason)); reproject it to EPSG:4326 (gdalwarp -t_srs EPSG:4326)")
        }
        guard let raw = proj.create_crs_to_crs(context, "EPSG:\(epsg)", "EPSG:4326", nil) else { throw failure("which PROJ does not know") }
        let normalized = proj.normalize_for_visualization(context, raw)
        _ = proj.destroy(raw)
        guard let normalized else { throw failure("which PROJ cannot transform to longitude and latitude") }
        self.context = context
        transform = normalized
        self.proj = proj
    }

    deinit {
        _ = proj.destroy(transform)
        _ = proj.context_destroy(context)
    }

    /// Transforms the points in place: projected → (longitude, latitude) when `forward`, else
    /// back. A point PROJ cannot transform becomes infinite.
    package func transform(_ x: inout [Double], _ y: inout [Double], forward: Bool) {
        let n = min(x.count, y.count)
        guard n > 0 else { return }
        x.withUnsafeMutableBufferPointer { xs in
            y.withUnsafeMutableBufferPointer { ys in
                _ = proj.trans_generic(transform, forward ? PJ_FWD : PJ_INV, xs.baseAddress, MemoryLayout<Double>.stride, n,
                                       ys.baseAddress, MemoryLayout<Double>.stride, n, nil, 0, 0, nil, 0, 0)
            }
        }
    }

    /// The longitude/latitude bounds [west, south, east, north] of a projected rectangle.
    package func geographicBounds(left: Double, bottom: Double, right: Double, top: Double) -> [Double] {
        var x: [Double] = [], y: [Double] = []
        for k in 0...64 {
            let t = Double(k) / 64
            x += [left + (right - left) * t, left + (right - left) * t, left, right]
            y += [bottom, top, bottom + (top - bottom) * t, bottom + (top - bottom) * t]
        }
        transform(&x, &y, forward: true)
        guard x.allSatisfy(\.isFinite), y.allSatisfy(\.isFinite) else { return [.nan, .nan, .nan, .nan] }
        return [x.min()!, y.min()!, x.max()!, y.max()!]
    }

    /// `samples` (north row first, `columns` × `rows`, pixels of `size` CRS units from the
    /// top-left corner `origin`) resampled onto the same number of samples over `bounds`, north
    /// row first; outside the file, NaN.
    package func resample(_ samples: [Float], columns: Int, rows: Int, origin: (x: Double, y: Double), size: (x: Double, y: Double),
                  onto bounds: [Double]) -> [Float] {
        var out = [Float](repeating: .nan, count: columns * rows)
        let cellWidth = (bounds[2] - bounds[0]) / Double(columns), cellHeight = (bounds[3] - bounds[1]) / Double(rows)
        var x = [Double](repeating: 0, count: columns), y = [Double](repeating: 0, count: columns)
        for r in 0..<rows {
            let lat = bounds[3] - (Double(r) + 0.5) * cellHeight
            for c in 0..<columns { x[c] = bounds[0] + (Double(c) + 0.5) * cellWidth; y[c] = lat }
            transform(&x, &y, forward: false)
            for c in 0..<columns {
                let fx = (x[c] - origin.x) / size.x - 0.5, fy = (origin.y - y[c]) / size.y - 0.5
                guard fx.isFinite, fy.isFinite, fx >= -0.5, fy >= -0.5, fx <= Double(columns) - 0.5, fy <= Double(rows) - 0.5 else { continue }
                let x0 = min(max(0, Int(fx.rounded(.down))), columns - 1), y0 = min(max(0, Int(fy.rounded(.down))), rows - 1)
                let x1 = min(x0 + 1, columns - 1), y1 = min(y0 + 1, rows - 1)
                let tx = Float(min(1, max(0, fx - Double(x0)))), ty = Float(min(1, max(0, fy - Double(y0))))
                let a = samples[y0 * columns + x0], b = samples[y0 * columns + x1], c0 = samples[y1 * columns + x0], d = samples[y1 * columns + x1]
                let top = a + (b - a) * tx, bottom = c0 + (d - c0) * tx
                out[r * columns + c] = top + (bottom - top) * ty   // NaN when a neighbour is a void
            }
        }
        return out
    }
}
