import Testing
@testable import Terrapin3D
@testable import TerrapinTerrain
import TerrapinRaster

/// A style's buildings lit as MapLibre GL lights `fill-extrusion`s. The roof and the shaded wall
/// of #E9E6E1 are the bytes MapLibre GL JS 5.24 draws straight down over Monaco (240, 237, 232
/// and 101 in its render of the built-in roadmap style).
@Suite struct ExtrusionLightTests {
    let colour = SIMD3<Double>(0xE9, 0xE6, 0xE1)
    let light = ExtrusionLight.standard

    func near(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ tolerance: Double = 1e-9) -> Bool { ((a - b) * (a - b)).sum().squareRoot() < tolerance }

    @Test func theDefaultLightComesFromTheViewsLowerLeftAndTurnsWithIt() {
        let s30 = 0.5, c30 = 3.0.squareRoot() / 2
        // Towards azimuth 210° of the view (south-south-west with north up), 30° from straight up.
        #expect(near(light.direction(heading: 0), SIMD3(1.15 * -0.5 * s30, 1.15 * -c30 * s30, 1.15 * c30)))
        // Viewport-anchored: with the view turned to heading 90 it comes from the map's 300°.
        #expect(near(light.direction(heading: 90), SIMD3(1.15 * -c30 * s30, 1.15 * 0.5 * s30, 1.15 * c30)))
        var map = light
        map.anchoredToMap = true
        #expect(near(map.direction(heading: 90), light.direction(heading: 0)))
    }

    @Test func roofsAndWallsShadeAsMapLibres() {
        let towards = light.direction(heading: 0)
        let roof = light.shade(colour, normal: SIMD3(0, 0, 1), towards: towards, wall: nil)
        #expect(roof.x.rounded() == 240 && roof.y.rounded() == 237 && roof.z.rounded() == 232, "\(roof)")
        // A wall facing away from the light (north-north-east): 1 − intensity, times 0.84 for a
        // 20 m wall at both ends.
        let away = SIMD3(0.5, 3.0.squareRoot() / 2, 0)
        for top in [false, true] {
            let wall = light.shade(colour, normal: away, towards: towards, wall: (top, 0, 20))
            #expect(abs(Double(wall.x) - (233.0 / 255 + 0.03) * 0.5 * 0.84 * 255) < 1e-3 && wall.x.rounded() == 101, "\(wall)")
        }
        // Facing it: the full directional term, 0.84 of it on the wall.
        let facing = light.shade(colour, normal: -away, towards: towards, wall: (false, 0, 20))
        #expect(abs(Double(facing.x) - (233.0 / 255 + 0.03) * (0.5 + 0.5 * 1.15 * 0.5) * 0.84 * 255) < 1e-3, "\(facing)")
        // The gradient: a 150 m tower is darker at its foot (0.84) than at its top (1).
        let foot = light.shade(colour, normal: away, towards: towards, wall: (false, 0, 150)), head = light.shade(colour, normal: away, towards: towards, wall: (true, 0, 150))
        #expect(abs(Double(head.x / foot.x) - 1 / 0.84) < 1e-4)
        var flat = light
        flat.verticalGradient = false
        #expect(flat.shade(colour, normal: away, towards: towards, wall: (false, 0, 20)) == flat.shade(colour, normal: away, towards: towards, wall: nil))
    }

    @Test func aColouredLightTintsAndFloorsItsComplement() {
        var red = light
        red.color = SIMD3(1, 0, 0)
        let roof = red.shade(colour, normal: SIMD3(0, 0, 1), towards: red.direction(heading: 0), wall: nil)
        // Green and blue get none of the light but keep 0.3 × (1 − 0) of the white.
        #expect(roof.x.rounded() == 240 && abs(roof.y - 0.3 * 255) < 1e-3 && abs(roof.z - 0.3 * 255) < 1e-3, "\(roof)")
    }

    @Test func patternsTakeTheWiderTermWithoutAmbient() {
        let towards = light.direction(heading: 0)
        let roof = light.patternFactor(normal: SIMD3(0, 0, 1), towards: towards, wall: nil)
        #expect(abs(Double(roof.x) - (0.5 + 0.5 * 1.15 * 3.0.squareRoot() / 2)) < 1e-6, "\(roof)")
        let away = light.patternFactor(normal: SIMD3(0.5, 3.0.squareRoot() / 2, 0), towards: towards, wall: (false, 0, 20))
        #expect(abs(Double(away.x) - 0.5 * 0.84) < 1e-6, "\(away)")
    }
}

/// A patterned building's translucent texel lies over what the frame holds (premultiplied
/// source over), as MapLibre blends a pattern's transparent texels over the map below.
@Suite struct TranslucentTexelTests {
    @Test func texelsLieOverTheFrame() {
        // Half-transparent white (premultiplied 128, 128, 128, 128) over opaque blue.
        let over = PremultipliedRGBA8.over(0x8080_8080, 0xFFFF_0000)
        #expect(over & 0xFF == 128 && (over >> 8) & 0xFF == 128 && (over >> 16) & 0xFF == 255 && over >> 24 == 255, "\(String(over, radix: 16))")
        // A transparent texel leaves the frame as it was; an opaque one replaces it.
        #expect(PremultipliedRGBA8.over(0, 0xFF12_3456) == 0xFF12_3456)
        #expect(PremultipliedRGBA8.over(0xFF00_00FF, 0xFF12_3456) == 0xFF00_00FF)
    }
}
