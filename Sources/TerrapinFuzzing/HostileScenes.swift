// Scenes made to exhaust a renderer that serves untrusted input: each case one kind of work a
// small file can ask for (nested layers, a large image shared by many markers, a long unknown
// key, long wrapped labels, large shadows, many popovers, buildings of many vertices, deep view
// trees). `make test` renders them small; `make stress` (TerrapinBench stress) at full size,
// against the promise in docs/limits.md: a scene file up to 1 MiB, rendered at up to 4096², finishes
// within 1 GiB and 20 s on one core, or is refused with a typed error first.
import Foundation
import Terrapin

public struct HostileScene: Sendable {
    public let name: String
    /// What the case asks for, in a few words.
    public let summary: String
    public let scene: [UInt8]
    /// Makes the files beside the scene (name → bytes); made on demand, since some are large.
    public let makeFiles: @Sendable () -> [(name: String, bytes: [UInt8])]

    init(name: String, summary: String, scene: [UInt8], files: @escaping @Sendable () -> [(name: String, bytes: [UInt8])] = { [] }) {
        self.name = name
        self.summary = summary
        self.scene = scene
        makeFiles = files
    }
}

public enum HostileScenes {
    /// The promise's largest scene file.
    public static let promisedSceneBytes = 1024 * 1024

    /// The cases' names, in order.
    public static let names = ["nested-layers", "shared-large-image", "many-large-images", "long-key", "long-wrapped-labels", "large-shadows", "popovers", "buildings", "deep-views",
                                "screen-polygons", "screen-polylines", "screen-roofs"] + HostileScenes.inputNames

    /// Every case, at full size (`full`) or small enough for `make test`.
    public static func all(full: Bool) -> [HostileScene] { names.compactMap { named($0, full: full) } }

    /// One case by name.
    public static func named(_ name: String, full: Bool) -> HostileScene? {
        switch name {
        case "nested-layers": nestedLayers(full)
        case "shared-large-image": sharedLargeImage(full)
        case "many-large-images": manyLargeImages(full)
        case "long-key": longUnknownKey(full)
        case "long-wrapped-labels": longWrappedLabels(full)
        case "large-shadows": largeShadows(full)
        case "popovers": manyPopovers(full)
        case "buildings": heavyBuildings(full)
        case "deep-views": deepViews(full)
        case "screen-polygons", "screen-polylines", "screen-roofs":
            HostileScene(name: name, summary: "\(full ? 4_000 : 3) \(name.dropFirst(7)) each covering most of the view, \(full ? 4096 : 64)²",
                         scene: covering(String(name.dropFirst(7)), count: full ? 4_000 : 3, side: full ? 4096 : 64))
        default: input(name, full)
        }
    }

