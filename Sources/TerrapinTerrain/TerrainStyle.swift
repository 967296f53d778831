// How terrain is coloured and lit: the palette, the sun, the haze.
import Terrapin3D
import TerrapinGeo
import TerrapinImagery
import TerrapinTerrainData
import TerrapinGeometry
import TerrapinRaster
import Dispatch
import TerrapinIO

public struct TerrainStyle: Sendable {
    /// Sun azimuth, degrees clockwise from north. Default 315 (north-west).
    public var sunAzimuth: Double = 315 { didSet { light = Self.light(sunAzimuth, sunAltitude) } }
    /// Sun altitude above the horizon, degrees. Default 45.
    public var sunAltitude: Double = 45 { didSet { light = Self.light(sunAzimuth, sunAltitude) } }
    /// The unit vector towards the sun (east, north, up), kept with the angles so hillshade,
    /// called per sample, does no trigonometry.
    public private(set) var light = TerrainStyle.light(315, 45)
    /// How the ground is coloured. Default `.relief`.
    public var palette = Palette.relief
    public init() {}

    public enum Palette: Sendable {
        /// The hypsometric ramp, hillshaded; the sea tinted by depth.
        case relief
        /// A map's light style: land #EEF0EB with a faint hillshade (0.88 + 0.12 × shade) so the
        /// relief still reads, water flat #AADAFF.
        case roadmap
    }
    public static let roadmapLand = (238.0, 240.0, 235.0)
    public static let roadmapWater = (170.0, 218.0, 255.0)

    static func light(_ azimuth: Double, _ altitude: Double) -> (Double, Double, Double) {
        let az = azimuth * Double.pi / 180, alt = altitude * Double.pi / 180
        return (sin(az) * cos(alt), cos(az) * cos(alt), sin(alt))
    }

    /// Hypsometric ramp (metres → sRGB), linear between stops (the benchmark scenes' ramp).
    public static let ramp: [(Double, (Double, Double, Double))] = [
        (0, (38, 115, 77)), (200, (94, 153, 88)), (500, (173, 189, 116)), (800, (214, 196, 140)),
        (1100, (181, 148, 110)), (1400, (140, 110, 90)), (1700, (245, 245, 245)),
    ]
    /// `rampColor` at every whole metre from 0 to the last stop, and once more past it.
    static let rampTable: [SIMD3<Float>] = (0...Int(ramp[ramp.count - 1].0) + 1).map {
        let c = rampColor(Double($0))
        return SIMD3(Float(c.0), Float(c.1), Float(c.2))
    }
    public static let shallowWater = (122.0, 174.0, 214.0)
    public static let deepWater = (34.0, 82.0, 140.0)

    public static func rampColor(_ h: Double) -> (Double, Double, Double) {
        let r = ramp
        if h <= r[0].0 { return r[0].1 }
        for i in 1..<r.count where h <= r[i].0 {
            let t = (h - r[i - 1].0) / (r[i].0 - r[i - 1].0)
            let a = r[i - 1].1, b = r[i].1
            return (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, a.2 + (b.2 - a.2) * t)
        }
        return r[r.count - 1].1
    }

    /// Horn's hillshade from the eight neighbours (a…i, north row first), cell sizes in metres.
    public func hillshade(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ f: Double, _ g: Double, _ h: Double, _ i: Double,
                          dxMetres: Double, dyMetres: Double) -> Double {
        let dzdx = ((c + 2 * f + i) - (a + 2 * d + g)) / (8 * dxMetres)
        let dzdy = ((a + 2 * b + c) - (g + 2 * h + i)) / (8 * dyMetres)
        let l = light
        return min(1, max(0, (-dzdx * l.0 - dzdy * l.1 + l.2) / (dzdx * dzdx + dzdy * dzdy + 1).squareRoot()))
    }
}

#if canImport(Glibc)
import Glibc
#endif
