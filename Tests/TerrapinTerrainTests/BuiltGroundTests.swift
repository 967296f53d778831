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
