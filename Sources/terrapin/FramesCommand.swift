// terrapin frames: a scene at successive times, as numbered images or one animated PNG.
import Terrapin

extension CommandLineTool {
    static let framesHelp = """
        terrapin frames: render a scene at successive times — numbered PNGs, or one animated PNG.

        Usage:
          terrapin frames SCENE.json --fps N --duration S -o DIR [options]
          terrapin frames SCENE.json --fps N --duration S --apng OUT.png [options]
          terrapin frames SCENE.json --fps N --duration S --webp OUT.webp [options]

        Frames are drawn at t = T0 + i / fps for i = 0 … round(S × fps) − 1, where T0 is the scene's
        "time" (or --time). Taps (--tap) happen before the first frame.
        Options:
          --fps N               frames per second, 1 to 120
          --duration S          seconds to cover (at most \(Int(SceneFile.maxTime)); at most \(APNG.maxFrames) frames)
          -o, --output DIR      write DIR/frame_00000.png, frame_00001.png, … (created if missing)
          --apng OUT.png        write one animated PNG that loops forever ('-' for standard output)
          --webp OUT.webp       write one animated WebP that loops forever (lossless; --quality N: lossy)
          and render's --size, --scale, --compression, --tap, --heading, --tilt, --range, --time, --root

        Examples:
          terrapin frames Examples/flight.json --fps 30 --duration 4 -o out/frames/
          terrapin frames Examples/flight.json --fps 10 --duration 4 --size 320x200 --apng out/flight.png
        """

    /// `dir/name`, with one slash whether or not `dir` ends in one.
    static func join(_ directory: String, _ name: String) -> String { directory.hasSuffix("/") ? directory + name : directory + "/" + name }

    /// Largest animated PNG held in memory before it is written.
    static let maxAnimationBytes = 512 * 1024 * 1024

    static func frames(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, command: "frames")
        var directory: String?, apngPath: String?, webpPath: String?
        var fps: Int?, duration: Double?
        var options = SceneOptions()
        guard let positional = try parser.parse(help: framesHelp, { argument, parser in
            if try options.parse(argument, &parser) { return true }
            switch argument {
            case "-o", "--output": directory = try parser.value(for: argument)
            case "--apng": apngPath = try parser.value(for: argument)
            case "--webp": webpPath = try parser.value(for: argument)
            case "--fps": fps = try parser.integer(for: argument, in: 1...120)
            case "--duration": duration = try parser.number(for: argument, in: 0.001...SceneFile.maxTime)
            default: return false
            }
            return true
        }) else { return }
        let scenePath = try parser.single(positional)
        guard let fps, let duration else { throw CLIError.usage("give --fps N and --duration S", command: "frames") }
        guard [directory, apngPath, webpPath].compactMap({ $0 }).count == 1 else {
            throw CLIError.usage("give one of -o DIR, --apng OUT.png and --webp OUT.webp", command: "frames")
        }
        let count = max(1, Int((duration * Double(fps)).rounded()))
        guard count <= APNG.maxFrames else {
            throw CLIError.input("\(count) frames (\(fps) fps for \(duration) s) is more than the limit of \(APNG.maxFrames); lower --fps or --duration")
        }
        let scene = try options.load(scenePath)
        let prepared = try options.prepare(scene)
        let metadata = apngPath == nil ? [(key: "Software", value: "Terrapin \(TerrapinInfo.version)")] : []
        if let directory { do { try FileIO.makeDirectory(directory) } catch { throw CLIError.runtime(error.description) } }
        var total = 0
        if let webpPath {
            // Animated WebP: the frames' pixels are held (within the same budget), then encoded.
            var frames: [(image: Pixmap, milliseconds: Int)] = []
            for i in 0..<count {
                let t = scene.time + Double(i) / Double(fps)
                let image: Pixmap
                do { image = try prepared.render(at: t) } catch { throw CLIError.input(error.description) }
                total += image.data.count
                guard total <= maxAnimationBytes else {
                    throw CLIError.input("the animation's frames would pass \(maxAnimationBytes >> 20) MiB; lower --size, --fps or --duration, or write frames with -o DIR")
                }
                // Whole milliseconds that add up to the right total (e.g. 33, 33, 34 at 30 fps).
                let ms = (i + 1) * 1000 / fps - i * 1000 / fps
                frames.append((image, ms))
            }
            let file: [UInt8]
            do { file = try WebPEncoder.encodeAnimation(frames, quality: options.overrides.quality) } catch { throw CLIError.runtime(error.description) }
            try writeOutput(file, to: webpPath)
            return
        }
        if let apngPath {
            // Only what changed between frames is stored (APNGWriter); the file is held to the budget.
            let background = scene.output.background
            let writer = APNGWriter(width: scene.output.pixelWidth, height: scene.output.pixelHeight, alpha: background.alpha < 255,
                                    delayNumerator: 1, delayDenominator: UInt16(fps),
                                    options: PNGEncodingOptions(compression: SceneImage.pngCompression(scene.output.compression)))
            for i in 0..<count {
                let t = scene.time + Double(i) / Double(fps)
                let image: Pixmap
                do { image = try prepared.render(at: t) } catch { throw CLIError.input(error.description) }
                do { try writer.add(image) } catch { throw CLIError.runtime(error.description) }
                guard writer.byteCount <= maxAnimationBytes else {
                    throw CLIError.input("the animated PNG would pass \(maxAnimationBytes >> 20) MiB; lower --size, --fps or --duration, or write frames with -o DIR")
                }
            }
            let file: [UInt8]
            do { file = try writer.finish() } catch { throw CLIError.runtime(error.description) }
            try writeOutput(file, to: apngPath)
            return
        }
        for i in 0..<count {
            let t = scene.time + Double(i) / Double(fps)
            let bytes: [UInt8]
            do {
                bytes = try SceneImage.encode(try prepared.render(at: t), format: scene.output.format, metadata: metadata).bytes
            } catch {
                if case .encoding = error { throw CLIError.runtime(error.description) }
                throw CLIError.input(error.description)
            }
            if let directory {
                let name = String(i).count >= 5 ? String(i) : String(repeating: "0", count: 5 - String(i).count) + String(i)
                try writeOutput(bytes, to: join(directory, "frame_\(name).\(scene.output.format.fileExtension)"))
            }
        }
        if let directory {
            let last = String(repeating: "0", count: max(0, 5 - String(count - 1).count)) + String(count - 1)
            printOut(count == 1 ? join(directory, "frame_00000.png") + " (1 frame)"
                                : join(directory, "frame_00000.png") + " … frame_\(last).png (\(count) frames)")
        }
    }
}
