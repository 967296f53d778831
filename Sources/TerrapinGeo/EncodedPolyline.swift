// Google's encoded polyline format, as routes APIs return it: each coordinate × 1e5 (altitude:
// × 100, as `dimensions: .latLngAltitude` encodes it), delta-coded from the previous point,
// zig-zag signed, in 5-bit chunks from the low end, each chunk + 63 as an ASCII character with
// 0x20 set on all but the last.

/// What an encoded path holds per point (the SDK 1.0's `PathEncodingDimensions`): latitude and
/// longitude (a routes API's `encodedPolyline`), or those and the altitude in centimetres.
public enum PathEncodingDimensions: Int, Hashable, Sendable {
    case latLng = 2
    case latLngAltitude = 3
}

@available(*, deprecated, renamed: "PathEncodingDimensions")
public typealias PathDimensions = PathEncodingDimensions

extension Array where Element == LatLngAltitude {
    /// Decodes an encoded polyline; nil when the text is not one (a truncated value, a character
    /// outside '?'…'~', or a count of values that is not a whole number of points).
    /// The SDK 1.0's default is `.latLngAltitude`; a routes API's polyline is `.latLng`.
    public init?(encodedPath: String, dimensions: PathEncodingDimensions = .latLngAltitude) {
        let per = dimensions.rawValue
        var values: [Int] = []
        var current = 0, shift = 0, open = false
        for byte in encodedPath.utf8 {
            guard byte >= 63, byte <= 126, shift <= 30 else { return nil }
            let chunk = Int(byte) - 63
            current |= (chunk & 0x1F) << shift
            shift += 5
            open = chunk & 0x20 != 0
            if !open {
                values.append(current & 1 != 0 ? ~(current >> 1) : current >> 1)
                current = 0
                shift = 0
            }
        }
        guard !open, values.count % per == 0 else { return nil }
        var points: [LatLngAltitude] = []
        points.reserveCapacity(values.count / per)
        var lat = 0, lng = 0, alt = 0
        for i in stride(from: 0, to: values.count, by: per) {
            lat += values[i]
            lng += values[i + 1]
            if per == 3 { alt += values[i + 2] }
            points.append(LatLngAltitude(latitude: Double(lat) / 1e5, longitude: Double(lng) / 1e5, altitude: Double(alt) / 100))
        }
        self = points
    }

    /// The encoded polyline of these points (rounded to 1e-5°, altitude to 1 cm).
    public func encodedPath(dimensions: PathEncodingDimensions = .latLngAltitude) -> String {
        var out = ""
        var last = (0, 0, 0)
        func put(_ v: Int) {
            var u = v < 0 ? ~(v << 1) : v << 1
            while u >= 0x20 {
                out.unicodeScalars.append(Unicode.Scalar(UInt8((u & 0x1F) | 0x20) + 63))
                u >>= 5
            }
            out.unicodeScalars.append(Unicode.Scalar(UInt8(u) + 63))
        }
        for p in self {
            let q = (Int((p.latitude * 1e5).rounded()), Int((p.longitude * 1e5).rounded()), Int((p.altitude * 100).rounded()))
            put(q.0 - last.0)
            put(q.1 - last.1)
            if dimensions == .latLngAltitude { put(q.2 - last.2) }
            last = q
        }
        return out
    }
}
