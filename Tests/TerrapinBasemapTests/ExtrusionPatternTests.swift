import Foundation
import Testing
import TerrapinTestSupport
import TerrapinGeo
import TerrapinRaster
import Terrapin3D
@testable import TerrapinTerrain
import TerrapinTiles
@testable import TerrapinBasemap

/// `fill-extrusion-pattern`: a sprite image on the buildings' walls (along the footprint's ring,
/// upright, MapLibre's 2^z / 65,536 pixels a metre up) and roofs (on the world's pixels).
@Suite struct ExtrusionPatternTests {
    static func basemap(sprite: Bool) throws -> Basemap {
        var text = try String(contentsOfFile: Repository.fixtures + "/basemap/styles/facades.json", encoding: .utf8)
        if !sprite { text = text.replacingOccurrences(of: #""sprite": "../sprites/patterns","#, with: "") }
        let style = try BasemapStyle.parse(Array(text.utf8), file: "facades.json", directory: Repository.fixtures + "/basemap/styles")
        return try Basemap(style: style, tiles: try TileSources.open(Repository.fixtures + "/tiles/monaco-omt.pmtiles")) { try TileSources.open($0) }
    }

    /// Monaco's buildings at zoom 16.4 carry the 8-pixel "windows" image: each roof corner's
    /// coordinates are its world pixel at zoom 16 less whole patterns, the ring's distances
    /// add up its sides in those pixels, and a metre up a wall is one pattern pixel.
    @Test func monacoBuildingsCarryThePatternOnTheWorldsPixels() throws {
        let basemap = try Self.basemap(sprite: true)
        let buildings = basemap.buildings(area: [7.424, 43.738, 7.430, 43.742], zoom: 16.4)
        #expect(basemap.warnings.isEmpty, "\(basemap.warnings)")
        #expect(buildings.count > 100)
        #expect(buildings.allSatisfy { $0.pattern != nil })
        for b in buildings.prefix(50) {
            let pattern = try #require(b.pattern)
            #expect(pattern.image.width == 8 && pattern.image.height == 8 && pattern.upward == 1)
            for (k, corner) in b.footprint.enumerated() {
                let phi = corner.latitude * .pi / 180
                let world = SIMD2((corner.longitude + 180) / 360, (1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2) * 512 * 65_536
                let offset = world - pattern.roof[k]
                // Whole patterns apart (to the footprint's rounding from tile units, 10⁻⁶ px).
                for c in [offset.x, offset.y] { #expect(abs(c / 8 - (c / 8).rounded()) < 1e-6, "\(c)") }
            }
            var length = 0.0
            for k in b.footprint.indices {
                let d = pattern.roof[(k + 1) % b.footprint.count] - pattern.roof[k]
                length += (d.x * d.x + d.y * d.y).squareRoot()
                #expect(abs(pattern.along[0][k + 1] - length) < 1e-9)
            }
        }
    }

    /// Without a sprite the patterned buildings are left out, and the style is told so once.
    @Test func withoutASpriteThePatternedBuildingsAreLeftOut() throws {
        let basemap = try Self.basemap(sprite: false)
        #expect(basemap.buildings(area: [7.424, 43.738, 7.430, 43.742], zoom: 16.4).isEmpty)
        #expect(basemap.warnings == ["layer 'building-3d': fill-extrusion-pattern needs a local sprite (the style's \"sprite\"); patterned extrusions are not drawn"])
    }

    /// Flat tiles draw the roofs with the image too: the windows' blue-grey (#4A6278) covers
    /// hundreds of a Monaco tile's pixels, and none without the sprite.
    @Test func flatTilesDrawPatternedRoofs() throws {
        let id = TileID.containing(longitude: 7.4275, latitude: 43.7402, zoom: 16)
        func windows(_ sprite: Bool) throws -> Int {
            let tile = try #require(try Self.basemap(sprite: sprite).draw(id))
            var count = 0
            for k in stride(from: 0, to: tile.data.count, by: 4) where abs(Int(tile.data[k]) - 0x4A) <= 4 && abs(Int(tile.data[k + 2]) - 0x78) <= 4 { count += 1 }
            return count
        }
        #expect(try windows(true) > 500)
        #expect(try windows(false) == 0)
    }

    /// A 20 m tower whose image is red above blue, four pixels each, one pixel a metre up: seen
    /// from the side, its wall runs blue, red, blue, red… from the ground up, a band every 4 m
    /// — upright, repeating — and its colours are the image's, lit.
    @Test func wallsRunUprightBands() throws {
        var texels = [SIMD4<Float>]()
        for row in 0..<8 { for _ in 0..<8 { texels.append(row < 4 ? SIMD4(220, 30, 30, 255) : SIMD4(30, 30, 220, 255)) } }
        let side = 0.0002
        let footprint = [(0.0, 0.0), (0.0, side), (side, side), (side, 0.0)].map { LatLngAltitude(latitude: $0.0, longitude: $0.1) }
        var tower = try #require(Building(footprint: footprint, roof: 20, color: SIMD3(128, 128, 128)))
        let image = try #require(PatternImage(width: 8, height: 8, texels: texels))
        let pattern = try #require(BuildingPattern(image: image, roof: Array(repeating: SIMD2(0, 0), count: 4), along: [[0, 20, 40, 60, 80]], upward: 1, ringSizes: [4]))
        tower.pattern = pattern
        let ground = BuiltGround(terrain: FlatGround(), buildings: [tower])
        // Looking north at the south wall, level with its middle.
        let camera = Camera(center: LatLngAltitude(latitude: 0, longitude: side / 2, altitude: 10), heading: 0, tilt: 88, range: 120)
        var frame = DepthFrame(width: 200, height: 200)
        BuildingRenderer.draw(ground, projection: Projection(camera: camera, width: 200, height: 200, centerAltitude: 10),
                              toDevice: (scale: 1, dx: 0, dy: 0), horizon: SIMD3(255, 255, 255), hazeDistance: .infinity, into: &frame)
        // Up the middle column: the wall's pixels, bottom to top, as red or blue.
        var bands: [Character] = []
        for y in stride(from: 199, through: 0, by: -1) {
            let p = frame.pixels[y * 200 + 100]
            let r = Int(p & 0xFF), b = Int(p >> 16 & 0xFF)
            guard frame.depth[y * 200 + 100].isFinite else { continue }
            let band: Character = r > b + 40 ? "r" : b > r + 40 ? "b" : "?"
            if bands.last != band { bands.append(band) }
        }
        #expect(String(bands).replacingOccurrences(of: "?", with: "").hasPrefix("brbrb"), "\(bands)")
        // A pattern made for other rings (here, before a courtyard was added) is not drawn:
        // the tower shows its own grey, and nothing traps.
        var yard = tower
        yard.holes = [[(0.25, 0.25), (0.25, 0.75), (0.75, 0.75), (0.75, 0.25)].map { LatLngAltitude(latitude: $0.0 * side, longitude: $0.1 * side) }]
        #expect(yard.holes.count == 1)
        var plain = DepthFrame(width: 200, height: 200)
        BuildingRenderer.draw(BuiltGround(terrain: FlatGround(), buildings: [yard]), projection: Projection(camera: camera, width: 200, height: 200, centerAltitude: 10),
                              toDevice: (scale: 1, dx: 0, dy: 0), horizon: SIMD3(255, 255, 255), hazeDistance: .infinity, into: &plain)
        let p = plain.pixels[120 * 200 + 100]
        #expect(abs(Int(p & 0xFF) - Int(p >> 16 & 0xFF)) < 8, "grey, not red or blue: \(String(p, radix: 16))")
    }

    /// `fill-extrusion-opacity`: a translucent layer's buildings hide each other (a tower in
    /// front of another, seen from the side, shows its own wall, not both) and the whole is
    /// laid over the view at the opacity: the frame's white behind shows through by half, and
    /// the frame's depth is left as it was. Opaque buildings are drawn as before.
    @Test func translucentLayersAreSeenThroughAsAWhole() throws {
        let side = 0.0002
        func tower(_ north: Double, opacity: Double) throws -> Building {
            let footprint = [(north, 0.0), (north, side), (north + side, side), (north + side, 0.0)].map { LatLngAltitude(latitude: $0.0, longitude: $0.1) }
            var b = try #require(Building(footprint: footprint, roof: 20, color: SIMD3(0, 0, 200)))
            b.opacity = opacity
            return b
        }
        // Looking north at two towers one behind the other, level with their middles.
        let camera = Camera(center: LatLngAltitude(latitude: 0, longitude: side / 2, altitude: 10), heading: 0, tilt: 88, range: 120)
        func draw(_ buildings: [Building]) -> DepthFrame {
            var frame = DepthFrame(width: 200, height: 200)
            frame.pixels = [UInt32](repeating: 0xFFFF_FFFF, count: 200 * 200)
            BuildingRenderer.draw(BuiltGround(terrain: FlatGround(), buildings: buildings), projection: Projection(camera: camera, width: 200, height: 200, centerAltitude: 10),
                                  toDevice: (scale: 1, dx: 0, dy: 0), horizon: SIMD3(255, 255, 255), hazeDistance: .infinity, into: &frame)
            return frame
        }
        let centre = 120 * 200 + 100
        let opaque = draw([try tower(0, opacity: 1), try tower(2 * side, opacity: 1)])
        let one = draw([try tower(0, opacity: 0.5)])
        let two = draw([try tower(0, opacity: 0.5), try tower(2 * side, opacity: 0.5)])
        // Half the opaque wall's blue over white, and the same with a second tower behind.
        let wall = opaque.pixels[centre], seen = one.pixels[centre]
        #expect(Int(seen & 0xFF) > 100 && Int(seen & 0xFF) < 160, "\(String(seen, radix: 16))")
        let seenBlue: Int = Int(seen >> 16 & 0xFF), halfway: Int = (Int(wall >> 16 & 0xFF) + 256) / 2
        #expect(abs(seenBlue - halfway) <= 1, "\(String(seen, radix: 16)) over \(String(wall, radix: 16))")
        #expect(two.pixels[centre] == seen)
        // The frame's depth: untouched by the translucent layer, set by the opaque one.
        #expect(!one.depth[centre].isFinite && opaque.depth[centre].isFinite)
        // More opacities than translucent layers drawn apart: every building is still drawn
        // (the later ones with the group nearest their opacity), a bounded number of passes.
        let many = try (0..<(BuildingRenderer.maxTranslucentLayers + 4)).map { try tower(0, opacity: 0.3 + 0.01 * Double($0)) }
        #expect(draw(many).pixels[centre] != 0xFFFF_FFFF)
        #expect(draw([try tower(0, opacity: 0.99)] + many).pixels[centre] != 0xFFFF_FFFF)
    }

    /// Buildings are drawn in bands of rows at once, a batch of triangles at a time: Monaco's
    /// patterned buildings, the same plain, and some translucent, seen tilted, come out the same
    /// pixels, depths and triangle count in one band and one batch as in 3, 8 or 13 bands, and
    /// in batches of a building or a hundred triangles (every band draws every triangle's rows
    /// within it, in the order they were made, batch after batch).
    @Test func buildingsDrawTheSameInAnyNumberOfBands() throws {
        let basemap = try Self.basemap(sprite: true)
        let patterned = basemap.buildings(area: [7.424, 43.738, 7.430, 43.742], zoom: 16.4).compactMap { b -> Building? in
            var building = Building(footprint: b.footprint.map { LatLngAltitude(latitude: $0.latitude, longitude: $0.longitude) }, base: b.base, roof: b.roof, color: b.color)
            building?.extrusionLight = basemap.style.light
            building?.holes = b.holes.map { $0.map { LatLngAltitude(latitude: $0.latitude, longitude: $0.longitude) } }
            building?.pattern = b.pattern
            return building
        }
        #expect(patterned.count > 100 && patterned.allSatisfy { $0.pattern != nil })
        var plain = patterned.map { b -> Building in var b = b; b.pattern = nil; return b }
        for i in stride(from: 0, to: plain.count, by: 7) { plain[i].opacity = i % 2 == 0 ? 0.5 : 0.8 }
        let ground = BuiltGround(terrain: FlatGround(), buildings: patterned + plain)
        let camera = Camera(center: LatLngAltitude(latitude: 43.740, longitude: 7.427), heading: 30, tilt: 60, range: 700)
        let projection = Projection(camera: camera, width: 320, height: 240)
        func draw(_ bands: Int, batch: Int = .max) -> (DepthFrame, Int) {
            var frame = DepthFrame(width: 320, height: 240)
            let count = BuildingRenderer.draw(ground, projection: projection, toDevice: (scale: 1, dx: 0, dy: 0), horizon: SIMD3(200, 210, 230),
                                              hazeDistance: 4_000, style: TerrainStyle(), bands: bands, batch: batch, into: &frame)
            return (frame, count)
        }
        let (one, count) = draw(1)
        let covered = one.depth.filter(\.isFinite).count
        #expect(covered > 320 * 240 / 4, "\(covered) pixels drawn")
        #expect(count > 10_000, "\(count) triangles")
        for (bands, batch) in [(3, Int.max), (8, Int.max), (13, Int.max), (1, 1), (8, 1), (3, 100)] {
            let (other, n) = draw(bands, batch: batch)
            #expect(other.pixels == one.pixels && other.depth == one.depth && n == count, "\(bands) bands, batches of \(batch): \(n) triangles, \(count) in one")
        }
        // The public call draws the same, in its own bands and batches.
        var frame = DepthFrame(width: 320, height: 240)
        let n = BuildingRenderer.draw(ground, projection: projection, toDevice: (scale: 1, dx: 0, dy: 0), horizon: SIMD3(200, 210, 230),
                                      hazeDistance: 4_000, into: &frame)
        #expect(frame.pixels == one.pixels && frame.depth == one.depth && n == count)
    }
}
