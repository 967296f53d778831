// A vector basemap on a `Map`: the tiles and (optionally) a style. Which style draws depends on
// the mode — `.roadmap` the built-in roadmap, `.hybrid` the built-in hybrid over the map's
// imagery, `.satellite` none — unless the map names its own; the drawn `Basemap` is made once
// per (tiles, style, mode, imagery) and kept in `AssetCache.shared` (`DrawnBasemap`), so every
// scene and batch thread sharing them shares it and the drawn tiles in `TileCache.shared`.
import Foundation
import TerrapinBasemap
import TerrapinGeo
import TerrapinViews
import TerrapinIO
import Terrapin3D
import TerrapinImagery
import TerrapinTerrain
import TerrapinRaster
import TerrapinTiles
import TerrapinTypography

public struct MapBasemap: @unchecked Sendable {
    public let tiles: any TileSource
    /// The map's own style, or nil for the built-in one of its mode.
    public let style: BasemapStyle?
    /// Opens archives the style names (through the scene's file rules).
    let open: @Sendable (String) throws -> any TileSource
    /// How the style's sprite is read.
    let files: FileAccess
    /// Features' states the style's `feature-state` reads.
    public var featureStates = FeatureStates()
    /// Images added to the style's sprite (`addImage`).
    public var images: [AddedImage] = []
    /// Whether the style's @2x sprite sheet is read where there is one (an image of 2 or more
    /// pixels a point, or one whose scale is not known), else its 1x sheet, as MapLibre picks
    /// the sheet by the pixel ratio. Default true.
    public var retinaSprite = true

    public init(tiles: any TileSource, style: BasemapStyle? = nil) {
        self.init(tiles: tiles, style: style, files: .unrestricted, open: { path in try TileSources.open(path) })
    }

    package init(tiles: any TileSource, style: BasemapStyle?, files: FileAccess, open: @escaping @Sendable (String) throws -> any TileSource) {
        (self.tiles, self.style, self.files, self.open) = (tiles, style, files, open)
    }
}

