// JPEG and WebP output: chosen by extension or --format, never a silent PNG.
import Foundation
import Testing
import Terrapin

@Suite struct OutputFormatTests {
    func bytes(_ path: String) -> [UInt8] { (try? FileIO.read(path, limit: 1 << 26)) ?? [] }

    @Test func theExtensionChoosesTheFormat() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scene = CLI.examples + "/blue-pin-white-border.json"
        for (name, format) in [("a.jpg", RasterFormat.jpeg), ("b.jpeg", .jpeg), ("c.webp", .webp), ("d.png", .png)] {
            let r = try CLI.run(["render", scene, "--size", "80x60", "-o", dir + "/" + name])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(RasterFormat.sniff(bytes(dir + "/" + name)) == format, "\(name)")
        }
        // Lossy WebP at a quality is smaller than lossless; JPEG quality changes the size.
        _ = try CLI.run(["render", scene, "--size", "80x60", "--quality", "40", "-o", dir + "/lossy.webp"])
        #expect(bytes(dir + "/lossy.webp").count < bytes(dir + "/c.webp").count)
        _ = try CLI.run(["render", scene, "--size", "80x60", "--quality", "20", "-o", dir + "/low.jpg"])
        #expect(bytes(dir + "/low.jpg").count < bytes(dir + "/a.jpg").count)
        // Standard output with --format.
        let out = try CLI.run(["render", scene, "--size", "80x60", "--format", "webp", "-o", "-"])
        #expect(out.status == 0 && RasterFormat.sniff(out.stdout) == .webp)
    }

    @Test func anExtensionThatDisagreesIsAnErrorAndWritesNothing() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scene = CLI.examples + "/blue-pin-white-border.json"
        let gif = try CLI.run(["render", scene, "-o", dir + "/a.gif"])
        #expect(gif.status == 2 && gif.stderr.contains("Terrapin writes .png, .jpg (.jpeg) and .webp"), "\(gif.stderr)")
        let clash = try CLI.run(["render", scene, "--format", "jpeg", "-o", dir + "/a.png"])
        #expect(clash.status == 2 && clash.stderr.contains("names png but --format is jpeg"), "\(clash.stderr)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: dir))?.isEmpty ?? true)
    }

    @Test func batchTemplatesTakeExt() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scene = CLI.examples + "/blue-pin-white-border.json"
        let r = try CLI.run(["batch", scene, "--sizes", "60x40", "--format", "webp", "--output", dir + "/{name}.{ext}", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(RasterFormat.sniff(bytes(dir + "/blue-pin-white-border.webp")) == .webp)
        let bad = try CLI.run(["batch", scene, "--format", "jpeg", "--output", dir + "/{name}.png", "--quiet"])
        #expect(bad.status == 2 && bad.stderr.contains("names png but --format is jpeg"), "\(bad.stderr)")
    }

    @Test func framesWriteAnimatedWebP() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLI.run(["frames", CLI.examples + "/flight.json", "--fps", "4", "--duration", "1", "--size", "64x40", "--webp", dir + "/f.webp"])
        #expect(r.status == 0, "\(r.stderr)")
        let file = bytes(dir + "/f.webp")
        #expect(RasterFormat.sniff(file) == .webp && file.count > 30)
        // An animation (VP8X with the animation flag, and ANIM) — which the decoder refuses.
        #expect(Array(file[12..<16]) == Array("VP8X".utf8) && file[20] & 0x02 != 0)
        #expect(throws: CodecError.self) { try RasterImage.decode(file) }
    }
}
