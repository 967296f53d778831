import Testing
import TerrapinRaster

@Suite struct ColorTests {
    @Test func mul255IsExactRounding() {
        for a in 0...255 {
            for b in 0...255 {
                let exact = UInt8((Double(a * b) / 255).rounded())
                if mul255(UInt8(a), UInt8(b)) != exact { Issue.record("\(a)·\(b)"); return }
            }
        }
    }

    @Test func premultiplyByHand() {
        #expect(RGBA8(red: 255, green: 128, blue: 0, alpha: 128).premultiplied == PremultipliedRGBA8(red: 128, green: 64, blue: 0, alpha: 128))
        #expect(RGBA8(red: 200, green: 100, blue: 50, alpha: 0).premultiplied == .transparent)
        #expect(PremultipliedRGBA8(red: 128, green: 64, blue: 0, alpha: 128).straight == RGBA8(red: 255, green: 128, blue: 0, alpha: 128))
    }

    @Test func straightThenPremultipliedIsIdentity() {
        for a in 1...255 {
            for c in 0...a {
                let p = PremultipliedRGBA8(red: UInt8(c), green: 0, blue: UInt8(a), alpha: UInt8(a))
                if p.straight.premultiplied != p { Issue.record("c=\(c) a=\(a)"); return }
            }
        }
    }

    @Test func hexStrings() {
        #expect(RGBA8(hex: "#EA4335") == RGBA8(red: 0xEA, green: 0x43, blue: 0x35))
        #expect(RGBA8(hex: "ea433580") == RGBA8(red: 0xEA, green: 0x43, blue: 0x35, alpha: 0x80))
        #expect(RGBA8(hex: "#fff") == RGBA8(red: 255, green: 255, blue: 255))
        #expect(RGBA8(hex: "#0f08") == RGBA8(red: 0, green: 255, blue: 0, alpha: 0x88))
        for bad in ["", "#", "#12", "#12345", "#GGGGGG", "#١٢٣", "#1234567", "+123456"] { #expect(RGBA8(hex: bad) == nil, "\(bad)") }
        #expect(RGBA8(red: 1, green: 2, blue: 255, alpha: 16).description == "#0102FF10")
    }

    @Test func floatColoursClampAndRound() {
        #expect(RGBAColor(red: 0.5, green: -1, blue: 2, alpha: .nan).rgba8 == RGBA8(red: 128, green: 0, blue: 255, alpha: 0))
    }
}

@Suite struct PixmapTests {
    @Test func limitsAreCheckedBeforeAllocating() {
        #expect(Pixmap(width: 0, height: 10) == nil)
        #expect(Pixmap(width: -1, height: 10) == nil)
        #expect(Pixmap(width: 16_385, height: 1) == nil)
        #expect(Pixmap(width: 16_384, height: 4097) == nil)   // 67,125,248 pixels > 64 Mi
        #expect(Pixmap(width: Int.max, height: Int.max) == nil)
        #expect(Pixmap(width: 16_384, height: 1)?.data.count == 65_536)
        #expect(Pixmap(width: 2, height: 2, premultipliedData: [0, 0, 0]) == nil)
    }

    @Test func fillAndOpacity() {
        var p = Pixmap(width: 3, height: 2)!
        #expect(!p.isOpaque)
        p.fill(PremultipliedRGBA8(red: 1, green: 2, blue: 3, alpha: 255))
        #expect(p.isOpaque)
        #expect(p.data.prefix(8) == [1, 2, 3, 255, 1, 2, 3, 255])
        p[2, 1] = .transparent
        #expect(!p.isOpaque)
        #expect(p[2, 1] == .transparent && p[1, 1].green == 2)
    }
}
