// Text goldens under Fixtures/text/<feature>/<case>.png, each looked at before committing.
import Foundation
import Testing
import TerrapinGeometry
import TerrapinRaster
import TerrapinSnapshotCore
@testable import TerrapinTypography
import TerrapinTestSupport

private let ink = RGBAColor(red: 0.13, green: 0.13, blue: 0.14)

private func golden(_ pixmap: Pixmap, _ name: String, filePath: StaticString = #filePath, line: UInt = #line) {
    Golden.check(pixmap, name, filePath: filePath, line: line)
}

/// Draws each layout under the previous one, with a faint box showing the layout's bounds.
private func sheet(width: Int, height: Int, _ items: [(String, FontSpec, TextLayoutOptions)]) throws -> Pixmap {
    let canvas = Canvas(width: width, height: height)!
    canvas.clear(.white)
    var y = 6.0
    for (text, font, options) in items {
        let layout = try TextLayout.make(text, font: font, options: options)
        canvas.fill(PathBuilder.rect(Rect(x: 8, y: y, width: layout.width, height: layout.height)),
                    paint: Paint(color: RGBAColor(red: 0.92, green: 0.95, blue: 1)))
        layout.draw(in: canvas, at: Point(8, y), color: ink)
        y += layout.height + 6
    }
    return canvas.pixmap
}

@Suite struct TextGoldenTests {
    @Test func threeWaysToLabelTheEmpireStateBuilding() throws {
        golden(try sheet(width: 300, height: 100, [
            ("Empire State Building", .system(size: 20), TextLayoutOptions()),
            ("エンパイア・ステート・ビル", .system(size: 20), TextLayoutOptions()),
            ("एम्पायर स्टेट बिल्डिंग", .system(size: 20), TextLayoutOptions()),
        ]), "text/scripts/latin-japanese-devanagari")
    }

    @Test func rightToLeft() throws {
        golden(try sheet(width: 300, height: 132, [
            ("שלום עולם, hello 123!", .system(size: 18), TextLayoutOptions()),
            ("مرحبا بالعالم 2026", .system(size: 18), TextLayoutOptions()),
            ("המגדל (Tower) בגובה 381 מטר", .system(size: 16), TextLayoutOptions()),
            ("محطة العبّارات في سان فرانسيسكو", .system(size: 16), TextLayoutOptions(maxWidth: 150, alignment: .leading)),
        ]), "text/rtl/hebrew-arabic-numbers-wrapping")
    }

    @Test func sizesNineToFortyEight() throws {
        golden(try sheet(width: 300, height: 250, [9.0, 11, 13, 17, 24, 32, 48].map {
            ("Marker \(Int($0))", FontSpec.system(size: $0), TextLayoutOptions())
        }), "text/sizes/marker-9-11-13-17-24-32-48")
    }

    @Test func weightsItalicsAndDesigns() throws {
        golden(try sheet(width: 300, height: 170, [
            ("Regular Ferry Building", .system(size: 15), TextLayoutOptions()),
            ("Bold Ferry Building", .system(size: 15, weight: .bold), TextLayoutOptions()),
            ("Italic Ferry Building", FontSpec.system(size: 15).italic(), TextLayoutOptions()),
            ("Bold Italic Ferry Building", FontSpec.system(size: 15, weight: .bold).italic(), TextLayoutOptions()),
            ("Serif Ferry Building", .system(size: 15, design: .serif), TextLayoutOptions()),
            ("Mono Ferry Building", .system(size: 15, design: .monospaced), TextLayoutOptions()),
            ("Headline style", .style(.headline), TextLayoutOptions()),
        ]), "text/styles/weights-italics-designs")
    }

    @Test func wrappingAndAlignment() throws {
        let text = "Ferry Building Marketplace, a food hall on the Embarcadero at the foot of Market Street."
        golden(try sheet(width: 200, height: 220, TextAlignment.allCases.map {
            (text, FontSpec.system(size: 12), TextLayoutOptions(maxWidth: 180, alignment: $0))
        }), "text/layout/wrapping-leading-center-trailing")
    }

    @Test func truncationAndShrinking() throws {
        let text = "Golden Gate National Recreation Area visitor centre"
        golden(try sheet(width: 220, height: 110, [
            (text, .system(size: 14), TextLayoutOptions(maxWidth: 200, lineLimit: 1)),
            (text, .system(size: 14), TextLayoutOptions(maxWidth: 200, lineLimit: 2)),
            (text, .system(size: 14), TextLayoutOptions(maxWidth: 200, lineLimit: 1, minimumScaleFactor: 0.5)),
            ("東京スカイツリー展望デッキ入口", .system(size: 14), TextLayoutOptions(maxWidth: 150, lineLimit: 1)),
        ]), "text/layout/truncation-and-minimum-scale")
    }

    @Test func mixedScriptLine() throws {
        golden(try sheet(width: 300, height: 40, [
            ("Tokyo 東京 टोक्यो Токио Τόκιο طوكيو", .system(size: 16), TextLayoutOptions()),
        ]), "text/scripts/mixed-script-line")
    }

    @Test func rotatedTextDrawsOutlines() throws {
        let canvas = Canvas(width: 120, height: 120)!
        canvas.clear(.white)
        canvas.transform = Transform.rotation(-Double.pi / 6).concatenating(.translation(20, 90))
        try TextLayout.make("Ferry Building", font: .system(size: 14)).draw(in: canvas, at: .zero, color: ink)
        golden(canvas.pixmap, "text/transforms/rotated-30-degrees")
    }
}
