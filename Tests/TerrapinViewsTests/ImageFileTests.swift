import Foundation
import Testing
import TerrapinIO
import TerrapinPNG
import TerrapinRaster
@testable import TerrapinViews

@Suite struct ImageFileTests {
    func png(_ width: Int, _ color: PremultipliedRGBA8) throws -> [UInt8] {
        var p = Pixmap(width: width, height: 2)!
        p.fill(color)
        return try PNGEncoder.encode(p)
    }

    /// Files are decoded once and shared, but a changed file is read again.
    @Test func decodedOnceAndReloadedWhenChanged() throws {
        let path = NSTemporaryDirectory() + "terrapin-image-\(UUID().uuidString).png"
        defer { unlink(path) }
        try FileIO.writeAtomically(try png(2, PremultipliedRGBA8(red: 255, green: 0, blue: 0, alpha: 255)), to: path)
        let first = try ViewRenderer.render(Image(contentsOfFile: path))
        #expect(first.width == 2 && first[0, 0] == PremultipliedRGBA8(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(try ImageAssets.pixmap(path) { () throws(PNGError) in throw PNGError.notPNG(source: "cache miss", detail: "") }.data == (try PNGDecoder.decode(file: path)).data, "decoded once, then served from the cache")
        try FileIO.writeAtomically(try png(3, PremultipliedRGBA8(red: 0, green: 0, blue: 255, alpha: 255)), to: path)
        let second = try ViewRenderer.render(Image(contentsOfFile: path))
        #expect(second.width == 3 && second[0, 0] == PremultipliedRGBA8(red: 0, green: 0, blue: 255, alpha: 255))
        #expect(throws: (any Error).self) { try ViewRenderer.render(Image(contentsOfFile: path + ".missing")) }
    }

    /// An image over 16 MiB decoded was decoded again for every marker and every copy kept
    /// (100 markers sharing one 4096² PNG took 6.4 GB): now one decode, one buffer, also for a
    /// template's tint.
    @Test func aLargeImageSharedByManyViewsIsDecodedOnce() throws {
        let path = NSTemporaryDirectory() + "terrapin-large-\(UUID().uuidString).png"
        defer { unlink(path) }
        var p = Pixmap(width: 2400, height: 2000)!   // 19.2 MB decoded
        p.fill(PremultipliedRGBA8(red: 0, green: 0, blue: 0, alpha: 255))
        try FileIO.writeAtomically(try PNGEncoder.encode(p), to: path)
        func buffer(_ image: Image) throws -> UnsafeRawPointer? {
            let node = try #require(try ViewRenderer.layout(image.resizable()).node as? BitmapNode)
            return node.pixmap.data.withUnsafeBytes { $0.baseAddress }
        }
        #expect(try buffer(Image(contentsOfFile: path)) == (try buffer(Image(contentsOfFile: path))))
        let tint = Image(contentsOfFile: path).renderingMode(.template)
        #expect(try buffer(tint) == (try buffer(tint)))
    }
}