/// A basemap as drawn for a map: the `Basemap` made for its tiles, style, mode and imagery, the
/// drape made with it, and per-view tables of its labels and buildings (the thumbnails of a
/// batch share them). Kept in `AssetCache.shared` (`DrawnBasemap.for`), costed at
/// `DrawnBasemap.cost`, so every scene and batch thread drawing the same basemap shares one,
/// and its drawn tiles in `TileCache.shared`.
package final class DrawnBasemap: @unchecked Sendable {
    package let basemap: Basemap
    /// The basemap's drape (it holds the basemap; the basemap does not hold it).
    let drape: Imagery
    /// What the cache key names by identity, kept alive with it so no identifier is reused.
    let keep: [AnyObject]
    /// Drapes for views, by device pixels a point and the view's zoom (in eighths).
    let scaledDrapes = Locked<[SIMD2<Double>: Imagery]>([:])
    let buildingTable = Locked<[String: [Building]]>([:])
    let labelTable = Locked<[String: [BasemapLabel]]>([:])
    let circleTable = Locked<[String: [BasemapCircle]]>([:])

    /// What one drawn basemap counts against the cache's budget: its style and tables, and what
    /// it keeps open (its tiles are counted where they are drawn, in `TileCache`), so the 1 GiB
    /// cache keeps at most 16 when it holds nothing else.
    static let cost = 64 << 20

    init(basemap: Basemap, drape: Imagery, keep: [AnyObject]) {
        (self.basemap, self.drape, self.keep) = (basemap, drape, keep)
    }

    /// The drawn basemap of `spec` in `mode` over `imagery` (nil in `.satellite` mode), from the
    /// cache or made: a built-in style (the mode's, or one the spec names) is drawn for the
    /// tiles' schema, found once per drawn basemap.
    package static func `for`(_ spec: MapBasemap, mode: MapMode, imagery: Imagery?) throws -> DrawnBasemap? {
        guard mode != .satellite else { return nil }
        let imageryKey = imagery.map { i in i.tiles.map { "tiles \(ObjectIdentifier($0))" } ?? "image \(i.source ?? "memory") \(i.west) \(i.north)" } ?? "none"
        // What the style names is read through the scene's files, so their rules are in the key.
        let key = "\(ObjectIdentifier(spec.tiles)) \(spec.style.map { "style \(spec.files.identity($0.file) ?? $0.file) \($0.layers.count)" } ?? "builtin") \(mode) \(imageryKey) \(spec.files) states \(spec.featureStates.digest) retina \(spec.retinaSprite) images \(spec.images.map { "\($0.name)=\(spec.files.identity($0.file) ?? $0.file)@\($0.pixelRatio)\($0.sdf ? " sdf" : "")" })"
        return try AssetCache.shared.value("drawn basemap", key: key, cost: { (_: DrawnBasemap) in cost }) { () throws -> DrawnBasemap in
            let builtinName = spec.style.map(\.file).flatMap { BasemapStyle.builtinNames.contains($0) ? $0 : nil }
            var style = spec.style.flatMap { builtinName == nil ? $0 : nil }
                ?? BasemapStyle.builtin(builtinName ?? (mode == .roadmap ? "roadmap" : "hybrid"), for: spec.tiles)!
            style.featureStates = spec.featureStates
            style.addedImages = spec.images
            let made = try Basemap(style: style, tiles: spec.tiles, imagery: imagery, files: spec.files, retinaSprite: spec.retinaSprite, open: spec.open)
            var keep: [AnyObject] = [spec.tiles]
            if let t = imagery?.tiles { keep.append(t) }
            return DrawnBasemap(basemap: made, drape: try made.makeDrape(), keep: keep)
        }
    }

    /// The drape for a view at `zoom` (nil: each tile drawn at its own zoom) in an image of
    /// `unit` device pixels a point (`Basemap.makeDrape(unit:zoom:)`), made once per unit (a
    /// sixty-fourth apart, 1/16…16) and eighth of a zoom — as the labels and buildings are
    /// kept — at most 8 kept.
    func drape(unit: Double, zoom: Double?) -> Imagery {
        let u = unit.isFinite ? min(16, max(1.0 / 16, (unit * 64).rounded() / 64)) : 1
        let z = zoom.flatMap { $0.isFinite ? min(24, max(0, ($0 * 8).rounded() / 8)) : nil }
        if u == 1, z == nil { return drape }
        let key = SIMD2(u, z ?? -1)
        if let made = scaledDrapes.withLock({ $0[key] }) { return made }
        guard let made = try? basemap.makeDrape(unit: u, zoom: z) else { return drape }
        return scaledDrapes.withLock { drapes in
            if let first = drapes[key] { return first }
            if drapes.count >= 8 { drapes = [:] }
            drapes[key] = made
            return made
        }
    }

    /// The basemap's extruded buildings around a camera, as `Building`s, their style evaluated
    /// at the camera's zoom for a view `height` points high (kept per area and eighth of a
    /// zoom: the thumbnails of a batch share them).
    func buildings(camera: Camera, height: Double) -> [Building] {
        let zoom = (Map.basemapZoom(camera, height: height) * 8).rounded() / 8
        let area = Map.basemapArea(camera, factor: 1.5)
        return Self.cached(buildingTable, "\(area) \(zoom)") {
            basemap.buildings(area: area, zoom: zoom).prefix(BuiltGround.maxBuildings).compactMap { b -> Building? in
                var building = Building(footprint: b.footprint.map { LatLngAltitude(latitude: $0.latitude, longitude: $0.longitude) }, base: b.base, roof: b.roof, color: b.color)
                var light = basemap.style.light
                light.verticalGradient = b.verticalGradient
                building?.extrusionLight = light
                building?.holes = b.holes.map { $0.map { LatLngAltitude(latitude: $0.latitude, longitude: $0.longitude) } }
                building?.pattern = b.pattern
                building?.opacity = b.opacity
                return building
            }
        }
    }

    /// What `make` gives for `key` in one of the per-view tables (at most 32 keys, then the
    /// table starts afresh); made outside the lock.
    static func cached<T>(_ table: Locked<[String: T]>, _ key: String, _ make: () -> T) -> T {
        if let hit = table.withLock({ $0[key] }) { return hit }
        let made = make()
        table.withLock { table in
            if table.count > 32 { table = [:] }
            table[key] = made
        }
        return made
    }
}

