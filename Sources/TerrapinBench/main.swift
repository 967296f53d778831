// make bench: prints figures, asserts nothing. Run in release.
import Terrapin
import TerrapinFuzzing
#if canImport(Glibc)
import Glibc
#endif

func pngEncodeBenchmarks(_ frame: Pixmap, name: String = "1024x768 opaque frame (3 MiB of RGBA)") throws {
    print("PNG encode, \(name), banded on \(Cores.available) cores and libpng alone:")
    let widths = [18, 9, 9, 9, 11, 10]
    print(row(["preset", "median", "min", "max", "bytes", "MB/s"], widths: widths))
    for preset in PNGCompression.allCases {
        for banded in [true, false] {
            var size = 0
            let label = preset.rawValue + (banded ? "" : " (libpng)")
            let timing = try measure(label) {
                size = try PNGEncoder.encode(frame, options: PNGEncodingOptions(compression: preset, banded: banded)).count
            }
            let throughput = Double(frame.data.count) / 1_000_000 / (timing.median / 1000)
            print(row([label, format(timing.median), format(timing.min), format(timing.max), String(size), format(throughput, 1)], widths: widths))
            record(section: "PNG encode, \(name)", name: label, timing, note: "\(size) bytes, \(format(throughput, 1)) MB/s")
        }
    }
}

/// A 1024×768 opaque image with smooth gradients and fine noise: the PNG benchmarks' fixed
/// input (kept, so their figures compare across stops).
func sampleFrame() -> Pixmap {
    var pixmap = Pixmap(width: 1024, height: 768)!
    var state: UInt32 = 42
    for y in 0..<768 {
        for x in 0..<1024 {
            state = 1664525 &* state &+ 1013904223
            let noise = Int(state >> 29)
            let r = UInt8((x * 255 / 1023 + noise) & 0xFF), g = UInt8((y * 255 / 767) & 0xFF), b = UInt8(((x + y) / 8 + noise) & 0xFF)
            pixmap[x, y] = PremultipliedRGBA8(red: r, green: g, blue: b, alpha: 255)
        }
    }
    return pixmap
}

let only = CommandLine.arguments.dropFirst().first
#if DEBUG
let buildKind = "debug"
#else
let buildKind = "release"
#endif

/// Everything printed, for out/bench/results.json.
nonisolated(unsafe) var recorded: [String] = []

func record(section: String, name: String, _ t: Timing, note: String) {
    recorded.append("{\"section\": \(JSONText.quoted(section)), \"case\": \(JSONText.quoted(name)), \"median_ms\": \(t.median), \"min_ms\": \(t.min), \"max_ms\": \(t.max), \"note\": \(JSONText.quoted(note))}")
}

func recordText(section: String, _ text: String) {
    recorded.append("{\"section\": \(JSONText.quoted(section)), \"text\": \(JSONText.quoted(text))}")
}

func writeResults() throws {
    try FileIO.makeDirectory("out/bench")
    let json = "{\"version\": \(JSONText.quoted(TerrapinInfo.version)), \"build\": \(JSONText.quoted(buildKind)), \"results\": [\n  " + recorded.joined(separator: ",\n  ") + "\n]}\n"
    try FileIO.writeAtomically(Array(json.utf8), to: "out/bench/results.json")
    print("wrote out/bench/results.json")
}

func printTable(_ title: String, _ rows: [(String, Timing, String)]) {
    for (name, timing, note) in rows { record(section: title, name: name, timing, note: note) }
    print(title)
    let widths = [34, 9, 9, 9, 14]
    print(row(["case", "median", "min", "max", "note"], widths: widths))
    for (name, timing, note) in rows {
        print(row([name, format(timing.median), format(timing.min), format(timing.max), note], widths: widths))
    }
    print("")
}

print("Terrapin \(TerrapinInfo.version) benchmarks (\(buildKind); median of 7 runs after a warm-up, ms)\n")
let repository = FileIO.canonicalPath(".") ?? "."
let productTitle = "Product: terrapin render of a JSON scene (Tennessee grid, 1024x768, tilt 60, 1,000 capsule labels, collision):"
let tapsTitle = "Taps on the product scene's 1,000-marker map:"
let shapesTitle = "Polylines and polygons:"

