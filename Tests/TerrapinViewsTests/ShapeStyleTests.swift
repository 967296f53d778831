// Shape and style members as SwiftUI code writes them, measured as pixels.
import Testing
import TerrapinRaster
@testable import TerrapinViews

@Suite struct ShapeStyleTests {
    @Test func shapeMembersAndMaterialsDraw() throws {
        // A capsule of blue behind a 40 × 10 frame: the ends are cut, the middle is blue.
        let capsule = try ViewRenderer.render(Color.clear.frame(width: 40, height: 10).background(.blue, in: .capsule), background: .white)
        #expect(capsule[20, 5] == PremultipliedRGBA8(red: 0, green: 0x7A, blue: 0xFF, alpha: 255))
        #expect(capsule[0, 0] == PremultipliedRGBA8(red: 255, green: 255, blue: 255, alpha: 255))
        let rounded = try ViewRenderer.render(Color.red.frame(width: 20, height: 20).clipShape(.rect(cornerRadius: 6)), background: .white)
        #expect(rounded[0, 0] == PremultipliedRGBA8(red: 255, green: 255, blue: 255, alpha: 255))
        #expect(rounded[10, 10].red == 255 && rounded[10, 10].green < 80)
        // The ultra-thin material over black: white at 40 % (0.98 × 0.4 × 255 ≈ 100).
        let material = try ViewRenderer.render(Color.clear.frame(width: 4, height: 4).background(.ultraThinMaterial), background: .black)
        #expect(abs(Int(material[2, 2].red) - 100) <= 1 && material[2, 2].red == material[2, 2].blue, "\(material[2, 2])")
        #expect(Material.regular.opacity > Material.thin.opacity && Material.thin.opacity > Material.ultraThin.opacity)
        #expect(Circle.circle == Circle() && Ellipse.ellipse == Ellipse())
    }
}
