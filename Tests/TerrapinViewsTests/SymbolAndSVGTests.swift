// Image(systemName:) from the icon font's name map, suggestions by meaning, image scale, and
// SVG icons through librsvg: numbers here, pixels in the goldens below.
import Foundation
import Testing
import TerrapinCodecs
import TerrapinGeometry
import TerrapinRaster
import TerrapinSnapshotCore
import TerrapinTypography
@testable import TerrapinViews

@Suite struct SymbolMapTests {
    @Test func atLeastTwoHundredNamesWithFillAndCircleVariantsEachInTheFont() throws {
        let names = Image.systemNames
        #expect(names.count >= 500)
        for name in ["tent.fill", "parkingsign", "parkingsign.circle.fill", "fuelpump.fill", "phone.fill", "wifi", "bag.fill", "ev.charger.fill",
                     "toilet.fill", "info.circle", "exclamationmark.triangle", "mountain.2", "water.waves", "soccerball", "theatermasks.fill",
                     "building.church.fill", "graduationcap.fill", "cross.case.fill", "fork.knife.circle.fill", "bed.double.circle"] {
            #expect(Image.hasSystemName(name), "\(name)")
        }
        let face = try FontLibrary.shared.face(for: FontRequest(family: SymbolLibrary.fontFamily))
        for entry in SymbolLibrary.entries.values {
            #expect(face.glyph(for: Unicode.Scalar(entry.codepoint)!) != nil, "\(entry.name) → \(entry.glyphName)")
        }
    }

    /// Each line of the map gives a name its variants: `.fill` the filled glyph, `.circle` the
    /// plain one in a ring, `.circle.fill` the filled one cut out of a disc.
    @Test func eachLineExpandsToItsVariants() throws {
        #expect(SymbolLibrary.entries.count == 580)
        let heart = try #require(SymbolLibrary.entries["heart"]), fill = try #require(SymbolLibrary.entries["heart.fill"])
        let ring = try #require(SymbolLibrary.entries["heart.circle"]), disc = try #require(SymbolLibrary.entries["heart.circle.fill"])
        #expect([heart.glyphName, fill.glyphName, ring.glyphName, disc.glyphName] == ["favorite_border", "favorite", "favorite_border", "favorite"])
        #expect([heart.form, fill.form, ring.form, disc.form] == [.glyph, .glyph, .ring, .disc])
        #expect(heart.words == ["love", "like", "favourite", "health"] && disc.words == heart.words)
        #expect(SymbolLibrary.entries["soccerball.fill"] == nil && SymbolLibrary.entries["soccerball.circle.fill"]?.codepoint == 0xEA2F)
        #expect(SymbolLibrary.entries["atom"] != nil && SymbolLibrary.entries["atom.fill"] == nil && SymbolLibrary.entries["atom.circle"] == nil)
    }

