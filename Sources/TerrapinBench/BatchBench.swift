// Batch benchmark: 500 generated scenes (terrain + 50 markers each) rendered to 256×192
// thumbnails with one thread and with two; thumbnails per second, speed-up, peak memory.
#if canImport(Glibc)
import Glibc
#endif
import Terrapin
import TerrapinBatch

func batchBenchmark(repository: String) throws -> String {
    let dir = "/tmp/terrapin-bench-batch-\(getpid())"
    try FileIO.makeDirectory(dir + "/scenes")
    defer { _ = system("rm -rf '\(dir)'") }
    var state: UInt32 = 5
    func next() -> Double { state = 1664525 &* state &+ 1013904223; return Double(state >> 8) / Double(1 << 24) }
    let grid = repository + "/Fixtures/terrain/jacksboro-fault-tn.asc"
    for s in 0..<500 {
        var markers: [String] = []
        for m in 0..<50 {
            let lat = 36.50 + next() * 0.18, lng = -84.36 + next() * 0.22
            let position = "{\"latitude\": \(lat), \"longitude\": \(lng)}"
            switch m % 3 {
            case 0: markers.append("{\"position\": \(position), \"collisionBehavior\": \"optionalAndHidesLowerPriority\", \"content\": {\"text\": \"Place \(m)\", \"modifiers\": [{\"font\": \"caption\"}, {\"padding\": 4}, {\"background\": \"white\"}, {\"clipShape\": \"capsule\"}]}}")
            case 1: markers.append("{\"position\": \(position), \"content\": {\"pin\": {\"background\": \"blue\", \"glyph\": {\"image\": {\"systemName\": \"tree.fill\"}, \"modifiers\": [{\"resizable\": true}, {\"scaledToFit\": true}, {\"padding\": 3}, {\"foregroundStyle\": \"white\"}]}}}}")
            default: markers.append("{\"type\": \"marker3D\", \"position\": \(position), \"collisionBehavior\": \"optionalAndHidesLowerPriority\", \"label\": \"P\(m)\"}")
            }
        }
        let scene = """
            {"output": {"width": 256, "height": 192},
             "map": {"mode": "satellite", "camera": {"center": {"latitude": 36.59, "longitude": -84.25, "altitude": 500}, "heading": \(s % 360), "tilt": 55, "range": 26000},
                     "terrain": {"file": "\(grid)"}, "markers": [\(markers.joined(separator: ", "))]}}
            """
        try FileIO.writeAtomically(Array(scene.utf8), to: "\(dir)/scenes/scene-\(s).json")
    }
    let inputs = try Batch.inputs([dir + "/scenes"])
    var lines = ["Batch: 500 scenes (terrain 403x344 + 50 markers), 256x192 thumbnails"]
    var rates: [Int: Double] = [:]
    for jobs in [1, 2] {
        var options = BatchOptions()
        options.template = dir + "/out-\(jobs)/{name}.png"
        options.jobs = jobs
        options.force = true
        let summary = Batch.run(inputs, options: options)
        precondition(summary.failures.isEmpty, "\(summary.failures)")
        rates[jobs] = Double(summary.rendered) / summary.seconds
        lines.append("  -j\(jobs): \(format(summary.seconds, 2)) s, \(format(rates[jobs]!, 1)) thumbnails/s")
    }
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    lines.append("  speed-up -j1 → -j2: \(format(rates[2]! / rates[1]!, 2))x; peak RSS of the bench process \(usage.ru_maxrss / 1024) MiB")
    return lines.joined(separator: "\n")
}
