// Web Mercator (EPSG:3857, the projection of web maps and their tiles) said once: tiles, the
// flat Earth, draped imagery, elevation tiles, GeoJSON sources, shapes drawn straight on the map
// and static maps all project through these functions.
// Foundation's log, tan and sinh, as the code these replaced called them: Glibc's, imported
// alone, round differently in the last bit, and the goldens of every draped basemap would move.
import Foundation

public enum WebMercator {
    /// The latitude limit, ±85.0511…° (where the square world ends): latitudes beyond it are
    /// clamped to it.
    public static let maxLatitude = 85.051128779806604
    /// sin(maxLatitude).
    public static let maxSinLatitude = 0.99627207622074994

    /// y of a latitude in degrees, in units of the sphere's radius: ln tan(π/4 + φ/2). Not
    /// clamped: ±`maxLatitude` gives ±π (where tiles end); `world` clamps.
    @inlinable public static func y(latitude: Double) -> Double {
        log(tan(Double.pi / 4 + latitude * Double.pi / 360))
    }

    /// The same y from sin φ, where the sine is at hand: atanh(sin φ) = ½ ln((1 + s) / (1 − s)).
    @inlinable public static func y(sinLatitude s: Double) -> Double {
        let c = min(maxSinLatitude, max(-maxSinLatitude, s))
        return 0.5 * log((1 + c) / (1 - c))
    }

    /// The latitude in degrees at y (in units of the sphere's radius): the inverse of `y(latitude:)`.
    @inlinable public static func latitude(y: Double) -> Double { atan(sinh(y)) * 180 / Double.pi }

    /// A position's place in the world, as fractions from its west edge and its north edge
    /// (0…1, the latitude clamped to ±`maxLatitude`): tile (x, y) of zoom z starts at (x, y) / 2^z.
    @inlinable public static func world(longitude: Double, latitude: Double) -> (x: Double, y: Double) {
        ((longitude + 180) / 360, (1 - y(latitude: min(max(latitude, -maxLatitude), maxLatitude)) / Double.pi) / 2)
    }

    /// The latitude at `worldY`, a fraction of the world from its north edge (0) to its south
    /// edge (1): the inverse of `world`'s y.
    @inlinable public static func latitude(worldY: Double) -> Double { latitude(y: Double.pi * (1 - 2 * worldY)) }
}
