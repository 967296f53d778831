import Testing
import TerrapinTestSupport
import TerrapinGeometry
import TerrapinPNG
import TerrapinRaster
@testable import TerrapinDiff

func drawn(_ width: Int = 40, _ height: Int = 30, _ body: (Canvas) -> Void) -> Pixmap {
    let c = Canvas(width: width, height: height)!
    c.clear(.white)
    body(c)
    return c.pixmap
}

@Suite struct ImageDiffTests {
    let blue = Paint(color: RGBAColor(red: 0.1, green: 0.3, blue: 0.9))

    @Test func identicalImagesMatchOnTheFastPath() {
        let a = drawn { $0.fill(PathBuilder.circle(center: Point(20, 15), radius: 9), paint: blue) }
        let result = ImageDiff.compare(expected: a, actual: a)
        #expect(result.matches && result.differingPixels == 0 && result.antialiasedPixels == 0 && result.regions.isEmpty)
    }

    @Test func aOnePixelShiftOfAnAntialiasedEdgeIsAntialiasingOnly() {
        // The anti-aliased diagonal edge of a filled shape, moved one pixel right.
        func line(_ dx: Double) -> Pixmap {
            drawn { c in
                c.fill(polygon([Point(5 + dx, 30), Point(25 + dx, 0), Point(40, 0), Point(40, 30)]), paint: Paint(color: .black))
            }
        }
        let result = ImageDiff.compare(expected: line(0), actual: line(1))
        #expect(result.differingPixels == 0, "\(result.summary(threshold: 0.1))")
        #expect(result.antialiasedPixels > 0)
        #expect(result.matches)
        // With detection off the same pixels count.
        let strict = ImageDiff.compare(expected: line(0), actual: line(1), options: ImageDiffOptions(detectsAntialiasing: false))
        #expect(!strict.matches && strict.differingPixels == result.antialiasedPixels)
    }

    @Test func aOnePixelColourChangeFailsWithItsExactBox() {
        let a = drawn { $0.fill(PathBuilder.rect(Rect(x: 5, y: 5, width: 20, height: 10)), paint: self.blue) }
        var b = a
        b[17, 9] = PremultipliedRGBA8(red: 255, green: 0, blue: 0, alpha: 255)
        let result = ImageDiff.compare(expected: a, actual: b)
        #expect(!result.matches && result.differingPixels == 1)
        #expect(result.regions == [IntRect(x0: 17, y0: 9, x1: 18, y1: 10)])
        #expect(result.summary(threshold: 0.1).contains("1 of 1200 pixels differ"))
        #expect(result.summary(threshold: 0.1).contains("changed regions: x 17…17, y 9…9 (1x1)"))
    }

    @Test func separateChangesAreSeparateRegions() {
        let a = drawn { _ in }
        var b = a
        for (x, y) in [(2, 2), (3, 3), (30, 20), (31, 20), (32, 21)] { b[x, y] = PremultipliedRGBA8(red: 0, green: 0, blue: 0, alpha: 255) }
        let result = ImageDiff.compare(expected: a, actual: b, options: .exact)
        #expect(result.regions == [IntRect(x0: 30, y0: 20, x1: 33, y1: 22), IntRect(x0: 2, y0: 2, x1: 4, y1: 4)])
    }

    @Test func sizeMismatchStatesBothSizes() {
        let result = ImageDiff.compare(expected: Pixmap(width: 10, height: 8)!, actual: Pixmap(width: 12, height: 8)!)
        #expect(!result.matches && !result.sizesMatch)
        #expect(result.summary(threshold: 0.1) == "sizes differ: expected 10x8, actual 12x8")
    }

    @Test func transparency() {
        let transparent = Pixmap(width: 1, height: 1)!
        var white = transparent
        white[0, 0] = PremultipliedRGBA8(red: 255, green: 255, blue: 255, alpha: 255)
        #expect(!ImageDiff.compare(expected: transparent, actual: white).matches, "transparent is not white")
        var half = transparent
        half[0, 0] = PremultipliedRGBA8(red: 0, green: 0, blue: 0, alpha: 128)
        #expect(!ImageDiff.compare(expected: transparent, actual: half).matches)
        var nearlyOpaque = white
        nearlyOpaque[0, 0] = PremultipliedRGBA8(red: 250, green: 250, blue: 250, alpha: 250)
        #expect(ImageDiff.compare(expected: white, actual: nearlyOpaque).matches, "a 2 % alpha change is under the threshold")
        #expect(!ImageDiff.compare(expected: white, actual: nearlyOpaque, options: .exact).matches)
    }

    /// pixelmatch's rule (MapLibre's render tests): over white only, so transparent equals
    /// white, while transparent still differs from black.
    @Test func overWhiteOnlyIsPixelmatchsRule() {
        let transparent = Pixmap(width: 1, height: 1)!
        var white = transparent, black = transparent
        white[0, 0] = PremultipliedRGBA8(red: 255, green: 255, blue: 255, alpha: 255)
        black[0, 0] = PremultipliedRGBA8(red: 0, green: 0, blue: 0, alpha: 255)
        let pixelmatch = ImageDiffOptions(overWhiteOnly: true)
        #expect(ImageDiff.compare(expected: transparent, actual: white, options: pixelmatch).matches)
        #expect(!ImageDiff.compare(expected: transparent, actual: black, options: pixelmatch).matches)
        #expect(!ImageDiff.compare(expected: transparent, actual: white).matches)
    }

    @Test func wholeImageTolerances() {
        let a = drawn { _ in }
        var b = a
        for x in 0..<6 { b[x, 0] = PremultipliedRGBA8(red: 0, green: 0, blue: 0, alpha: 255) }
        #expect(!ImageDiff.compare(expected: a, actual: b, options: ImageDiffOptions(maxDifferentPixels: 5)).matches)
        #expect(ImageDiff.compare(expected: a, actual: b, options: ImageDiffOptions(maxDifferentPixels: 6)).matches)
        #expect(ImageDiff.compare(expected: a, actual: b, options: ImageDiffOptions(maxDifferentRatio: 0.005)).matches)   // 6 of 1200
        #expect(!ImageDiff.compare(expected: a, actual: b, options: ImageDiffOptions(maxDifferentRatio: 0.004)).matches)
    }

    @Test func diffImageMarksChangesRedAndAntialiasingYellow() throws {
        let a = drawn { _ in }
        var b = a
        b[3, 4] = PremultipliedRGBA8(red: 0, green: 0, blue: 0, alpha: 255)
        var kinds: [UInt8] = []
        _ = ImageDiff.compare(expected: a, actual: b, options: .tolerant, kinds: &kinds)
        kinds[10] = 2
        let diff = try #require(DiffImages.diff(expected: a, kinds: kinds))
        #expect(diff[3, 4] == PremultipliedRGBA8(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(diff[10, 0] == PremultipliedRGBA8(red: 255, green: 255, blue: 0, alpha: 255))
        #expect(diff[0, 0] == PremultipliedRGBA8(red: 255, green: 255, blue: 255, alpha: 255), "white stays white when faded")
        let strip = try #require(DiffImages.strip(expected: a, diff: diff, actual: b))
        #expect(strip.width == 3 * 40 + 4 * 4 && strip.height == 30 + 8)
    }
}
