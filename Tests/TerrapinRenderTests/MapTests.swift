import Testing
@testable import Terrapin

@Suite struct MapSmokeTests {
    @Test func exampleRenders() throws {
        let view = FerryBuildingExample()
        let pixmap = try ViewRenderer.render(view.frame(width: 400, height: 300), scale: 2)
        #expect(pixmap.width == 800)
    }
}