    @Test func everyMakiNameMapsToAKnownSymbol() {
        #expect(SymbolLibrary.maki.count >= 80)
        for (maki, name) in SymbolLibrary.maki { #expect(Image.hasSystemName(name), "\(maki) → \(name)") }
    }

    @Test func codePointsMatchThePackagesScssVariables() throws {
        let scss = "/usr/share/fonts-material-design-icons-iconfont/scss/_variables.scss"
        let text = try String(contentsOfFile: scss, encoding: .utf8)
        for entry in SymbolLibrary.entries.values {
            #expect(text.contains("\"\(entry.glyphName)\": \(String(entry.codepoint, radix: 16)),"), "\(entry.glyphName)")
        }
    }

    @Test func unknownNamesSuggestByMeaningBeforeSpelling() {
        #expect(Image.closestSystemNames(to: "tent.fil").first == "tent.fill")
        #expect(Image.closestSystemNames(to: "camping").first == "tent")
        #expect(Image.closestSystemNames(to: "parking").first == "parkingsign")
        #expect(Image.closestSystemNames(to: "gas").first == "fuelpump")
        #expect(Image.closestSystemNames(to: "restroom").first == "toilet")
        #expect(Image.closestSystemNames(to: "hospital.fill").first == "cross.fill")
        #expect(Image.closestSystemNames(to: "museum").first == "building.columns")
        do {
            _ = try ViewRenderer.layout(Image(systemName: "campsite"))
            Issue.record("an unknown name rendered")
        } catch let error as ViewError {
            #expect(error.description == "no symbol named 'campsite'; closest: tent, tent.2, tent.fill (the full list is in docs/views.md)")
        } catch { Issue.record("\(error)") }
    }

    /// A document whose elements draw through filters is rasterised within 16 Mi filtered
    /// pixels: twenty blurred stripes at 4000² are drawn at 915² and scaled up (librsvg's blurs
    /// cost their radius, which grows with the size); without filters the usual limits hold.
    @Test func filteredSVGsAreRasterisedWithinTheirFilterBudget() throws {
        let stripes = (0..<20).map { #"<rect x="\#($0 * 5)" width="5" height="100" fill="red" filter="url(#b)"/>"# }.joined()
        let blurred = try SVGDocument(Array((#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><filter id="b"><feGaussianBlur stdDeviation="30"/></filter>"# + stripes + "</svg>").utf8))
        #expect(blurred.filterUses == 20)
        #expect(blurred.fitted(width: 4000, height: 4000) == (915, 915))
        let plain = try SVGDocument(Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="5" height="100" fill="red"/></svg>"#.utf8))
        #expect(plain.filterUses == 0 && plain.fitted(width: 4000, height: 4000) == (4000, 4000))
    }

    @Test func symbolsScaleWithTheFontAndImageScale() throws {
        func side(_ v: some View) throws -> Double { try ViewRenderer.layout(v).size.width }
        #expect(try side(Image(systemName: "wifi")) == 17 * 1.2)
        #expect(try side(Image(systemName: "wifi").font(.caption)) == 12 * 1.2)
        #expect(try side(Image(systemName: "wifi").imageScale(.small)) == 17 * 1.2 * 0.8)
        #expect(try side(Image(systemName: "wifi").imageScale(.large).font(.title)) == 28 * 1.2 * 1.3)
    }

    @Test func symbolsSitOnTheTextBaselineAsSFSymbolsDo() throws {
        // The symbol's centre is the middle of the capitals above the baseline (0.3645 em).
        for (font, size) in [(Font.caption, 12.0), (.body, 17), (.title, 28)] {
            let layout = try ViewRenderer.layout(HStack(alignment: .firstTextBaseline, spacing: 4) {
                Image(systemName: "wifi")
                Text("Free Wi-Fi")
            }.font(font))
            let frames = layout.frames
            let symbol = frames[0].frame, text = frames[1].frame
            let baseline = try #require(try TextLayout.make("Free Wi-Fi", font: FontSpec(size: size)).lines.first?.baseline)
            #expect(abs((text.minY + baseline) - (symbol.midY + size * 0.3645)) < 1e-9, "\(font)")
            #expect(layout.size.height == max(text.maxY, symbol.maxY) - min(text.minY, symbol.minY))
        }
        // Last baselines: a two-line text's second line.
        let two = try ViewRenderer.layout(HStack(alignment: .lastTextBaseline) { Text("a\nb"); Image(systemName: "wifi") })
        let lines = try TextLayout.make("a\nb", font: FontSpec(size: 17)).lines
        #expect(abs(two.frames[0].frame.minY + lines[1].baseline - (two.frames[1].frame.midY + 17 * 0.3645)) < 1e-9)
    }

    @Test func symbolsBesideTextOnTheBaseline() {
        golden(VStack(alignment: .leading, spacing: 6) {
            HStack(alignment: .firstTextBaseline, spacing: 4) { Image(systemName: "parkingsign.circle.fill").foregroundStyle(.blue); Text("Parking") }.font(.caption)
            HStack(alignment: .firstTextBaseline, spacing: 4) { Image(systemName: "fuelpump.fill").foregroundStyle(.red); Text("Fuel 24 h") }
            HStack(alignment: .firstTextBaseline, spacing: 4) { Image(systemName: "tent.fill").foregroundStyle(.green); Text("Camping") }.font(.title)
            HStack(alignment: .firstTextBaseline, spacing: 4) {
                Image(systemName: "wifi").imageScale(.small); Text("small")
                Image(systemName: "wifi"); Text("medium")
                Image(systemName: "wifi").imageScale(.large); Text("large")
            }
        }, "views/symbols/beside-text", scale: 2)
    }

    @Test func circleFormsCutTheGlyphOutOfTheDisc() throws {
        // The disc's centre pixel is the glyph's: a ring keeps it, a disc cuts it out.
        let ring = try ViewRenderer.render(Image(systemName: "phone.circle").resizable().frame(width: 48, height: 48).foregroundStyle(.black))
        let disc = try ViewRenderer.render(Image(systemName: "phone.circle.fill").resizable().frame(width: 48, height: 48).foregroundStyle(.black))
        func alpha(_ p: Pixmap, _ x: Int, _ y: Int) -> UInt8 { p.data[(y * p.width + x) * 4 + 3] }
        #expect(alpha(ring, 24, 3) == 255 && alpha(disc, 24, 3) == 255)     // the circle's top edge
        #expect(alpha(ring, 24, 6) == 0 && alpha(disc, 24, 6) == 255)       // between edge and glyph
        let glyphPixels = (0..<48 * 48).filter { alpha(ring, $0 % 48, $0 / 48) == 255 && (13...35).contains($0 % 48) && (13...35).contains($0 / 48) }
        #expect(!glyphPixels.isEmpty && glyphPixels.allSatisfy { alpha(disc, $0 % 48, $0 / 48) == 0 })
    }
}

@Suite struct SVGIconTests {
    let summit = fixtures + "/views/svg/summit.svg"

    @Test func takesItsOwnSizeAndDrawsSharpAtEachScale() throws {
        let document = try SVGDocument(file: summit)
        #expect((document.width, document.height) == (24, 24))
        #expect(try ViewRenderer.layout(Image(contentsOfFile: summit)).size == Size(width: 24, height: 24))
        for scale in [1, 2, 3] {
            let p = try ViewRenderer.render(Image(contentsOfFile: summit), scale: scale)
            #expect((p.width, p.height) == (24 * scale, 24 * scale))
            // The sun at (16.5, 7.5) is yellow at every scale: drawn by librsvg at that size.
            let i = (Int(7.5 * Double(scale)) * p.width + Int(16.5 * Double(scale))) * 4
            #expect(Array(p.data[i..<(i + 4)]) == [0xFB, 0xBC, 0x04, 0xFF], "scale \(scale)")
        }
    }

    @Test func aViewBoxGivesTheSizeAndATemplateTakesTheForeground() throws {
        let document = try SVGDocument(Array(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 5"><rect width="10" height="5" fill="green"/></svg>"#.utf8))
        #expect((document.width, document.height) == (10, 5))
        let p = try ViewRenderer.render(Image(contentsOfFile: summit).renderingMode(.template).foregroundStyle(.red))
        #expect(Array(p.data[(12 * 24 + 12) * 4..<(12 * 24 + 12) * 4 + 4]) == [255, 59, 48, 255])
    }

    @Test func malformedAndOversizedDocumentsAreTypedErrors() throws {
        #expect(throws: CodecError.self) { try SVGDocument(Array("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect".utf8)) }
        #expect(throws: CodecError.self) { try SVGDocument(Array("not an svg".utf8)) }
        #expect(throws: CodecError.self) { try SVGDocument(Array(#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="3" height="3"/></svg>"#.utf8)) }
        let document = try SVGDocument(file: summit)
        #expect(throws: CodecError.self) { try document.rasterize(width: 5000, height: 10) }
        #expect(throws: CodecError.self) { try SVGDocument(file: summit, limits: SVGLimits(maxFileBytes: 100)) }
    }

    @Test func externalReferencesAreNotLoaded() throws {
        // Two <image>s point outside the document (an absolute file and a relative SVG); only
        // its own red square is drawn.
        let document = try SVGDocument(file: fixtures + "/fuzz/svg/external-references.svg")
        let p = try document.rasterize(width: 16, height: 16)
        for y in 0..<16 {
            for x in 0..<16 {
                let i = (y * 16 + x) * 4
                let inside = (4..<12).contains(x) && (4..<12).contains(y)
                #expect(Array(p.data[i..<(i + 4)]) == (inside ? [255, 0, 0, 255] : [0, 0, 0, 0]), "\(x),\(y)")
            }
        }
    }

    @Test func svgIconAtOneTwoAndThreeTimes() {
        for scale in [1, 2, 3] {
            golden(HStack(spacing: 6) {
                Image(contentsOfFile: summit)
                Text("Summit")
                Image(contentsOfFile: summit).resizable().frame(width: 40, height: 40)
            }, "views/svg/summit@\(scale)x", scale: scale)
        }
    }
}

@Suite struct TextAndIconGoldens {
    @Test func emojiInACapsuleLabelAtOneAndThreeTimes() {
        for scale in [1, 3] {
            golden(VStack(spacing: 6) {
                Text("🍕 Pizza Napoli")
                    .padding(.horizontal, 12).padding(.vertical, 6).background(Color.white).clipShape(Capsule())
                Text("👨‍👩‍👧‍👦 👍🏽 🇯🇵 🏴󠁧󠁢󠁳󠁣󠁴󠁿 1️⃣ ☕ ☕︎")
                    .padding(.horizontal, 12).padding(.vertical, 6).background(Color.white).clipShape(Capsule())
                Text("🏔️ Half opacity").opacity(0.5)
            }, "views/text/emoji-capsule@\(scale)x", scale: scale)
        }
    }

    @Test func labelsInTheWorldsScripts() {
        let rows = ["서울 · 한국어", "กรุงเทพฯ · ไทย", "ལྷ་ས · བོད་ཡིག", "ភ្នំពេញ · ខ្មែរ", "ວຽງຈັນ · ລາວ", "ရန်ကုန် · မြန်မာ",
                    "කොළඹ · සිංහල", "சென்னை · தமிழ்", "ঢাকা · বাংলা", "አዲስ አበባ · አማርኛ", "القاهرة · العربية", "ירושלים · עברית",
                    "東京タワー · 日本語", "北京 · 简体中文", "臺北 · 繁體中文"]
        golden(VStack(alignment: .leading, spacing: 4) {
            ForEach(0..<rows.count) { i in
                Text(rows[i]).padding(.horizontal, 10).padding(.vertical, 3).background(Color.white).clipShape(Capsule())
            }
        }, "views/text/world-scripts", scale: 2)
    }

    @Test func hanFormsFollowTheLocale() {
        golden(HStack(spacing: 10) {
            Text("直骨 ja").environment(\.locale, Locale(identifier: "ja_JP"))
            Text("直骨 zh-Hans").environment(\.locale, Locale(identifier: "zh-Hans"))
            Text("直骨 zh-Hant").environment(\.locale, Locale(identifier: "zh-Hant"))
        }.font(.title), "views/text/han-by-locale", scale: 2)
    }

    @Test func everyMappedSymbolUnderItsName() {
        let names = Image.systemNames
        let columns = 12
        let rows = (names.count + columns - 1) / columns
        golden(VStack(alignment: .leading, spacing: 2) {
            ForEach(0..<rows) { row in
                HStack(spacing: 2) {
                    ForEach(0..<columns) { col in
                        let i = row * columns + col
                        VStack(spacing: 1) {
                            if i < names.count {
                                Image(systemName: names[i]).resizable().frame(width: 20, height: 20)
                                Text(names[i]).font(.system(size: 5)).lineLimit(2).multilineTextAlignment(.center).frame(width: 78, height: 13)
                            }
                        }.frame(width: 78, height: 36)
                    }
                }
            }
        }, "views/symbols/contact-sheet", scale: 1)
    }
}