extension Map {
    /// The map with a vector basemap from `tiles` (OpenMapTiles-schema vector tiles unless
    /// `style` says otherwise), drawn in `.roadmap` and `.hybrid` modes.
    public func basemap(_ basemap: MapBasemap) -> Map { with { $0.basemap = basemap } }

    /// The basemap this map draws (none in `.satellite` mode or without basemap tiles).
    public var drawnBasemap: Basemap? { drawn?.basemap }

    /// The basemap as drawn for this map, with its drape and tables.
    var drawn: DrawnBasemap? {
        guard let basemap else { return nil }
        return try? DrawnBasemap.for(basemap, mode: mode, imagery: imagery)
    }

    /// What the ground is textured with: the drawn basemap, else the imagery (not in
    /// `.roadmap`, which keeps its light palette).
    public var groundImagery: Imagery? { groundImagery(unit: 1, zoom: nil) }

    /// The ground's texture for a view at `zoom` (MapLibre's, `basemapZoom`) in an image of
    /// `unit` device pixels a point: the drawn basemap's tiles drawn for that view (see
    /// `Basemap.makeDrape(unit:zoom:)`), else the imagery.
    public func groundImagery(unit: Double, zoom: Double?) -> Imagery? {
        if let drawn { return drawn.drape(unit: unit, zoom: zoom) }
        return mode != .roadmap ? imagery : nil
    }

    /// MapLibre's zoom for a camera over a view `height` points high: the scale at the
    /// centre, 78,271.52 · cos φ / 2^z metres per point.
    public static func basemapZoom(_ camera: Camera, height: Double) -> Double {
        let focal = (height / 2) / tan(camera.fieldOfView.degrees * Double.pi / 360)
        let metresPerPoint = camera.range / max(1e-6, focal)
        let z = log2(78_271.52 * cos(camera.center.latitude * Double.pi / 180) / max(1e-6, metresPerPoint))
        return min(22, max(0, z.isFinite ? z : 0))
    }

    /// The ground around a camera labels and buildings come from: its centre ± `factor` ×
    /// range (at least 300 m), [west, south, east, north].
    public static func basemapArea(_ camera: Camera, factor: Double) -> [Double] {
        let r = max(300, factor * camera.range)
        let lat = camera.center.latitude
        let dLat = r / 111_320, dLon = r / (111_320 * max(0.05, cos(lat * Double.pi / 180)))
        return [camera.center.longitude - dLon, max(-85, lat - dLat), camera.center.longitude + dLon, min(85, lat + dLat)]
    }

    /// The basemap's 3D buildings around the map's camera for a view `height` points high
    /// (none when the camera is fitted).
    func basemapBuildings(height: Double) -> [Building] {
        guard let drawn, let camera = initialCamera ?? self.camera?.wrappedValue else { return [] }
        return drawn.buildings(camera: camera, height: height)
    }
}

