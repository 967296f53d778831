// View goldens under Fixtures/views/<feature>/<case>.png, each looked at before committing.
import Foundation
import Testing
import TerrapinRaster
import TerrapinSnapshotCore
@testable import TerrapinViews
import TerrapinTestSupport

let fixtures = Repository.fixtures
/// A light map-like backdrop so white content is visible.
let backdrop = Color(hex: "#DDE6D5")!

/// Renders `view` padded on the backdrop and compares it with Fixtures/<name>.png.
func golden<V: View>(_ view: V, _ name: String, scale: Int = 2, filePath: StaticString = #filePath, line: UInt = #line) {
    do {
        let pixmap = try ViewRenderer.render(view.padding(8).background(backdrop), scale: scale)
        Golden.check(pixmap, name, filePath: filePath, line: line)
    } catch {
        Issue.record("render failed: \(error)")
    }
}

/// The SDK documentation's capsule label.
struct CapsuleLabel: View {
    let text: String
    var body: some View {
        Text(text)
            .padding(.horizontal, 12)
            .padding(.vertical, 6)
            .background(Color.white)
            .clipShape(Capsule())
    }
}

@Suite struct ViewGoldenTests {
    @Test func capsuleLabelWithTwelveBySixPadding() {
        golden(CapsuleLabel(text: "Empire State Building"), "views/labels/capsule-padding-12-6")
    }

    @Test func bluePinWithWhiteBorder() {
        golden(Pin(configuration: .init(backgroundColor: .blue, borderColor: .white)), "views/pins/blue-white-border", scale: 3)
    }

    @Test func blackPinWithWhiteFerryGlyph() {
        golden(Pin(configuration: .init(backgroundColor: .black) {
            Image(systemName: "ferry.fill").resizable().scaledToFit().padding(2).foregroundStyle(.white)
        }), "views/pins/black-ferry-glyph", scale: 3)
    }

    @Test func pinWithTextGlyphAndDefaults() {
        golden(HStack(spacing: 10) {
            Pin()
            Pin(configuration: .init(backgroundColor: .green) { Text("G").foregroundStyle(.white) })
            Pin(configuration: .init(glyphColor: .white) { Text("7") })
            Pin(configuration: .init(scale: 1.4))
        }, "views/pins/default-text-glyphs-scaled", scale: 3)
    }

    @Test func everyBuiltInSymbol() {
        let names = Symbols.names
        golden(VStack(alignment: .leading, spacing: 6) {
            ForEach(0..<5) { row in
                HStack(spacing: 6) {
                    ForEach(0..<5) { col in
                        VStack(spacing: 2) {
                            Image(systemName: names[row * 5 + col]).resizable().frame(width: 32, height: 32)
                            Text(names[row * 5 + col]).font(.system(size: 7)).lineLimit(1).frame(width: 72)
                        }
                    }
                }
            }
        }, "views/symbols/all-25", scale: 2)
    }

    @Test func stacks() {
        golden(VStack(alignment: .leading, spacing: 6) {
            HStack {
                Image(systemName: "tram.fill").foregroundStyle(.blue)
                Text("Powell St").font(.headline)
                Spacer()
                Text("2 min").foregroundStyle(.secondary)
            }
            .frame(width: 200)
            Divider().frame(width: 200)
            HStack(alignment: .top, spacing: 4) {
                Color.red.frame(width: 20, height: 30)
                Color.orange.frame(width: 20, height: 20)
                Color.yellow.frame(width: 20, height: 10)
            }
            ZStack(alignment: .topTrailing) {
                RoundedRectangle(cornerRadius: 8).fill(.white).frame(width: 80, height: 40)
                Circle().fill(.red).frame(width: 14, height: 14).offset(x: 4, y: -4)
            }
        }, "views/layout/stacks-spacer-divider-zstack")
    }

    @Test func shadowsAndClipping() {
        golden(HStack(spacing: 16) {
            CapsuleLabel(text: "Shadow").shadow(radius: 4, y: 2)
            Text("Clipped").padding(10).background(Color.orange).clipShape(RoundedRectangle(cornerRadius: 10))
            Color.blue.frame(width: 40, height: 40).clipShape(Circle()).overlay(Circle().stroke(.white, lineWidth: 2))
            Text("Faded").padding(6).background(Color.white).opacity(0.5)
            Text("Tilted").padding(6).background(Color.white).rotationEffect(.degrees(-12))
        }, "views/effects/shadow-clip-opacity-rotation")
    }

    @Test(arguments: [1, 2, 3])
    func scales(scale: Int) {
        golden(HStack(spacing: 6) {
            Pin(configuration: .init(backgroundColor: .black) { Image(systemName: "ferry.fill").resizable().scaledToFit().padding(2).foregroundStyle(.white) })
            CapsuleLabel(text: "Ferry Building")
        }, "views/scale/pin-and-label-\(scale)x", scale: scale)
    }
}
