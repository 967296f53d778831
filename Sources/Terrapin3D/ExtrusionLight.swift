// How a MapLibre style's light shades extruded buildings.
import TerrapinGeo
import TerrapinGeometry

/// The light of a MapLibre style (its root `light`) on `fill-extrusion`s, shaded as MapLibre GL
/// shades them: the colour plus 3 % ambient, times a directional term whose range is narrower for
/// a lower `intensity` and for a lighter colour, and on walls a vertical gradient (darker towards
/// the ground; for walls under 106 m at the default intensity, 0.84 of the roof's light throughout).
public struct ExtrusionLight: Equatable, Sendable {
    /// Radial coordinate, azimuth (degrees clockwise from the top of the view, or from north when
    /// `anchoredToMap`) and polar angle (degrees from straight up) of the light.
    public var position: SIMD3<Double>
    /// 0…1.
    public var intensity: Double
    /// 0…1 a channel.
    public var color: SIMD3<Double>
    public var anchoredToMap: Bool
    /// `fill-extrusion-vertical-gradient` (the property is per layer; true by default).
    public var verticalGradient: Bool

    public init(position: SIMD3<Double> = SIMD3(1.15, 210, 30), intensity: Double = 0.5, color: SIMD3<Double> = SIMD3(1, 1, 1),
                anchoredToMap: Bool = false, verticalGradient: Bool = true) {
        (self.position, self.intensity, self.color, self.anchoredToMap, self.verticalGradient) =
            (position, intensity, color, anchoredToMap, verticalGradient)
    }

    /// MapLibre's default light.
    public static let standard = ExtrusionLight()

    /// Towards the light in east-north-up for a camera `heading` (a viewport light turns with
    /// the view), at the position's radial length (MapLibre does not normalise it).
    public func direction(heading: Double) -> SIMD3<Double> {
        let azimuth = (position.y + (anchoredToMap ? 0 : heading)) * Double.pi / 180, polar = position.z * Double.pi / 180
        return SIMD3(position.x * sin(azimuth) * sin(polar), position.x * cos(azimuth) * sin(polar), position.x * cos(polar))
    }

    /// The shade (sRGB 0…255) of `color` (0…255) on a face whose outward normal (east, north,
    /// up; unit) is `normal`, lit from `towards`. Walls pass where the vertex is (`top`) and the
    /// building's `base` and `height` in metres for the vertical gradient; roofs pass nil.
    public func shade(_ color: SIMD3<Double>, normal: SIMD3<Double>, towards: SIMD3<Double>, wall: (top: Bool, base: Double, height: Double)?) -> SIMD3<Float> {
        let c = color / 255
        let luminance = c.x * 0.2126 + c.y * 0.7152 + c.z * 0.0722
        let d = directional(brightest: max(1 - luminance + intensity, 1), normal: normal, towards: towards, wall: wall)
        return lit((c + 0.03) * d) * 255
    }

    /// The factor a `fill-extrusion-pattern`'s texels are multiplied by (MapLibre's pattern
    /// shader: no ambient term, a wider directional range), a channel each.
    public func patternFactor(normal: SIMD3<Double>, towards: SIMD3<Double>, wall: (top: Bool, base: Double, height: Double)?) -> SIMD3<Float> {
        lit(SIMD3(repeating: directional(brightest: max(0.5 + intensity, 1), normal: normal, towards: towards, wall: wall)))
    }

    /// The directional term: from 1 − intensity facing away from the light to `brightest` facing
    /// it, times the vertical gradient on walls.
    func directional(brightest: Double, normal: SIMD3<Double>, towards: SIMD3<Double>, wall: (top: Bool, base: Double, height: Double)?) -> Double {
        let facing = max(0, min(1, (normal * towards).sum()))
        var d = (1 - intensity) + (brightest - (1 - intensity)) * facing
        if let wall, verticalGradient {
            let least = 0.7 + (0.98 - 0.7) * (1 - intensity)
            d *= max(least, min(1, ((wall.top ? 1 : 0) + max(0, wall.base)) * (max(0, wall.height) / 150).squareRoot()))
        }
        return d
    }

    /// `v` in the light's colour, each channel kept within [0.3 × (1 − the light's), 1].
    func lit(_ v: SIMD3<Double>) -> SIMD3<Float> {
        var out = SIMD3<Float>()
        for i in 0..<3 { out[i] = Float(min(1, max(0.3 * (1 - color[i]), v[i] * color[i]))) }
        return out
    }
}

#if canImport(Glibc)
import Glibc
#endif
