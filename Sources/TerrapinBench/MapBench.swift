// Map benchmarks: resolving 100,000 optional markers (projection, boxes, collision, order).
import Terrapin

func mapBenchmarks() throws -> [(String, Timing, String)] {
    var state: UInt32 = 42
    func next() -> Double { state = 1664525 &* state &+ 1013904223; return Double(state >> 8) / Double(1 << 24) }
    let positions = (0..<100_000).map { _ in LatLngAltitude(latitude: 40.70 + next() * 0.09, longitude: -74.02 + next() * 0.07) }
    // The 100,000 markers in a scope of their own: their layout is let go before the drawing
    // benchmarks below, so the section's peak memory is that of laying them out and resolving.
    let (prepare, resolve, shown) = try { () throws -> (Timing, Timing, Int) in
        let map = Map(initialCamera: Camera(center: LatLngAltitude(latitude: 40.745, longitude: -73.985), heading: 29, tilt: 50, range: 9000), mode: .roadmap) {
            ForEach(0..<positions.count) { k in
                Marker(position: positions[k], collisionBehavior: .optionalAndHidesLowerPriority, collisionPriority: k % 4) {
                    Color.white.frame(width: 60, height: 20)
                }
            }
        }
        var prepared: [PreparedMarker] = []
        // The last layout is let go before the next is made: a render holds one (with both alive
        // the peak was twice a layout's).
        let prepare = try measure("prepare", runs: 3) {
            prepared = []
            prepared = try MapResolver.prepare(map)
        }
        var shown = 0
        let camera = map.initialCamera!
        let resolve = measure("resolve") {
            let scene = MapResolver.resolve(prepared, camera: camera, width: 1024, height: 768, ground: FlatGround())
            shown = scene.drawOrder.count
        }
        return (prepare, resolve, shown)
    }()
    // Marker (custom view) against Marker3D (sprites) for 2,000 default pins, drawn at 1024×768.
    let pins = Array(positions.prefix(2000))
    let camera2 = Camera(center: LatLngAltitude(latitude: 40.745, longitude: -73.985), heading: 29, tilt: 50, range: 9000)
    let views = Map(initialCamera: camera2, mode: .roadmap) { ForEach(0..<pins.count) { k in Marker(position: pins[k]) } }
    let sprites = Map(initialCamera: camera2, mode: .roadmap) { ForEach(0..<pins.count) { k in Marker3D(position: pins[k], sizePreserved: true) } }
    let empty = Map(initialCamera: camera2, mode: .roadmap)
    let ground = try measure("ground", runs: 3) { _ = try ViewRenderer.render(empty.frame(width: 1024, height: 768)) }
    let viewTiming = try measure("views", runs: 3) { _ = try ViewRenderer.render(views.frame(width: 1024, height: 768)) }
    let spriteTiming = try measure("sprites", runs: 3) { _ = try ViewRenderer.render(sprites.frame(width: 1024, height: 768)) }
    let perView = (viewTiming.median - ground.median) / 2000 * 1000, perSprite = (spriteTiming.median - ground.median) / 2000 * 1000
    return [("lay out 100,000 marker views", prepare, ""),
            ("resolve 100,000 markers", resolve, "\(shown) shown"),
            ("map, no markers, 1024x768", ground, "sky and ground"),
            ("2,000 Marker pins (views)", viewTiming, "\(format(perView, 1)) µs/marker"),
            ("2,000 Marker3D pins (sprites)", spriteTiming, "\(format(perSprite, 1)) µs/marker")]
}