extension DrawnBasemap {
    /// The basemap's labels for a camera and view height, as `BasemapLabel`s (kept per area and
    /// zoom: the thumbnails of a batch share them).
    func labels(camera: Camera, height: Double, language: String? = nil) -> [BasemapLabel] {
        let zoom = (Map.basemapZoom(camera, height: height) * 8).rounded() / 8
        let area = Map.basemapArea(camera, factor: 2.5).map { ($0 * 1e4).rounded() / 1e4 }
        return Self.cached(labelTable, "labels \(area) \(zoom) \(language ?? "-")") {
            basemap.symbols(area: area, zoom: zoom, measure: Self.measure, language: language).map {
                var label = Self.label($0)
                // The label language also picks Han forms and HarfBuzz's language.
                label.style?.font.request.language = language
                return label
            }
        }
    }

    static func label(_ s: BasemapSymbol) -> BasemapLabel {
        func rgba(_ c: StyleColor) -> RGBAColor { Basemap.rgba(c, 1) }
        let style = LabelStyle(font: font(s.fonts, size: s.size), color: rgba(s.color), haloColor: rgba(s.haloColor), haloWidth: s.haloWidth,
                               maxWidth: s.maxWidth * s.size, offset: Size(width: s.offset.x * s.size + s.translate.x, height: s.offset.y * s.size + s.translate.y),
                               anchor: s.anchor, along: s.along.map { LatLngAltitude(latitude: $0.latitude, longitude: $0.longitude) },
                               priority: s.priority, layer: s.layer, featureID: s.featureID)
        var allowing = style
        // Placed as its style says (what the label and the style's symbol share, as it is).
        allowing.placement = s.placement
        if s.translatesWithMap { allowing.mapTranslate = Size(width: s.translate.x, height: s.translate.y) }
        if s.iconTranslatesWithMap { allowing.iconMapTranslate = Size(width: s.iconTranslate.x, height: s.iconTranslate.y) }
        allowing.iconOffset = Size(width: s.iconOffset.x, height: s.iconOffset.y)
        allowing.line = s.line.map { LatLngAltitude(latitude: $0.latitude, longitude: $0.longitude) }
        allowing.padding = s.padding
        allowing.lineHeight = s.lineHeight
        allowing.letterSpacing = LabelStyle.letterSpacing(ems: s.letterSpacing, size: s.size)
        allowing.variableAnchors = s.variableAnchors.map {
            VariableAnchor(anchor: $0.anchor, offset: Size(width: $0.x * s.size + s.translate.x, height: $0.y * s.size + s.translate.y), justify: $0.justify)
        }
        allowing.writingModes = s.writingModes.compactMap(LabelWritingMode.init(rawValue:))
        allowing.iconRules = s.icon == nil ? nil : s.iconRules
        allowing.sections = s.sections.map { TextSection(start: $0.start, end: $0.end, color: rgba($0.color)) }
        allowing.fontScales = s.fontScales.map { TextScale(start: $0.start, end: $0.end, $0.scale) }
        allowing.sectionFonts = s.sectionFonts.map { TextFont(start: $0.start, end: $0.end, font($0.fonts, size: s.size).request) }
        return BasemapLabel(s.text, position: LatLngAltitude(latitude: s.latitude, longitude: s.longitude), style: allowing)
    }

    /// A label's text set as the labels are drawn (its font from `text-font`, its letter
    /// spacing), its width in points: what the basemap finds line labels' places with.
    static func measure(_ text: String, fonts: [String], size: Double, letterSpacing: Double) -> Double? {
        let options = LabelStyle.layoutOptions(letterSpacing: LabelStyle.letterSpacing(ems: letterSpacing, size: size))
        return (try? TextLayout.make(text, font: font(fonts, size: size), options: options))?.width
    }

    /// A `text-font` list as a font: the first name's family (its weight and slant words
    /// removed) when fontconfig has it, else the default face; weight and slant from the words.
    static func font(_ names: [String], size: Double) -> FontSpec {
        if let known = fontRequests.withLock({ $0[names] }) { return FontSpec(known, size: size) }
        let request = fontRequest(names)
        fontRequests.withLock { if $0.count < maxFontStacks { $0[names] = request } }
        return FontSpec(request, size: size)
    }

