// Product benchmark (a): a JSON scene as `terrapin render` draws it — the Tennessee grid at
// 1024×768, tilt 60, 1,000 custom-view markers with capsule labels, collision on.
#if canImport(Glibc)
import Glibc
#endif
import Terrapin

func productSceneBenchmark(repository: String) throws -> [(String, Timing, String)] {
    let bytes = productSceneJSON(repository: repository)
    var shown = 0, size = 0
    let decode = try measure("decode") { _ = try SceneDecoder.decode(bytes, path: "bench.json") }
    let scene = try SceneDecoder.decode(bytes, path: "bench.json")
    let prepare = try measure("prepare") { _ = try PreparedScene(scene) }
    let prepared = try PreparedScene(scene)
    // (PreparedScene keeps its last resolve, so each run resolves the map afresh.)
    let resolve = try measure("resolve") { shown = try MapResolver.resolve(prepared.map!, width: 1024, height: 768).drawOrder.count }
    var pixmap = try prepared.render()
    let render = try measure("paint") { pixmap = try prepared.render() }
    let encode = try measure("encode") { size = try SceneImage.encode(pixmap, format: scene.output.format).bytes.count }
    // The path `terrapin render` takes: decode, prepare, resolve, paint, encode.
    let total = try measure("total", runs: 5) {
        _ = try SceneImage.render(try SceneDecoder.decode(bytes, path: "bench.json"))
    }
    try FileIO.makeDirectory("out/bench")
    try FileIO.writeAtomically(try SceneImage.encode(pixmap, format: scene.output.format).bytes, to: "out/bench/product-scene.png")
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return [("decode scene JSON (1,000 markers)", decode, "\(bytes.count / 1024) KiB"),
            ("build map (grid cached)", prepare, ""),
            ("resolve (lay out, collide)", resolve, "\(shown) of 1,000 shown"),
            ("paint 1024x768 (resolved)", render, "terrain + markers"),
            ("PNG encode (default)", encode, "\(size / 1024) KiB"),
            ("total, decode to PNG", total, "peak RSS \(usage.ru_maxrss / 1024) MiB")]
}