    static func scene(width: Int, height: Int, scale: Int = 1, map: String) -> [UInt8] {
        Array(#"{"output": {"width": \#(width), "height": \#(height), "scale": \#(scale)}, "map": {"camera": {"center": {"latitude": 37.79, "longitude": -122.39}, "tilt": 45, "range": 3000}, \#(map)}}"#.utf8)
    }

    static func position(_ i: Int, _ n: Int) -> String {
        let side = max(1, Int(Double(n).squareRoot().rounded(.up)))
        let lat = 37.785 + 0.01 * Double(i / side) / Double(side), lng = -122.395 + 0.01 * Double(i % side) / Double(side)
        return #"{"latitude": \#(lat), "longitude": \#(lng)}"#
    }

    /// Markers whose content nests 60 opacity layers over a 20000-point frame.
    static func nestedLayers(_ full: Bool) -> HostileScene {
        let n = full ? 600 : 4
        let modifiers = #"{"frame": {"width": 20000, "height": 20000}}"# + String(repeating: #", {"opacity": 0.99}"#, count: 60)
        let markers = (0..<n).map { #"{"position": \#(position($0, n)), "content": {"color": "red", "modifiers": [\#(modifiers)]}}"# }
        return HostileScene(name: "nested-layers", summary: "\(n) markers, each 60 nested opacities over a 20000-pt frame",
                            scene: scene(width: full ? 4096 : 64, height: full ? 4096 : 48, map: #""markers": [\#(markers.joined(separator: ","))]"#))
    }

    /// One PNG of zeros (small compressed, large decoded) shown by many markers.
    static func sharedLargeImage(_ full: Bool) -> HostileScene {
        let side = full ? 8192 : 512, n = full ? 5_000 : 20
        let markers = (0..<n).map { #"{"position": \#(position($0, n)), "content": {"image": {"file": "zeros.png"}, "modifiers": [{"resizable": true}, {"frame": {"width": 24, "height": 24}}]}}"# }
        return HostileScene(name: "shared-large-image", summary: "\(n) markers on one \(side)² PNG of zeros",
                            scene: scene(width: full ? 4096 : 64, height: full ? 4096 : 48, map: #""markers": [\#(markers.joined(separator: ","))]"#),
                            files: { [("zeros.png", zeros(side))] })
    }

    /// Distinct large PNGs, each small compressed: together far more than one render may hold.
    static func manyLargeImages(_ full: Bool) -> HostileScene {
        let side = full ? 8192 : 512, n = full ? 12 : 3
        let markers = (0..<n).map { #"{"position": \#(position($0, n)), "content": {"image": {"file": "zeros-\#($0).png"}, "modifiers": [{"resizable": true}, {"frame": {"width": 24, "height": 24}}]}}"# }
        return HostileScene(name: "many-large-images", summary: "\(n) distinct \(side)² PNGs (\(n * side * side * 4 / (1024 * 1024)) MiB decoded)",
                            scene: scene(width: full ? 4096 : 64, height: full ? 4096 : 48, map: #""markers": [\#(markers.joined(separator: ","))]"#),
                            files: { let png = zeros(side); return (0..<n).map { ("zeros-\($0).png", png) } })
    }

    /// One unknown key as long as the file allows.
    static func longUnknownKey(_ full: Bool) -> HostileScene {
        let key = String(repeating: "w", count: full ? promisedSceneBytes - 200 : 10_000) + "idth"
        return HostileScene(name: "long-key", summary: "one unknown key of \(key.count) characters",
                            scene: Array(#"{"output": {"\#(key)": 1, "width": 64, "height": 48}}"#.utf8))
    }

    /// Labels of 10,000 characters wrapped at 60 points.
    static func longWrappedLabels(_ full: Bool) -> HostileScene {
        let n = full ? 100 : 3
        let text = String((0..<2_000).map { "word\($0 % 10) " }.joined().prefix(full ? 10_000 : 2_000))
        let markers = (0..<n).map { #"{"position": \#(position($0, n)), "content": {"text": "\#(text)", "modifiers": [{"frame": {"maxWidth": 60}}]}}"# }
        return HostileScene(name: "long-wrapped-labels", summary: "\(n) labels of \(text.count) characters wrapped at 60 pt",
                            scene: scene(width: full ? 4096 : 64, height: full ? 4096 : 48, map: #""markers": [\#(markers.joined(separator: ","))]"#))
    }

    /// Markers with the largest shadow a scene may ask for, at scale 4.
    static func largeShadows(_ full: Bool) -> HostileScene {
        let n = full ? 5_000 : 5
        let markers = (0..<n).map { #"{"position": \#(position($0, n)), "content": {"color": "red", "modifiers": [{"frame": {"width": 100, "height": 100}}, {"shadow": {"radius": 500}}]}}"# }
        return HostileScene(name: "large-shadows", summary: "\(n) markers with shadow radius 500 at scale 4",
                            scene: scene(width: full ? 1024 : 32, height: full ? 1024 : 24, scale: 4, map: #""markers": [\#(markers.joined(separator: ","))]"#))
    }

    /// Open standalone popovers, as many as fit in the promised file size.
    static func manyPopovers(_ full: Bool) -> HostileScene {
        let n = full ? 7_000 : 20
        let markers = (0..<n).map { #"{"type": "popover", "position": \#(position($0, n)), "isOpen": true, "content": {"text": "P\#($0)"}}"# }
        return HostileScene(name: "popovers", summary: "\(n) open popovers",
                            scene: scene(width: full ? 4096 : 64, height: full ? 4096 : 48, map: #""markers": [\#(markers.joined(separator: ","))]"#))
    }

    /// Buildings of 1,000 vertices each, as many as fit.
    static func heavyBuildings(_ full: Bool) -> HostileScene {
        let n = full ? 20 : 2, vertices = full ? 1_000 : 100
        let buildings = (0..<n).map { b -> String in
            let cLat = 37.785 + 0.01 * Double(b % 5) / 5, cLng = -122.395 + 0.01 * Double(b / 5) / 5
            let ring = (0..<vertices).map { v -> String in
                let a = Double(v) / Double(vertices) * 2 * Double.pi
                return #"{"latitude": \#(String(format4(cLat + 0.0008 * sin(a)))), "longitude": \#(String(format4(cLng + 0.001 * cos(a))))}"#
            }
            return #"{"footprint": [\#(ring.joined(separator: ","))], "roof": 150}"#
        }
        return HostileScene(name: "buildings", summary: "\(n) buildings of \(vertices) vertices",
                            scene: scene(width: full ? 4096 : 64, height: full ? 4096 : 48, map: #""buildings": [\#(buildings.joined(separator: ","))]"#))
    }

    /// View trees at the nesting limit (16 levels of stacks), each level with modifiers, as many as fit.
    static func deepViews(_ full: Bool) -> HostileScene {
        var view = #"{"text": "deep", "modifiers": [{"padding": 1}, {"background": {"color": "white"}}]}"#
        for level in 0..<15 {
            let kind = ["vstack", "hstack", "zstack"][level % 3]
            let next = #"{"\#(kind)": {"children": [\#(view), \#(view)]}, "modifiers": [{"padding": 1}, {"opacity": 0.9}]}"#
            if next.utf8.count > (full ? 1_000_000 : 20_000) { break }
            view = next
        }
        return HostileScene(name: "deep-views", summary: "one view tree \(view.utf8.count / 1024) KiB deep and wide",
                            scene: scene(width: full ? 4096 : 64, height: full ? 4096 : 48, map: #""markers": [{"position": \#(position(0, 1)), "content": \#(view)}]"#))
    }

    /// `count` polygons (translucent, with 1000-pt outlines), polylines (1000 pt wide with a
    /// full casing) or buildings ("roofs"), each a triangle about 1.3 km across seen from 3 km,
    /// covering most of a side² view: small to write, a full-screen fill each to draw.
    public static func covering(_ kind: String, count: Int, side: Int) -> [UInt8] {
        let c = 37.80
        let items = (0..<count).map { i -> String in
            let d = 0.006 + Double(i) * 1e-6
            func p(_ lat: Double, _ lng: Double) -> String { #"{"latitude": \#(format4(lat)), "longitude": \#(format4(lng))}"# }
            let triangle = "[\(p(c - d, -122.39 - 2 * d)), \(p(c - d, -122.39 + 2 * d)), \(p(c + d, -122.39))]"
            switch kind {
            case "roofs": return #"{"footprint": \#(triangle), "roof": \#(100 + i % 50)}"#
            case "polygons": return ##"{"path": \##(triangle), "style": {"fillColor": "#FF000010", "strokeWidth": 1000}}"##
            default: return #"{"path": [\#(p(c - d, -122.39 - 2 * d)), \#(p(c + d, -122.39 + 2 * d))], "stroke": {"width": 1000, "outerWidth": 1}}"#
            }
        }
        let key = kind == "roofs" ? "buildings" : kind
        return Array(#"{"output": {"width": \#(side), "height": \#(side)}, "map": {"camera": {"center": {"latitude": 37.80, "longitude": -122.39}, "tilt": 45, "range": 3000}, "\#(key)": [\#(items.joined(separator: ","))]}}"#.utf8)
    }

    /// A side² PNG of transparent pixels (small compressed, side² × 4 bytes decoded).
    static func zeros(_ side: Int) -> [UInt8] {
        (try? PNGEncoder.encode(Pixmap(width: side, height: side)!, options: PNGEncodingOptions(compression: .small))) ?? []
    }

    static func format4(_ v: Double) -> String { String((v * 1e6).rounded() / 1e6) }
}
