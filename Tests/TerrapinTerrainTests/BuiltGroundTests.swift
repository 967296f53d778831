import Testing
@testable import TerrapinTerrain
import Terrapin3D
import TerrapinGeo

@Suite struct BuiltGroundOcclusionTests {
    /// A 50 m block 100 m north of the origin. The prisms are computed once a frame and reused:
    /// the answers are those of a fresh ground, whichever frames are asked about in turn.
    @Test func prismsAreReusedPerFrameAndAnswerAsAFreshGround() throws {
        let d = 0.0005
        let footprint = [(0.0009, -d), (0.0009, d), (0.0009 + 2 * d, d), (0.0009 + 2 * d, -d)].map { LatLngAltitude(latitude: $0.0, longitude: $0.1) }
        let block = try #require(Building(footprint: footprint, roof: 50, color: SIMD3(128, 128, 128)))
        let ground = BuiltGround(terrain: FlatGround(), buildings: [block])
        let behind = LatLngAltitude(latitude: 0.0035, longitude: 0)
        let beside = LatLngAltitude(latitude: 0.0035, longitude: 0.01)
        func question(_ origin: LatLngAltitude, _ g: BuiltGround) -> [Bool] {
            let frame = LocalFrame(origin: origin)
            let eye = frame.enu(LatLngAltitude(latitude: 0, longitude: 0, altitude: 2))
            return [behind, beside].map { g.isOccluded(from: eye, to: frame.enu($0), in: frame) }
        }
        // From 2 m up at the origin, the block hides what is behind it, not what is beside it.
        let a = LatLngAltitude(latitude: 0, longitude: 0), b = LatLngAltitude(latitude: 0.002, longitude: 0.001)
        #expect(question(a, ground) == [true, false])
        for origin in [b, a, b, a] {
            #expect(question(origin, ground) == question(origin, BuiltGround(terrain: FlatGround(), buildings: [block])))
        }
        #expect(ground.meshHeight(at: LatLngAltitude(latitude: 0.0009 + d, longitude: 0)) == 50)
        #expect(ground.meshHeight(at: LatLngAltitude(latitude: 0.0009 + d, longitude: 2 * d)) == 0)
    }
}

/// Occlusion and mesh heights through the buildings' grids answer as a test of every building
/// does: 400 blocks scattered over a kilometre, asked from eyes near and far.
@Suite struct BuiltGroundGridTests {
    @Test func occlusionAndMeshHeightsAgreeWithEveryBuildingTested() throws {
        var state: UInt64 = 5
        func next() -> Double { state = state &* 6364136223846793005 &+ 1442695040888963407; return Double(state >> 11) / Double(1 << 53) }
        var buildings: [Building] = []
        for _ in 0..<400 {
            let lat = next() * 0.01, lon = next() * 0.01, d = 0.00005 + next() * 0.0002
            let footprint = [(lat, lon), (lat, lon + d), (lat + d * 1.5, lon + d), (lat + d * 0.5, lon)].map { LatLngAltitude(latitude: $0.0, longitude: $0.1) }
            buildings.append(try #require(Building(footprint: footprint, roof: 5 + next() * 60)))
        }
        let ground = BuiltGround(terrain: FlatGround(), buildings: buildings)
        let frame = LocalFrame(origin: LatLngAltitude(latitude: 0.005, longitude: 0.005))
        let (prisms, _) = ground.prisms.prisms(of: ground, in: frame)
        func everyBuilding(from eye: Vector3, to point: Vector3) -> Bool {
            let d = point - eye, length = d.length
            guard length > 1 else { return false }
            let end = eye + d * ((length - 1) / length)
            return prisms.contains { BuiltGround.segment(from: eye, to: end, hits: ($0.rings, $0.bottom, $0.top)) }
        }
        var hidden = 0
        for k in 0..<1_500 {
            // Eyes 2 m up among the buildings, and 300 m up from 3 km off.
            let eye = k % 2 == 0 ? frame.enu(LatLngAltitude(latitude: next() * 0.01, longitude: next() * 0.01, altitude: 2))
                : frame.enu(LatLngAltitude(latitude: -0.02 + next() * 0.05, longitude: -0.02, altitude: 300))
            let point = frame.enu(LatLngAltitude(latitude: next() * 0.01, longitude: next() * 0.01, altitude: next() * 20))
            let occluded = ground.isOccluded(from: eye, to: point, in: frame)
            #expect(occluded == everyBuilding(from: eye, to: point))
            if occluded { hidden += 1 }
        }
        #expect(hidden > 200 && hidden < 1_400)
        var roofs = 0
        for _ in 0..<3_000 {
            let p = LatLngAltitude(latitude: next() * 0.01, longitude: next() * 0.01)
            let scanned = buildings.filter { $0.contains(p) }.map(\.roof).max() ?? 0
            #expect(ground.meshHeight(at: p) == scanned)
            if scanned > 0 { roofs += 1 }
        }
        #expect(roofs > 100)
    }
}