    /// The request each font stack a style names comes to, made once a process (a label's font
    /// was parsed and looked up for every label): `FontLibrary` keeps its own answers for the
    /// process, so the same stack always comes to the same request. At most 4,096 stacks kept
    /// (a style's font expressions can name any number); past that, made each time.
    static let fontRequests = Locked<[[String]: FontRequest]>([:])
    static let maxFontStacks = 4_096

    /// The request `names` comes to: its first font's family, weight and slant, when the
    /// library has that family, else the default family at that weight and slant.
    static func fontRequest(_ names: [String]) -> FontRequest {
        let name = names.first ?? "Noto Sans Regular"
        var words = name.split(separator: " ").map(String.init)
        var weight = FontWeight.regular, italic = false
        let weights: [String: FontWeight] = ["Thin": .thin, "Light": .light, "Regular": .regular, "Book": .regular, "Medium": .medium,
                                             "Semibold": .semibold, "SemiBold": .semibold, "Bold": .bold, "Heavy": .heavy, "Black": .black,
                                             "ExtraBold": .heavy, "ExtraLight": .ultraLight]
        while let last = words.last, words.count > 1 {
            if let w = weights[last] { weight = w } else if last == "Italic" || last == "Oblique" { italic = true } else { break }
            words.removeLast()
        }
        let family = words.joined(separator: " ")
        let request = FontRequest(family: family, weight: weight, italic: italic)
        if (try? FontLibrary.shared.face(for: request)) != nil { return request }
        return FontRequest(weight: weight, italic: italic)
    }
}

extension Map {
    /// The basemap's circles that face the viewer (`Basemap.viewportCircles`) around `camera`
    /// over a view `height` points high, at its zoom (kept per area and eighth of a zoom, as the
    /// labels are); none without a basemap or with no such circle layer.
    public func basemapCircles(for camera: Camera, height: Double) -> [BasemapCircle] {
        guard mode != .satellite, let drawn, drawn.basemap.hasViewportCircles else { return [] }
        let zoom = (Map.basemapZoom(camera, height: height) * 8).rounded() / 8
        let area = Map.basemapArea(camera, factor: 2.5).map { ($0 * 1e4).rounded() / 1e4 }
        return DrawnBasemap.cached(drawn.circleTable, "circles \(area) \(zoom)") { drawn.basemap.viewportCircles(area: area, zoom: zoom) }
    }

    /// The labels drawn: the map's own, then in `.roadmap` and `.hybrid` its basemap's, for
    /// `camera` over a view `height` points high.
    public func labels(for camera: Camera, height: Double) -> [BasemapLabel] {
        guard mode != .satellite else { return [] }
        guard let drawn else { return basemapLabels }
        return basemapLabels + drawn.labels(camera: camera, height: height, language: labelLanguage)
    }

    /// The map with its basemap's labels in `language` (a BCP 47 tag: "fr", "ja", "zh-TW"…)
    /// where the tiles have names in it (`name:fr`; `name:zh-Hant`, then `name:zh`), else as the
    /// style writes them. The tag is also the labels' text language: it picks the forms of Han
    /// characters (Japanese, Korean, Traditional or Simplified Chinese) and HarfBuzz's language. A map in a view
    /// takes it from the SwiftUI environment's locale (`.environment(\.locale, …)`, as the SDK
    /// localises its map) unless given one.
    public func labelLanguage(_ language: String?) -> Map { with { $0.labelLanguage = language } }
}

extension Map {
    /// What was skipped or drawn around so far — the basemap style's unsupported parts, tiles
    /// that could not be read — each once, in the order found.
    public var warnings: [String] {
        var out: [String] = []
        for w in (drawnBasemap?.warnings ?? []) + (imagery?.tiles?.warnings ?? []) where !out.contains(w) { out.append(w) }
        return out
    }
}
