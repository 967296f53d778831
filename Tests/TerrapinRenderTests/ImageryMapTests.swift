import Foundation
import Testing
@testable import Terrapin
@testable import TerrapinRender
@testable import TerrapinImagery

@Suite struct ImageryMapTests {
    /// An opaque image whose pixel (x, y) is (4x, 4y, 2x + 2y) (each mod 256).
    static func image(_ width: Int, _ height: Int) -> Pixmap {
        var data = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let o = (y * width + x) * 4
                data[o] = UInt8(4 * x % 256); data[o + 1] = UInt8(4 * y % 256); data[o + 2] = UInt8((2 * x + 2 * y) % 256)
            }
        }
        return Pixmap(width: width, height: height, premultipliedData: data)!
    }

    /// Imagery on flat ground (no terrain), straight down and framed at one image pixel per
    /// screen pixel, reproduces the image under the map's haze: each pixel is the image's,
    /// mixed 0.85 × (1 − e^(−d / 6 range)) towards the horizon colour #DCE8F2.
    @Test func straightDownOnFlatGroundReproducesTheImage() throws {
        let (w, h) = (96, 64)
        let lat0 = 36.6, lon0 = -84.25
        let phi = lat0 * Double.pi / 180
        let mLat = 111_132.954 - 559.822 * cos(2 * phi) + 1.175 * cos(4 * phi)
        let mLon = 111_412.84 * cos(phi) - 93.5 * cos(3 * phi)
        // 10 m image pixels.
        let image = Self.image(w, h)
        let imagery = try #require(Imagery(image: image, west: lon0 - Double(w / 2) * 10 / mLon, south: lat0 - Double(h / 2) * 10 / mLat,
                                           east: lon0 + Double(w / 2) * 10 / mLon, north: lat0 + Double(h / 2) * 10 / mLat))
        let fov = 1.0
        let range = 10 * (Double(h) / 2) / tan(fov * Double.pi / 360)
        let map = Map(initialCamera: Camera(center: LatLngAltitude(latitude: lat0, longitude: lon0), range: range, fieldOfView: .degrees(fov)), mode: .satellite)
            .imagery(imagery)
        let pixmap = try ViewRenderer.render(map.frame(width: Double(w), height: Double(h)), scale: 1)
        let haze = 0.85 * (1 - exp(-1.0 / 6))
        let horizon = (0xDC, 0xE8, 0xF2)
        var worst = 0.0
        for y in 0..<h {
            for x in 0..<w {
                let got = pixmap[x, y], want = image[x, y]
                for (g, e, hz) in [(got.red, want.red, horizon.0), (got.green, want.green, horizon.1), (got.blue, want.blue, horizon.2)] {
                    worst = max(worst, abs(Double(g) - (Double(e) * (1 - haze) + Double(hz) * haze)))
                }
            }
        }
        #expect(worst <= 1.5, "largest difference \(worst) of 255")
    }

    /// Roadmap keeps its light palette: imagery is not drawn.
    @Test func roadmapIgnoresImagery() throws {
        let imagery = try #require(Imagery(image: Self.image(8, 8), west: -1, south: -1, east: 1, north: 1))
        let camera = Camera(center: LatLngAltitude(latitude: 0, longitude: 0), range: 2000)
        let plain = try ViewRenderer.render(Map(initialCamera: camera, mode: .roadmap).frame(width: 40, height: 30), scale: 1)
        let withImagery = try ViewRenderer.render(Map(initialCamera: camera, mode: .roadmap).imagery(imagery).frame(width: 40, height: 30), scale: 1)
        let satellite = try ViewRenderer.render(Map(initialCamera: camera, mode: .satellite).imagery(imagery).frame(width: 40, height: 30), scale: 1)
        #expect(plain == withImagery)
        #expect(plain != satellite)
    }
}
