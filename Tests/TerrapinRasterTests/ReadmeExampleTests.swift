// The drawing example of docs/drawing.md, kept compiling and running.
import Foundation
import Testing
import TerrapinGeometry
import TerrapinPNG
import TerrapinRaster

@Suite struct ReadmeExampleTests {
    @Test func cardExample() throws {
        let canvas = Canvas(width: 256, height: 128)!
        canvas.clear(.white)
        let card = PathBuilder.roundedRect(Rect(x: 16, y: 16, width: 160, height: 64), cornerRadius: 12)
        canvas.drawShadow(of: card, color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0.3), radius: 6, offset: Point(0, 3))
        canvas.fill(card, paint: Paint(shader: .linearGradient(LinearGradient(
            start: Point(16, 0), end: Point(176, 0),
            stops: [GradientStop(offset: 0, color: RGBAColor(RGBA8(hex: "#1E88E5")!)),
                    GradientStop(offset: 1, color: RGBAColor(RGBA8(hex: "#8E24AA")!))]))))
        canvas.stroke(card, style: StrokeStyle(width: 2, dash: [6, 4]), paint: Paint(color: .white))
        let path = NSTemporaryDirectory() + "terrapin-card-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PNGEncoder.write(canvas.pixmap, to: path)
        let decoded = try PNGDecoder.decode(file: path)
        let start = decoded[20, 48]                                         // 3 % along the gradient
        #expect(abs(Int(start.red) - 0x1E) <= 4 && abs(Int(start.green) - 0x88) <= 4 && abs(Int(start.blue) - 0xE5) <= 4)
        #expect(decoded[96, 84].red < 250)                                  // shadow below the card
        #expect(decoded[250, 10] == PremultipliedRGBA8(red: 255, green: 255, blue: 255, alpha: 255))
    }
}