/// The parts of the suite that run alone (`TerrapinBench NAME`); `peak`: the part reports its
/// peak memory when asked (`reportPeakMemoryIfAsked`).
let parts: [(name: String, peak: Bool, run: () throws -> Void)] = [
    ("spec", true, { print(try specBenchmarks(outputDirectory: "out/bench")) }),
    ("spec-product", false, {
        // S2 through the product path alone (for profiling).
        let markers = try specMarkerList(count: 10_000, x0: 16, xr: 992, y0: 80, yr: 680)
        let p = try specProductPath("S2", markers, terrain: SpecGrid().terrainImage(), outputDirectory: "out/bench", paintRuns: 30)
        print("S2 product path: resolve \(format(p.resolve.median)) ms, paint \(format(p.paint.median)) ms (first \(format(p.firstPaint))), \(p.masks) masks, \(p.hits) reuses")
    }),
    ("spec-layout", false, {
        // S2's 10,000 Marker views laid out 20 times (for profiling the layout stage).
        let map = specMap(try specMarkerList(count: 10_000, x0: 16, xr: 992, y0: 80, yr: 680), width: 1024, height: 768)
        let t = try measure("layout", runs: 20) { _ = try MapResolver.prepare(map) }
        print("S2 layout: median \(format(t.median)) ms (min \(format(t.min)))")
    }),
    ("spec-thumbnails", false, {
        // S3 through the product path alone (for profiling): 64 thumbnails, six rounds.
        let markers = try specMarkerList(count: 64 * 50, x0: 8, xr: 240, y0: 76, yr: 112)
        let s3 = try specProductThumbnails(markers, grid: SpecGrid(), outputDirectory: "out/bench")
        print("S3 product path: median \(format(s3.total.median)) ms, \(s3.bytes) B of PNG")
    }),
    ("product", true, { printTable(productTitle, try productSceneBenchmark(repository: repository)) }),
    ("shapes", false, { printTable(shapesTitle, try shapeBenchmarks(repository: repository)) }),
    ("taps", false, { printTable(tapsTitle, try tapBenchmarks(repository: repository)) }),
    ("batch", true, { print(try batchBenchmark(repository: repository)) }),
    ("stress", false, {
        try FileIO.makeDirectory("out/bench")
        print(stressBenchmark())
    }),
    ("basemap", true, { printTable("Vector basemap (roadmap, Andorra, release):", try basemapBenchmarks(repository: repository)) }),
    ("basemap-batch", true, { print(try basemapBatchBenchmark(repository: repository)) }),
    ("tile-batch", true, { print(try tileBatchBenchmark(repository: repository)) }),
    ("tiles", true, {
        printTable("Tile archives (1024x768, tilt 60):", try tileBenchmarks(repository: repository))
        let s1 = try? PNGDecoder.decode(FileIO.read("out/bench/S1.png", limit: 1 << 26))
        printTable("Encoding \(s1 == nil ? "the sample frame" : "S1") (1024x768):", try encodeBenchmarks(s1 ?? sampleFrame(), label: s1 == nil ? "sample frame" : "S1"))
    }),
    ("diff", true, { printTable("Snapshot diff (\(buildKind)):", diffBenchmarks()) }),
    ("map", true, { printTable("Map:", try mapBenchmarks()) }),
    ("text", true, { printTable("Text:", try textBenchmarks()) }),
    ("terrain", true, { printTable("Terrain:", terrainBenchmarks()) }),
    ("models", true, { printTable("3D models:", modelBenchmarks()) }),
    ("memory", false, { print(peakMemoryBenchmarks()) }),
    ("png", true, {
        try pngEncodeBenchmarks(sampleFrame())
        // The S1 map as `make bench` drew it, when it has run.
        if let s1 = try? PNGDecoder.decode(file: "out/bench/S1.png") { try pngEncodeBenchmarks(s1, name: "S1 map (out/bench/S1.png)") }
    }),
]
if only == "stress-case", CommandLine.arguments.count == 4, let index = Int(CommandLine.arguments[2]) {
    stressCase(index, report: CommandLine.arguments[3])
    exit(0)
}
// `TerrapinBench stress-files NAME DIR [small]`: a hostile case's scene.json and files, to render
// by hand; `stress-files list`: the cases' names.
if only == "stress-files", CommandLine.arguments.count == 3, CommandLine.arguments[2] == "list" {
    print(HostileScenes.names.joined(separator: "\n"))
    exit(0)
}
if only == "stress-files", CommandLine.arguments.count >= 4 {
    guard let c = HostileScenes.named(CommandLine.arguments[2], full: CommandLine.arguments.count < 5) else {
        print("no hostile case '\(CommandLine.arguments[2])'; the cases: \(HostileScenes.names.joined(separator: ", "))")
        exit(2)
    }
    let dir = CommandLine.arguments[3]
    try FileIO.makeDirectory(dir)
    try FileIO.writeAtomically(c.scene, to: dir + "/scene.json")
    for f in c.makeFiles() { try FileIO.writeAtomically(f.bytes, to: dir + "/" + f.name) }
    print("\(c.name): \(c.summary) → \(dir)/scene.json")
    exit(0)
}
if let only, let part = parts.first(where: { $0.name == only }) {
    try part.run()
    if part.peak { reportPeakMemoryIfAsked() }
    exit(0)
}
let spec = try specBenchmarks(outputDirectory: "out/bench")
print(spec)
recordText(section: "Reference scenes S1, S2, S3", spec)
print("")
printTable("Snapshot diff:", diffBenchmarks())
let frame = sampleFrame()
printTable("Rasterizer:", rasterBenchmarks())
printTable("Text:", try textBenchmarks())
printTable("Map:", try mapBenchmarks())
printTable("Terrain:", terrainBenchmarks())
printTable("3D models:", modelBenchmarks())
printTable(productTitle, try productSceneBenchmark(repository: repository))
printTable(tapsTitle, try tapBenchmarks(repository: repository))
printTable(shapesTitle, try shapeBenchmarks(repository: repository))
try pngEncodeBenchmarks(frame)
let encoded = try PNGEncoder.encode(frame)
let decode = try measure("decode") { _ = try PNGDecoder.decode(encoded) }
print("\nPNG decode of the default-preset file: median \(format(decode.median)) ms (min \(format(decode.min)), max \(format(decode.max)))")
record(section: "PNG decode", name: "default-preset file", decode, note: "")
print("")
printTable("Vector basemap (roadmap, Andorra):", try basemapBenchmarks(repository: repository))
let basemapBatchText = try basemapBatchBenchmark(repository: repository)
print(basemapBatchText + "\n")
recordText(section: "Basemap batch", basemapBatchText)
let batchText = try batchBenchmark(repository: repository)
print(batchText)
recordText(section: "Batch", batchText)
print("")
let memoryText = peakMemoryBenchmarks()
print(memoryText)
recordText(section: "Peak memory", memoryText)
try writeResults()
