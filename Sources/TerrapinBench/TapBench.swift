// Taps on a 1,000-marker map as `terrapin render --tap … --tap …` runs them: each tap hit-tests
// the map, then the image is drawn. The map is the product benchmark's scene.
import Terrapin

/// The product benchmark's scene: the Tennessee grid at 1024×768, tilt 60, 1,000 capsule-label
/// markers with collision (one line of JSON, 318 KiB).
func productSceneJSON(repository: String) -> [UInt8] {
    var state: UInt32 = 9
    func next() -> Double { state = 1664525 &* state &+ 1013904223; return Double(state >> 8) / Double(1 << 24) }
    let markers = (0..<1000).map { k -> String in
        let lat = 36.47 + next() * 0.24, lng = -84.39 + next() * 0.29
        return "{\"position\": {\"latitude\": \(lat), \"longitude\": \(lng)}, \"collisionBehavior\": \"optionalAndHidesLowerPriority\", "
            + "\"collisionPriority\": \(k % 4), \"content\": {\"text\": \"Place \(k)\", \"modifiers\": [{\"font\": \"caption\"}, "
            + "{\"padding\": {\"horizontal\": 8, \"vertical\": 4}}, {\"background\": \"white\"}, {\"clipShape\": \"capsule\"}]}}"
    }
    let json = """
        {"output": {"width": 1024, "height": 768},
         "map": {"mode": "satellite", "camera": {"center": {"latitude": 36.59, "longitude": -84.25, "altitude": 500}, "heading": 30, "tilt": 60, "range": 22000},
                 "terrain": {"file": "\(repository)/Fixtures/terrain/jacksboro-fault-tn.asc"}, "markers": [\(markers.joined(separator: ", "))]}}
        """
    return Array(json.utf8)
}

func tapBenchmarks(repository: String) throws -> [(String, Timing, String)] {
    let scene = try SceneDecoder.decode(productSceneJSON(repository: repository), path: "bench.json")
    // Ten points spread over the view: some on markers, most on the bare map.
    let points = (0..<10).map { i in Point(x: 60 + Double(i) * 97, y: 120 + Double(i % 5) * 120) }
    var hits = 0
    let one = try measure("one tap") {
        let prepared = try PreparedScene(scene)
        _ = try prepared.tap(at: points[3])
    }
    let ten = try measure("ten taps") {
        let prepared = try PreparedScene(scene)
        hits = 0
        for p in points where try prepared.tap(at: p) != nil { hits += 1 }
    }
    let tenAndRender = try measure("ten taps, then render") {
        let prepared = try PreparedScene(scene)
        for p in points { _ = try prepared.tap(at: p) }
        _ = try prepared.render()
    }
    let render = try measure("render alone") { _ = try PreparedScene(scene).render() }
    return [("one tap (build, hit-test)", one, ""),
            ("ten taps", ten, "\(hits) of 10 hit something"),
            ("ten taps, then render", tenAndRender, ""),
            ("render, no taps", render, "")]
}
