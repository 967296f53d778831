// What a basemap contributes besides its draped tiles: labels from its symbol layers and 3D
// buildings from its fill-extrusion layers, for the area a view shows at the zoom it needs.
import Foundation
import TerrapinRaster
import Terrapin3D
import TerrapinGeometry
import TerrapinImagery
import TerrapinTerrainData
import TerrapinTiles

/// A label of a symbol layer, not yet placed: the resolver projects it, hides it where the
/// terrain hides its anchor, and collides it with markers and other labels.
public struct BasemapSymbol: Sendable, Equatable, SymbolPlaced {
    /// How it is placed and its icon drawn: its fields read and written as this value's own
    /// (`SymbolPlaced`).
    public var placement = SymbolPlacement()

    public var text: String
    public var latitude: Double, longitude: Double
    /// For labels along lines: a second point along the line, so the label turns with it on
    /// screen; nil for point labels.
    public var along: (latitude: Double, longitude: Double)?
    /// For labels along lines: the line around the anchor (enough of it each side for the text
    /// to follow its curve), and the index of the anchor among its points.
    public var line: [(latitude: Double, longitude: Double)] = []
    /// `text-padding`: pixels around the label's collision box (MapLibre's default 2).
    public var padding = 2.0
    public var size: Double
    public var color: StyleColor
    public var haloColor: StyleColor
    public var haloWidth: Double
    /// `text-font` names ("Noto Sans Bold"): family, weight and slant.
    public var fonts: [String]
    /// Ems.
    public var letterSpacing: Double
    /// Ems (`text-max-width`; 0 for line labels, which do not wrap).
    public var maxWidth: Double
    /// Ems between wrapped lines' baselines (`text-line-height`).
    public var lineHeight = 1.2
    /// Ems, x right and y down (`text-offset`).
    public var offset: (x: Double, y: Double)
    /// `text-anchor`: "center", "top", "bottom-left", …
    public var anchor: String
    /// `text-variable-anchor` (or `text-variable-anchor-offset`), for a point's label: the
    /// anchors its text may take about the point, in the order they are tried, each with its
    /// offset in ems (x right, y down) and the justification of its wrapped lines. Empty: the
    /// text sits by `anchor` and `offset` alone.
    public var variableAnchors: [(anchor: String, x: Double, y: Double, justify: String)] = []
    /// Sections of the text with their own `text-color` (a `format` text-field's), as code point
    /// ranges of `text`, faded by `text-opacity`; the rest is drawn in `color`.
    public var sections: [(start: Int, end: Int, color: StyleColor)] = []
    /// Sections of the text set at their own multiple of `size` (a `format` text-field's
    /// `font-scale`, 0…10), as code point ranges of `text`.
    public var fontScales: [(start: Int, end: Int, scale: Double)] = []
    /// Sections of the text in their own font (a `format` text-field's `text-font`), as code
    /// point ranges of `text`.
    public var sectionFonts: [(start: Int, end: Int, fonts: [String])] = []
    /// `text-writing-mode` of a point's label: the ways its text is tried, in order
    /// ("horizontal", "vertical"); empty: horizontal only.
    public var writingModes: [String] = []
    /// `text-translate`: pixels right and down the text is moved.
    public var translate = (x: 0.0, y: 0.0)
    /// Whether `translate` is on the map (`text-translate-anchor` "map", the default: east and
    /// south, turning with the map), else on the screen.
    public var translatesWithMap = true
    /// `icon-translate` (part of `iconOffset`), and whether it is on the map
    /// (`icon-translate-anchor` "map", the default).
    public var iconTranslate = (x: 0.0, y: 0.0)
    public var iconTranslatesWithMap = true
    /// `icon-offset` times `icon-size`: points right and down the icon is moved from its place.
    public var iconOffset = (x: 0.0, y: 0.0)
    /// A point's text and icon placed each by its own rules, as MapLibre places them (nil
    /// without both): the icon's overlap and placement rules, `icon-padding`, and whether either
    /// may show without the other (`text-optional`, `icon-optional`).
    public var iconRules: IconRules?
    /// Placement order: lower first (the style's top-most symbol layer first, then
    /// `symbol-sort-key`, then the tiles' order, west to east and north to south, as MapLibre's).
    public var priority: Double
    public var layer: String
    public var featureID: UInt64?

    public static func == (a: BasemapSymbol, b: BasemapSymbol) -> Bool {
        a.text == b.text && a.latitude == b.latitude && a.longitude == b.longitude && a.along?.latitude == b.along?.latitude
            && a.along?.longitude == b.along?.longitude && a.size == b.size && a.layer == b.layer && a.priority == b.priority
    }
}

/// How a point label's icon collides apart from its text (MapLibre's separate boxes).
public struct IconRules: Sendable, Equatable {
    public var textAllowOverlap = false, textIgnorePlacement = false
    public var iconAllowOverlap = false, iconIgnorePlacement = false
    /// Pixels round the icon's box (`icon-padding`, MapLibre's default 2).
    public var iconPadding = 2.0
    /// The text may show without its icon (`icon-optional`), the icon without its text
    /// (`text-optional`).
    public var textOptional = false, iconOptional = false
    public init() {}
}

/// A building of a fill-extrusion layer: its exterior ring (latitude, longitude), base and
/// roof heights in metres above the ground, and colour (0…255).
public struct BasemapBuilding: Sendable {
    public var footprint: [(latitude: Double, longitude: Double)]
    public var base: Double, roof: Double
    public var color: SIMD3<Double>
    public var featureID: UInt64?
    /// Courtyards: the polygon's inner rings (latitude, longitude).
    public var holes: [[(latitude: Double, longitude: Double)]] = []
    /// `fill-extrusion-pattern`'s image on its walls and roof, or nil.
    public var pattern: BuildingPattern?
    /// `fill-extrusion-vertical-gradient`: walls darker towards the ground (default true).
    public var verticalGradient = true
    /// `fill-extrusion-opacity` (the layer's, at the view's zoom): its buildings drawn whole,
    /// then laid over the view at this opacity. Default 1.
    public var opacity = 1.0
}

extension Basemap {
    /// Whether a layer's text or icon (`kind`) is placed whatever it overlaps: its
    /// `text-overlap`/`icon-overlap` where given ("always"; "cooperative", which MapLibre lets
    /// overlap other symbols that are not "never", is taken as "always"; "never"), else its
    /// `text-allow-overlap`/`icon-allow-overlap`, as MapLibre lets the first override the second.
    /// `icon-padding`: a number, or (the spec's newer padding type) one to four, of which the
    /// largest is kept (the box is padded evenly).
    static func iconPadding(_ layer: BasemapStyle.Layer, _ c: EvaluationContext) -> Double {
        switch layer.property("icon-padding")?.evaluate(c) {
        case .number(let n)?: return n.isFinite ? n : 2
        case .array(let items)?: return items.compactMap(\.number).filter(\.isFinite).max() ?? 2
        default: return 2
        }
    }

    static func allowsOverlap(_ layer: BasemapStyle.Layer, _ kind: String, _ c: EvaluationContext) -> Bool {
        if let mode = layer.property(kind + "-overlap")?.evaluate(c).string { return mode == "always" || mode == "cooperative" }
        return layer.property(kind + "-allow-overlap")?.evaluate(c).truthy ?? false
    }
}

extension Basemap {
    /// The tiles at `zoom` covering [west, south, east, north] (at most `limit`, nearest the
    /// centre first).
    static func tiles(_ area: [Double], zoom: Int, limit: Int = 64) -> [TileID] {
        let northWest = TileID.containing(longitude: area[0], latitude: area[3], zoom: zoom)
        let southEast = TileID.containing(longitude: area[2], latitude: area[1], zoom: zoom)
        var x0 = northWest.x, x1 = max(northWest.x, southEast.x), y0 = northWest.y, y1 = max(northWest.y, southEast.y)
        let cx = Double(x0 + x1) / 2, cy = Double(y0 + y1) / 2
        // Only the tiles nearest the centre can be taken, so only those are listed (a huge area
        // at a deep zoom would otherwise be billions of ids).
        let side = Int(Double(limit).squareRoot().rounded(.up)) + 1
        x0 = max(x0, Int(cx) - side); x1 = min(x1, Int(cx) + side)
        y0 = max(y0, Int(cy) - side); y1 = min(y1, Int(cy) + side)
        var ids: [TileID] = []
        for ty in y0...y1 { for tx in x0...x1 { ids.append(TileID(z: zoom, x: tx, y: ty)) } }
        ids.sort { (abs(Double($0.x) - cx) + abs(Double($0.y) - cy), $0) < (abs(Double($1.x) - cx) + abs(Double($1.y) - cy), $1) }
        return Array(ids.prefix(limit))
    }

    /// A data tile's coordinate as latitude and longitude.
    static func geographic(_ id: TileID, extent: Int, _ x: Double, _ y: Double) -> (latitude: Double, longitude: Double) {
        let n = Double(1 << id.z)
        let wx = (Double(id.x) + x / Double(extent)) / n, wy = (Double(id.y) + y / Double(extent)) / n
        return (TileID.latitude(worldY: wy), wx * 360 - 180)
    }

    /// How wide a label's text is set, in points: its text, `text-font`, `text-size` (points)
    /// and `text-letter-spacing` (ems); nil where it cannot be set.
    public typealias TextMeasure = (_ text: String, _ fonts: [String], _ size: Double, _ letterSpacing: Double) -> Double?

    /// Labels of the symbol layers shown at `zoom` (MapLibre's: 512-pixel tiles), from the
    /// tiles covering `area` ([west, south, east, north]). Text is evaluated (tokens,
    /// expressions, `text-transform`); a feature repeated in neighbouring tiles' buffers is
    /// kept once. `measure` sets labels along lines to find their places (as MapLibre measures
    /// its shaped text); without it a label is taken as 0.6 em a character.
    /// `language` (a BCP 47 tag, the map's locale's): a label that shows a name shows the
    /// feature's `name:<language>` (OpenMapTiles', Protomaps') or `name_<language>`
    /// (Shortbread's) where it has one (`localNameKeys`), as MapLibre's localisation does (a text that shows no
    /// name — a road's number — is left as it is).
    /// The tile attributes that may hold a feature's name in `language` (a BCP 47 tag), most
    /// specific first: with its script where it has one — written (`sr-Latn`), or Chinese's
    /// from its region (`zh-TW` → `zh-Hant`, `zh-CN` → `zh-Hans`, as Protomaps' tiles key
    /// them) — then the language alone; each as `name:xx` and `name_xx`.
    public static func localNameKeys(_ language: String) -> [String] {
        let parts = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let first = parts.first?.lowercased(), !first.isEmpty else { return [] }
        var script = parts.dropFirst().first { $0.count == 4 && $0.allSatisfy(\.isLetter) }.map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
        if script == nil, first == "zh" {
            let regions = Set(parts.dropFirst().map { $0.uppercased() })
            script = regions.isDisjoint(with: ["TW", "HK", "MO"]) ? "Hans" : "Hant"
        }
        let tags = (script.map { [first + "-" + $0] } ?? []) + [first]
        return tags.flatMap { ["name:" + $0, "name_" + $0] }
    }

    public func symbols(area: [Double], zoom: Double, measure: TextMeasure? = nil, language: String? = nil) -> [BasemapSymbol] {
        let localNames = language.map { Self.localNameKeys($0) }
        var out: [BasemapSymbol] = []
        var textBudget = Self.maxViewScalars
        // Line labels' lengths as set, by text, fonts, size and letter spacing.
        var measured: [String: Double?] = [:]
        var seen: Set<String> = []
        // Signed-distance icons coloured, by name and look.
        var sdfIcons: [SDFKey: Pixmap] = [:], sdfPixels = 0
        // Pixels of the images set in labels' texts (each drawn from its own copy): bounded
        // over the view, as a hostile style could set a large image in every label.
        var inlinePixels = 0
        var tiles = PassTiles(self)
        let symbolLayers = style.layers.filter { $0.kind == .symbol && $0.shows(at: zoom) }
        for (rank, layer) in symbolLayers.reversed().enumerated() {
            guard let sourceName = layer.source, let dz = dataZoom(sourceName, Int(zoom.rounded(.down))) else { continue }
            let context0 = EvaluationContext(zoom: zoom)
            let layoutZoom = (zoom + 1e-6).rounded(.down)
            let placement = layer.property("symbol-placement")?.evaluate(context0).string ?? "point"
            // The tiles in MapLibre's placement order (its `isLessThan`): west to east, then
            // north to south, so labels of equal keys are placed in the same order.
            for id in Self.tiles(area, zoom: dz).sorted(by: { ($0.x, $0.y) < ($1.x, $1.y) }) {
                guard let tile = tiles.tile(sourceName, id), let data = dataLayer(tile, layer) else { continue }
                let extent = Double(data.extent)
                // Screen pixels per tile unit at the view's zoom.
                let pixels = Double(512 << max(0, Int(zoom) - dz)) / extent
                /// One label: at tile position (ax, ay), turned along `direction` when it follows
                /// a line (whose points around it are `line`, the anchor at index `lineAnchor`).
                func emit(_ context: EvaluationContext, _ feature: VectorTile.Feature, text: String, icon: (Pixmap, Double)?, ax: Double, ay: Double,
                          direction: (Double, Double)?, line: (points: [(Double, Double)], anchor: Int)?, iconTurn: Double? = nil) {
                    // Anchors in the buffer beyond the tile belong to its neighbour (a point's, a
                    // line's first point, a polygon's centre), as MapLibre drops them.
                    if direction == nil, ax < 0 || ay < 0 || ax >= extent || ay >= extent { return }
                    let g = Self.geographic(id, extent: data.extent, ax, ay)
                    let key = "\(layer.id)|\(text)|\(icon == nil ? "" : "icon")|\((g.latitude * 1e5).rounded())|\((g.longitude * 1e5).rounded())"
                    // A line's or polygon's label met again at one place (its feature repeated in
                    // a neighbour's buffer) is kept once. Points are not: a tile drops those in its
                    // buffer, and MapLibre places several features at one point as separate symbols.
                    guard feature.type == .point || seen.insert(key).inserted else { return }
                    var along: (latitude: Double, longitude: Double)?
                    if let (dx, dy) = direction { along = Self.geographic(id, extent: data.extent, ax + dx, ay + dy) }
                    var view = context
                    view.zoom = zoom
                    var made = symbol(layer, context, view: view, text: text, at: g, along: along, rank: rank, id: feature.id)
                    if let line {
                        made.line = line.points.map { Self.geographic(id, extent: data.extent, $0.0, $0.1) }
                        made.lineAnchor = line.anchor
                        made.flat = (layer.property("text-pitch-alignment")?.evaluate(context).string ?? "auto") != "viewport"
                    }
                    if let (pixels, ratio) = icon, direction == nil {
                        made.icon = pixels
                        made.iconScale = min(8, max(0.05, Self.number(layer, "icon-size", view, default: 1))) / ratio
                        made.iconOpacity = min(1, max(0, Self.number(layer, "icon-opacity", view, default: 1)))
                        made.iconRotate = (Self.number(layer, "icon-rotate", context, default: 0) + (iconTurn ?? 0)).truncatingRemainder(dividingBy: 360)
                        if let iconTurn {
                            // Turned with its line, on the map: it turns with the map's heading,
                            // and `icon-keep-upright` turns it half round where the line runs
                            // leftwards on screen.
                            made.iconRotatesWithMap = true
                            if layer.property("icon-keep-upright")?.evaluate(context).truthy == true { made.iconLineTurn = iconTurn }
                        }
                        let iconPitch = layer.property("icon-pitch-alignment")?.evaluate(context).string ?? "auto"
                        made.iconFlat = iconPitch == "map" || (iconPitch == "auto" && made.iconRotatesWithMap)
                        if let anchor = layer.property("icon-anchor")?.evaluate(context).string, Self.textAnchors.contains(anchor) { made.iconAnchor = anchor }
                        if case .array(let o)? = layer.property("icon-offset")?.evaluate(context), o.count == 2, let x = o[0].number, let y = o[1].number, x.isFinite, y.isFinite {
                            let size = min(8, max(0.05, Self.number(layer, "icon-size", view, default: 1)))
                            made.iconOffset = (min(1024, max(-1024, x)) * size, min(1024, max(-1024, y)) * size)
                        }
                        // `icon-translate`: pixels the icon moves as placed (not scaled by its size).
                        if case .array(let t)? = layer.property("icon-translate")?.evaluate(view), t.count == 2, let x = t[0].number, let y = t[1].number, x.isFinite, y.isFinite {
                            made.iconTranslate = (min(1024, max(-1024, x)), min(1024, max(-1024, y)))
                            made.iconOffset = (made.iconOffset.x + made.iconTranslate.x, made.iconOffset.y + made.iconTranslate.y)
                            made.iconTranslatesWithMap = (layer.property("icon-translate-anchor")?.evaluate(context).string ?? "map") == "map"
                        }
                        if !text.isEmpty, case .string(let fit)? = layer.property("icon-text-fit")?.evaluate(context), ["width", "height", "both"].contains(fit) {
                            made.iconTextFit = fit
                            if case .array(let pad)? = layer.property("icon-text-fit-padding")?.evaluate(context), pad.count == 4 {
                                made.iconTextFitPadding = pad.map { min(1000, max(-1000, $0.number ?? 0)) }
                            }
                            if let sheet = sprite, let image = layer.property("icon-image") {
                                made.iconStretch = sheet.stretch(Self.text(image.evaluate(context), data, feature))
                            }
                        }
                        // Text and icon are placed together: each must be free to go where the
                        // other's rule would stop it (an empty text follows its icon's).
                        let iconOverlap = Self.allowsOverlap(layer, "icon", context)
                        let iconIgnore = layer.property("icon-ignore-placement")?.evaluate(context).truthy ?? false
                        if !text.isEmpty, direction == nil {
                            // A point's text and icon: each its own box, as MapLibre places them.
                            var rules = IconRules()
                            rules.textAllowOverlap = made.allowOverlap
                            rules.textIgnorePlacement = made.ignorePlacement
                            rules.iconAllowOverlap = iconOverlap
                            rules.iconIgnorePlacement = iconIgnore
                            rules.iconPadding = min(64, max(0, Self.iconPadding(layer, context)))
                            rules.textOptional = layer.property("text-optional")?.evaluate(context).truthy ?? false
                            rules.iconOptional = layer.property("icon-optional")?.evaluate(context).truthy ?? false
                            made.iconRules = rules
                        }
                        made.allowOverlap = iconOverlap && (text.isEmpty || made.allowOverlap)
                        made.ignorePlacement = iconIgnore && (text.isEmpty || made.ignorePlacement)
                    }
                    if !made.inlineImages.isEmpty {
                        inlinePixels += made.inlineImages.reduce(0) { $0 + $1.pixels.width * $1.pixels.height }
                        if inlinePixels > Self.maxInlineImagePixels {
                            note("the view's labels set images of more than \(Self.maxInlineImagePixels) pixels in their texts; the rest are set without them")
                            made.inlineImages = []
                        }
                    }
                    out.append(made)
                }
                // Line labels wait for the tile's other features: lines of the same text are
                // merged end to end first, as MapLibre does, so a street cut into pieces is
                // labelled as one.
                var alongLines: [(feature: VectorTile.Feature, context: EvaluationContext, icon: (Pixmap, Double)?, text: String)] = []
                let localizes = localNames != nil && layer.property("text-field")?.readsName == true
                var filter = FeatureFilter(layer, data, zoom: layoutZoom, tile: id)
                defer { filter.finish() }
                for (index, feature) in data.features.enumerated() {
                    guard out.count < Self.maxLabels else { return out }
                    // Layout properties and the filter at the tile's zoom, as MapLibre lays a tile
                    // out (the view's whole zoom); sizes and paint at the view's (`view`).
                    let context = EvaluationContext(zoom: layoutZoom, layer: data, feature: feature, tile: id)
                    guard filter.keeps(index, context) else { continue }
                    var view = context
                    view.zoom = zoom
                    var text = Self.trimmed(layer.property("text-field").map({ Self.text($0.evaluate(context), data, feature) }) ?? "")
                    if localizes, let localNames, !text.isEmpty,
                       let local = localNames.lazy.compactMap({ key -> String? in
                           if case .string(let s)? = data.property(key, of: feature), !s.isEmpty { return s } else { return nil }
                       }).first {
                        text = Self.trimmed(local)
                    }
                    // Label text is bounded one by one and over the view (4,000 labels of 10,000
                    // characters took 51 s and 1.8 GB to set).
                    let scalars = text.unicodeScalars.count
                    if scalars > Self.maxLabelScalars {
                        note("layer '\(layer.id)': a label of more than \(Self.maxLabelScalars) characters is not drawn")
                        continue
                    }
                    textBudget -= scalars
                    if textBudget < 0 {
                        note("the view's labels hold more than \(Self.maxViewScalars) characters; the rest are not drawn")
                        return out
                    }
                    var icon: (Pixmap, Double)?
                    if let image = layer.property("icon-image") {
                        let name = Self.text(image.evaluate(context), data, feature)
                        if !name.isEmpty {
                            if let sheet = sprite {
                                icon = sheet.icon(name)
                                if icon == nil { note("layer '\(layer.id)': icon '\(name)' is not in the sprite; drawn without it") }
                                if let (field, ratio) = icon, sheet.isSDF(name) {
                                    // A distance field, coloured as MapLibre's SDF shader colours it (once per look).
                                    let look = SDFLook(color: Self.color(layer, "icon-color", view, default: StyleColor(red: 0, green: 0, blue: 0)),
                                                       halo: Self.color(layer, "icon-halo-color", view, default: StyleColor(red: 0, green: 0, blue: 0, alpha: 0)),
                                                       haloWidth: min(64, max(0, Self.number(layer, "icon-halo-width", view, default: 0))),
                                                       haloBlur: min(64, max(0, Self.number(layer, "icon-halo-blur", view, default: 0))),
                                                       size: min(8, max(0.05, Self.number(layer, "icon-size", view, default: 1))))
                                    let key = SDFKey(name: name, look: look)
                                    if sdfIcons[key] == nil {
                                        // Hostile input: a look per feature over a large field is
                                        // bounded by the pixels coloured in one view.
                                        sdfPixels += field.width * field.height
                                        if sdfPixels <= Self.maxSDFPixels {
                                            sdfIcons[key] = Self.sdfIcon(field, look)
                                        } else {
                                            note("layer '\(layer.id)': signed-distance icons coloured in more than \(Self.maxSDFPixels) pixels in one view; the rest are not drawn")
                                        }
                                    }
                                    icon = sdfIcons[key].map { ($0, ratio) }
                                }
                            } else {
                                note("layer '\(layer.id)': icon-image needs a local sprite (the style's \"sprite\"); icons are not drawn")
                            }
                        }
                    }
                    guard !text.isEmpty || icon != nil else { continue }
                    switch layer.property("text-transform")?.evaluate(context).string {
                    case "uppercase": text = text.uppercased()
                    case "lowercase": text = text.lowercased()
                    default: break
                    }
                    if placement == "point" {
                        switch feature.type {
                        case .point:
                            for i in feature.parts.indices {
                                let p = feature.part(i)
                                emit(context, feature, text: text, icon: icon, ax: Double(p[p.startIndex]), ay: Double(p[p.startIndex + 1]), direction: nil, line: nil)
                            }
                        case .polygon:
                            // Each polygon's label at its pole of inaccessibility, to within 2
                            // pixels (16 units of a 4096 tile), as MapLibre places it.
                            for polygon in feature.polygons.prefix(Self.maxPolygonLabels) {
                                let rings = polygon.map { Self.points(feature.part($0)) }
                                let c = PoleOfInaccessibility.pole(rings, precision: 2 * extent / 512)
                                emit(context, feature, text: text, icon: icon, ax: c.0, ay: c.1, direction: nil, line: nil)
                            }
                        default:
                            // A line's label at each of its parts' first points, as MapLibre
                            // places point labels on lines (mapbox-gl-js#3808).
                            for i in feature.parts.indices {
                                let p = feature.part(i)
                                guard p.count >= 2 else { continue }
                                emit(context, feature, text: text, icon: icon, ax: Double(p[p.startIndex]), ay: Double(p[p.startIndex + 1]), direction: nil, line: nil)
                            }
                        }
                    } else if feature.type != .point {
                        alongLines.append((feature, context, icon, text))
                    }
                }
                // Along lines: every `symbol-spacing` pixels (250 by default) where the text fits.
                let overscaling = Double(1 << max(0, Int(zoom) - dz))
                // Merged as MapLibre Native's `mergeLines`, then each feature's lines cut to the
                // tile (its `clipLines`), so a line from beyond the tile starts on its edge.
                let merged = Self.mergeLines(features: alongLines.map { item in
                    (item.text, item.feature.parts.indices.map { Self.points(item.feature.part($0)) })
                })
                for (k, lines) in merged.enumerated() {
                    let (feature, context, icon, text) = alongLines[k]
                    // MapLibre Native finds a line label's places with its text at text-size's
                    // value at z18 where the size depends on the feature, and otherwise at the
                    // tile's zoom (its layout evaluates zoom-only sizes at the tile's zoom before
                    // it asks for z18); its length as set, in tile units.
                    var sizing = context
                    sizing.zoom = layer.property("text-size")?.readsFeature == true ? 18 : zoom.rounded(.down)
                    let size = min(64, max(1, Self.number(layer, "text-size", sizing, default: 16)))
                    let spacing = max(1, Self.number(layer, "symbol-spacing", context, default: 250)) / pixels
                    let fonts = Self.fonts(layer, context)
                    let letterSpacing = Self.number(layer, "text-letter-spacing", context, default: 0)
                    // Measured once per text and look in this call (a street's pieces and
                    // neighbouring tiles repeat it).
                    let key = "\(text)\u{0}\(fonts)\u{0}\(size)\u{0}\(letterSpacing)"
                    let set: Double?
                    if let known = measured[key] { set = known } else {
                        set = measure?(text, fonts, size, letterSpacing)
                        measured[key] = .some(set)
                    }
                    var length = (set.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? Double(text.count) * size * 0.6) / pixels
                    // Images set in the text add their widths (measured text gives them none).
                    if text.unicodeScalars.contains("\u{FFFC}"), let sheet = sprite {
                        for section in Self.sections(layer.property("text-field"), context, text: text) {
                            guard let name = section.image, let (image, ratio) = sheet.icon(name) else { continue }
                            length += Double(image.width) / max(ratio, 1e-3) / pixels
                        }
                    }
                    // An icon without text: the icon's length, as MapLibre's anchors take the
                    // longer of the text's and the icon's boxes.
                    let iconOnly = text.isEmpty && icon != nil
                    if iconOnly, let (image, ratio) = icon {
                        length = Double(image.width) / ratio * min(8, max(0.05, Self.number(layer, "icon-size", context, default: 1))) / pixels
                    }
                    // `text-rotation-alignment: viewport`: each place along the line holds a
                    // label set upright and level, as a point's is, with its icon (a road shield).
                    let level = layer.property("text-rotation-alignment")?.evaluate(context).string == "viewport"
                    let maxAngle = Self.number(layer, "text-max-angle", context, default: 45) * Double.pi / 180
                    for line in lines.flatMap({ clipLine($0.map { SIMD2($0.0, $0.1) }, 0, extent) }).map({ $0.map { ($0.x, $0.y) } }) {
                        for a in Self.anchors(line, spacing: spacing, labelLength: length, extraOffset: 2 * size / pixels, extent: extent,
                                              overscaling: overscaling, window: 0.6 * size / pixels, maxAngle: maxAngle) {
                            guard out.count < Self.maxLabels else { return out }
                            if iconOnly {
                                // The icon at the place, turned with the line unless it is
                                // aligned to the viewport (icon-rotation-alignment).
                                let turnsWithLine = (layer.property("icon-rotation-alignment")?.evaluate(context).string ?? "auto") != "viewport"
                                let turn = turnsWithLine ? atan2(a.direction.1, a.direction.0) * 180 / Double.pi : nil
                                emit(context, feature, text: text, icon: icon, ax: a.x, ay: a.y, direction: nil, line: nil, iconTurn: turn)
                                continue
                            }
                            if level {
                                emit(context, feature, text: text, icon: icon, ax: a.x, ay: a.y, direction: nil, line: nil)
                                continue
                            }
                            // Enough line each side for the text (at most a character's size per character).
                            let window = Self.window(line, around: a, halfLength: Double(text.count) * size / pixels)
                            emit(context, feature, text: text, icon: icon, ax: a.x, ay: a.y, direction: a.direction, line: window)
                        }
                    }
                }
            }
        }
        return out
    }

    /// One label's symbol: its layout properties read at the tile's zoom (`c`), its size and
    /// paint at the view's (`view`).
    func symbol(_ layer: BasemapStyle.Layer, _ c: EvaluationContext, view: EvaluationContext, text: String, at g: (latitude: Double, longitude: Double),
                along: (latitude: Double, longitude: Double)?, rank: Int, id: UInt64?) -> BasemapSymbol {
        let fonts = Self.fonts(layer, c)
        var offset = (0.0, 0.0)
        if case .array(let o)? = layer.property("text-offset")?.evaluate(c), o.count == 2 { offset = (o[0].number ?? 0, o[1].number ?? 0) }
        let sortKey = Self.number(layer, "symbol-sort-key", c, default: 0)
        let opacity = min(1, max(0, Self.number(layer, "text-opacity", view, default: 1)))
        func faded(_ color: StyleColor) -> StyleColor { var c = color; c.alpha *= opacity; return c }
        var symbol = BasemapSymbol(
            text: text, latitude: g.latitude, longitude: g.longitude, along: along,
            size: min(64, max(1, Self.number(layer, "text-size", view, default: 16))),
            color: faded(Self.color(layer, "text-color", view, default: StyleColor(red: 0, green: 0, blue: 0))),
            haloColor: faded(Self.color(layer, "text-halo-color", view, default: StyleColor(red: 0, green: 0, blue: 0, alpha: 0))),
            haloWidth: min(10, max(0, Self.number(layer, "text-halo-width", view, default: 0))),
            fonts: fonts, letterSpacing: Self.number(layer, "text-letter-spacing", c, default: 0),
            // Only a point's text wraps (a line's, along it or set level at its places, does not,
            // as MapLibre shapes it).
            maxWidth: along != nil || (layer.property("symbol-placement")?.evaluate(c).string ?? "point") != "point" ? 0 : Self.number(layer, "text-max-width", c, default: 10),
            offset: offset, anchor: layer.property("text-anchor")?.evaluate(c).string ?? "center",
            priority: Double(rank) * 1e6 + min(max(sortKey, -1e5), 1e5), layer: layer.id, featureID: id)
        symbol.kind = ["class", "kind", "subclass"].lazy.compactMap { c.property($0)?.string }.first
        let sections = Self.sections(layer.property("text-field"), view, text: text)
        symbol.sections = sections.compactMap { s in s.color.map { (s.start, s.end, faded($0)) } }
        symbol.fontScales = sections.compactMap { s in s.scale.map { (s.start, s.end, $0) } }
        symbol.sectionFonts = sections.compactMap { s in s.fonts.map { (s.start, s.end, $0) } }
        symbol.sectionAligns = sections.compactMap { s in s.align.map { SectionAlign(start: s.start, end: s.end, align: $0) } }
        if sections.contains(where: { $0.image != nil }) {
            // Images at their display size (the sprite's pixels over its ratio) times the text's
            // size over its size at the tile's zoom, as MapLibre sets them (`shapeLines`'
            // layoutTextSizeFactor; an image section's scale is 1, its `font-scale` unread).
            let laidOut = min(64, max(1, Self.number(layer, "text-size", c, default: 16)))
            let scalars = Array(text.unicodeScalars)
            for s in sections {
                guard let name = s.image, s.end == s.start + 1, scalars.indices.contains(s.start), scalars[s.start] == "\u{FFFC}", !name.isEmpty else { continue }
                guard let sheet = sprite else {
                    note("layer '\(layer.id)': images inside a formatted \"text-field\" need a local sprite (the style's \"sprite\"); they are not drawn")
                    continue
                }
                guard let (icon, ratio) = sheet.icon(name) else {
                    note("layer '\(layer.id)': image '\(name)' is not in the sprite; its text is set without it")
                    continue
                }
                var pixels = icon
                if sheet.isSDF(name) {
                    // A distance field, in the text's colour (its halo is the text's own); at
                    // most 256 × 256 of them coloured per label (hostile sprites).
                    guard pixels.width * pixels.height <= 1 << 16 else {
                        note("layer '\(layer.id)': signed-distance image '\(name)' inside a formatted \"text-field\" is larger than 256 × 256 pixels; not drawn")
                        continue
                    }
                    pixels = Self.sdfIcon(pixels, SDFLook(color: Self.color(layer, "text-color", view, default: StyleColor(red: 0, green: 0, blue: 0)),
                                                          halo: StyleColor(red: 0, green: 0, blue: 0, alpha: 0), haloWidth: 0, haloBlur: 0, size: 1))
                }
                var inline = InlineImage(index: s.start, pixels: pixels, pixelRatio: ratio, scale: symbol.size / laidOut, align: s.align ?? "bottom", opacity: opacity)
                inline.smooth = layer.property("text-size")?.readsZoom ?? false
                symbol.inlineImages.append(inline)
            }
        }
        symbol.allowOverlap = Self.allowsOverlap(layer, "text", c)
        symbol.ignorePlacement = layer.property("text-ignore-placement")?.evaluate(c).truthy ?? false
        if case .array(let t)? = layer.property("text-translate")?.evaluate(view), t.count == 2, let x = t[0].number, let y = t[1].number, x.isFinite, y.isFinite {
            symbol.translate = (min(1024, max(-1024, x)), min(1024, max(-1024, y)))
            symbol.translatesWithMap = (layer.property("text-translate-anchor")?.evaluate(c).string ?? "map") == "map"
        }
        symbol.maxAngle = min(180, max(0, Self.number(layer, "text-max-angle", c, default: 45)))
        symbol.padding = min(64, max(0, Self.number(layer, "text-padding", c, default: 2)))
        symbol.haloBlur = min(10, max(0, Self.number(layer, "text-halo-blur", view, default: 0)))
        symbol.lineHeight = min(10, max(0.1, Self.number(layer, "text-line-height", c, default: 1.2)))
        switch layer.property("text-justify")?.evaluate(c).string ?? "center" {
        case "left": symbol.justify = "left"
        case "right": symbol.justify = "right"
        case "auto": symbol.justify = symbol.anchor.hasSuffix("left") ? "left" : symbol.anchor.hasSuffix("right") ? "right" : "center"
        default: symbol.justify = "center"
        }
        let zOrder = layer.property("symbol-z-order")?.evaluate(c).string ?? "auto"
        let overlaps = Self.allowsOverlap(layer, "text", c) || Self.allowsOverlap(layer, "icon", c)
            || ["text-ignore-placement", "icon-ignore-placement"].contains { layer.property($0)?.evaluate(c).truthy == true }
        symbol.sortsByY = overlaps && (zOrder == "viewport-y" || (zOrder == "auto" && layer.property("symbol-sort-key") == nil))
        if along == nil, (layer.property("symbol-placement")?.evaluate(c).string ?? "point") == "point" {
            symbol.variableAnchors = Self.variableAnchors(layer, c, textOffset: offset, justify: layer.property("text-justify")?.evaluate(c).string ?? "center")
            if case .array(let modes)? = layer.property("text-writing-mode")?.evaluate(c) {
                for mode in modes.prefix(2) {
                    if let m = mode.string, m == "horizontal" || m == "vertical", !symbol.writingModes.contains(m) { symbol.writingModes.append(m) }
                }
            }
            let rotate = Self.number(layer, "text-rotate", c, default: 0)
            symbol.textRotate = rotate.isFinite ? rotate.truncatingRemainder(dividingBy: 360) : 0
            symbol.rotatesWithMap = layer.property("text-rotation-alignment")?.evaluate(c).string == "map"
            symbol.iconRotatesWithMap = layer.property("icon-rotation-alignment")?.evaluate(c).string == "map"
        }
        if along == nil {
            // `text-pitch-alignment` "map" ("auto" follows the rotation's alignment): a point's
            // text, or a line's set level at each place, lies flat on the map under pitch (a
            // line's label following its curve decides it where it is made).
            let pitch = layer.property("text-pitch-alignment")?.evaluate(c).string ?? "auto"
            symbol.flat = pitch == "map" || (pitch == "auto" && symbol.rotatesWithMap)
        }
        return symbol
    }

    /// The anchors on the tile's square MapLibre may put a point's text at
    /// (`text-variable-anchor`'s and `text-variable-anchor-offset`'s words).
    static let textAnchors: Set<String> = ["center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left", "bottom-right"]

    /// MapLibre's `getTextVariableAnchorOffset` in ems: `text-variable-anchor-offset`'s anchors
    /// with their offsets, else `text-variable-anchor`'s anchors each offset by
    /// `text-radial-offset` (away from the point on the anchor's side, diagonally at corners;
    /// a negative one is none) or else by `text-offset` (its sizes, signed by the side). Top
    /// and bottom anchors move 7/24 em towards the point, MapLibre's stand-in for the distance
    /// from the text's top to its baseline. `text-justify` "auto" justifies each anchor's lines
    /// to its side. At most 9 anchors are kept (each distinct anchor once is all there is).
    static func variableAnchors(_ layer: BasemapStyle.Layer, _ c: EvaluationContext, textOffset: (Double, Double),
                                justify: String) -> [(anchor: String, x: Double, y: Double, justify: String)] {
        let baseline = 7.0 / 24
        func justification(_ anchor: String) -> String {
            justify != "auto" ? justify : anchor.hasSuffix("left") ? "left" : anchor.hasSuffix("right") ? "right" : "center"
        }
        var out: [(anchor: String, x: Double, y: Double, justify: String)] = []
        if case .array(let items)? = layer.property("text-variable-anchor-offset")?.evaluate(c) {
            var k = 0
            while k + 1 < items.count, out.count < 9 {
                defer { k += 2 }
                guard let a = items[k].string, textAnchors.contains(a), case .array(let o) = items[k + 1], o.count == 2,
                      let x = o[0].number, let y = o[1].number, x.isFinite, y.isFinite else { continue }
                let shift = a.hasPrefix("top") ? -baseline : a.hasPrefix("bottom") ? baseline : 0
                out.append((a, min(64, max(-64, x)), min(64, max(-64, y)) + shift, justification(a)))
            }
            return out
        }
        guard case .array(let items)? = layer.property("text-variable-anchor")?.evaluate(c) else { return [] }
        let radial = layer.property("text-radial-offset") == nil ? nil : min(64, max(0, number(layer, "text-radial-offset", c, default: 0)))
        for item in items where out.count < 9 {
            guard let a = item.string, textAnchors.contains(a) else { continue }
            let top = a.hasPrefix("top"), bottom = a.hasPrefix("bottom"), left = a.hasSuffix("left"), right = a.hasSuffix("right")
            var x = 0.0, y = 0.0
            if let r = radial {
                // The corners at r along the diagonal: r/√2 on each axis.
                let corner = top != bottom && left != right, d = corner ? r / 2.squareRoot() : r
                if top { y = d - baseline } else if bottom { y = -d + baseline }
                if left { x = d } else if right { x = -d }
            } else {
                let ox = min(64, abs(textOffset.0)), oy = min(64, abs(textOffset.1))
                if top { y = oy - baseline } else if bottom { y = -oy + baseline }
                if left { x = ox } else if right { x = -ox }
            }
            out.append((a, x, y, justification(a)))
        }
        return out
    }

    /// A section of a `format` text-field that sets its own look, as code points `start..<end`
    /// of the label's text: its `text-color`, `font-scale` (0…10), `text-font`,
    /// `vertical-align` ("bottom", "center" or "top"), and for an image section the image's
    /// name (its one code point U+FFFC in the text).
    public struct FormatSection: Sendable, Equatable {
        public var start: Int, end: Int
        public var color: StyleColor?
        public var scale: Double?
        public var fonts: [String]?
        public var align: String?
        public var image: String?
    }

    /// The sections of a `format` text-field that set their own look or are images, as code
    /// point ranges of the label's `text` (the sections joined, blanks cut from both ends).
    /// None when the text is not theirs (a localized name) or the field is not a `format` at
    /// its top.
    public static func sections(_ field: StyleExpression?, _ c: EvaluationContext, text: String) -> [FormatSection] {
        guard case .call("format", let parts)? = field, parts.count >= 5 else { return [] }
        var out: [FormatSection] = [], joined = "", offset = 0
        for k in stride(from: 0, to: parts.count - 4, by: 5) {
            let piece = parts[k].evaluate(c).text
            let n = piece.unicodeScalars.count
            var image: String?
            if case .call("format-image", let name) = parts[k], let name = name.first { image = name.evaluate(c).text }
            let color = parts[k + 1].evaluate(c).color
            let scale = parts[k + 2].evaluate(c).number.map { $0.isFinite ? min(10, max(0, $0)) : 1 }
            var fonts: [String]?
            if case .array(let list) = parts[k + 3].evaluate(c) { fonts = Array(list.compactMap(\.string).prefix(16)) }
            let align = parts[k + 4].evaluate(c).string.flatMap { ["bottom", "center", "top"].contains($0) ? $0 : nil }
            // (At most 64 sections: each coloured one is a pass over the label's glyphs when drawn.)
            if out.count < 64, color != nil || scale != nil || fonts != nil || align != nil || image != nil {
                out.append(FormatSection(start: offset, end: offset + n, color: color, scale: scale, fonts: fonts, align: align, image: image))
            }
            joined += piece
            offset += n
            guard offset <= maxLabelScalars * 4 else { return [] }
        }
        let length = text.unicodeScalars.count
        guard !out.isEmpty, trimmed(joined).unicodeScalars.count == length else { return [] }
        let blank: Set<Unicode.Scalar> = ["\t", "\n", "\u{0B}", "\u{0C}", "\r", " "]
        let lead = joined.unicodeScalars.prefix { blank.contains($0) }.count
        return out.compactMap { s in
            var s = s
            s.start = max(0, s.start - lead)
            s.end = min(length, s.end - lead)
            return s.start < s.end ? s : nil
        }
    }

    /// `text-field`'s value as text: legacy "{token}" strings filled from the feature.
    static func text(_ value: StyleValue, _ layer: VectorTile.Layer, _ feature: VectorTile.Feature) -> String {
        guard case .string(let s) = value else { return value == .null ? "" : value.text }
        guard s.contains("{") else { return s }
        var out = "", token = "", inToken = false
        for ch in s {
            if inToken {
                if ch == "}" { out += layer.property(token, of: feature)?.text ?? ""; token = ""; inToken = false } else { token.append(ch) }
            } else if ch == "{" { inToken = true } else { out.append(ch) }
        }
        return trimmedOfSpaces(out)
    }

    /// `text` without the spaces at its ends, as Foundation's `trimmingCharacters(in:
    /// .whitespaces)` trims (which took a twentieth of a basemap's labels' resolving, through
    /// NSString).
    static func trimmedOfSpaces(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return text }
        if !isSpace(first), !isSpace(last) { return text }
        guard let from = scalars.firstIndex(where: { !isSpace($0) }), let through = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(scalars[from...through])
    }

    /// Whether `u` is in Foundation's `CharacterSet.whitespaces`: space, tab, no-break space,
    /// the Ogham, typographic and ideographic spaces, and the zero-width space (CoreFoundation's
    /// own list, not Unicode's current space separators).
    static func isSpace(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x20, 0x09, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    /// Most characters one label may have (a place name is tens), and all a view's labels.
    public static let maxLabelScalars = 1_000
    public static let maxViewScalars = 200_000
    /// Most polygons of one feature labelled (each at its pole of inaccessibility).
    static let maxPolygonLabels = 64

    /// A label's text without the white space at its ends, newlines included, as MapLibre trims
    /// it: "{name:latin}\n{name:nonlatin}" with no second name is one line, not a line and an
    /// empty one (which lifted the label half a line).
    static func trimmed(_ text: String) -> String {
        let blank: Set<Unicode.Scalar> = ["\t", "\n", "\u{0B}", "\u{0C}", "\r", " "]
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !blank.contains($0) }), let last = scalars.lastIndex(where: { !blank.contains($0) }) else { return "" }
        return String(scalars[first...last])
    }

    /// A line part's points.
    static func points(_ p: ArraySlice<Int32>) -> [(Double, Double)] {
        let b = p.startIndex
        return (0..<(p.count / 2)).map { (Double(p[b + 2 * $0]), Double(p[b + 2 * $0 + 1])) }
    }

    /// A point on a line: where, a short step along the line there, and the index of the point
    /// after it.
    struct LinePoint {
        var x: Double, y: Double
        var direction: (Double, Double)
        var segment: Int
    }

    /// Lines of one text merged end to end, as MapLibre Native's `mergeLines`: each line, in
    /// order, joins a merged line ending where it starts or starting where it ends (or both,
    /// bridging them). Lines of one point are dropped.
    static func mergeLines(_ parts: [[(Double, Double)]]) -> [[(Double, Double)]] {
        mergeLines(features: parts.map { ("", [$0]) }).flatMap { $0 }.filter { $0.count >= 2 }
    }

    /// MapLibre Native's `mergeLines` over a tile's line features (their text and lines, in
    /// order): a feature's first line joins those of earlier features of the same text that
    /// end where it starts or start where it ends; the feature whose line was taken keeps its
    /// place and its other lines, its first one emptied. Each feature's lines, in order.
    static func mergeLines(features: [(text: String, lines: [[(Double, Double)]])]) -> [[[(Double, Double)]]] {
        struct Key: Hashable { let text: String; let x: Double, y: Double }
        var out = features.map(\.lines)
        var left: [Key: Int] = [:], right: [Key: Int] = [:]
        for k in out.indices {
            let text = features[k].text
            guard let first = out[k].first, let a = first.first, let b = first.last else { continue }
            let leftKey = Key(text: text, x: a.0, y: a.1), rightKey = Key(text: text, x: b.0, y: b.1)
            /// Feature `k`'s first line (or `from`'s) appended to the merged line ending at its start.
            func fromRight(_ from: Int) -> Int {
                let i = right.removeValue(forKey: leftKey)!
                right[rightKey] = i
                out[i][0].removeLast()
                out[i][0] += out[from][0]
                out[from][0] = []
                return i
            }
            /// Feature `k`'s first line put before the merged line starting at its end.
            func fromLeft() -> Int {
                let j = left.removeValue(forKey: rightKey)!
                left[leftKey] = j
                out[j][0] = out[k][0] + out[j][0].dropFirst()
                out[k][0] = []
                return j
            }
            if let i = right[leftKey], let j = left[rightKey], i != j {
                // Between two lines: both ends joined, the three become the first's.
                let j = fromLeft()
                let i = fromRight(j)
                left[leftKey] = nil
                right[rightKey] = nil
                if let end = out[i][0].last { right[Key(text: text, x: end.0, y: end.1)] = i }
            } else if right[leftKey] != nil {
                _ = fromRight(k)
            } else if left[rightKey] != nil {
                _ = fromLeft()
            } else {
                left[leftKey] = k
                right[rightKey] = k
            }
        }
        return out
    }

    /// A layer's `text-font` list (MapLibre's default, Noto Sans Regular, where it has none).
    static func fonts(_ layer: BasemapStyle.Layer, _ c: EvaluationContext) -> [String] {
        if case .array(let list)? = layer.property("text-font")?.evaluate(c) { return list.compactMap(\.string) }
        return ["Noto Sans Regular"]
    }

    /// Where labels go along a line, as MapLibre places them: every `spacing` tile units
    /// (widened to leave a quarter of it between long labels), the first half a label and
    /// `extraOffset` from the start — or half a spacing when the line comes in from the tile's
    /// edge — times `overscaling` (a tile drawn 2^k times its size keeps its parent's places),
    /// each inside the tile with the label's half length of line on both sides; failing all,
    /// the middle, if the label fits.
    /// With a `window` (tile units), a place is kept only where the line turns by at most
    /// `maxAngle` (radians) within any stretch of that length under the label (MapLibre's
    /// `checkMaxAngle`, its window 0.6 em of the text).
    static func anchors(_ line: [(Double, Double)], spacing: Double, labelLength: Double, extraOffset: Double, extent: Double,
                        overscaling: Double = 1, window: Double = 0, maxAngle: Double = Double.pi) -> [LinePoint] {
        guard line.count >= 2 else { return [] }
        var spacing = spacing
        if spacing - labelLength < spacing / 4 { spacing = labelLength + spacing / 4 }
        let first = line[0]
        let continued = first.0 <= 0 || first.1 <= 0 || first.0 >= extent || first.1 >= extent
        let offset = continued ? (spacing / 2 * overscaling).truncatingRemainder(dividingBy: spacing)
                               : ((labelLength / 2 + extraOffset) * overscaling).truncatingRemainder(dividingBy: spacing)
        var total = 0.0
        for k in 1..<line.count { total += hypot(line[k].0 - line[k - 1].0, line[k].1 - line[k - 1].1) }
        func resample(_ offset: Double, middle: Bool) -> [LinePoint] {
            var out: [LinePoint] = []
            var distance = 0.0, marked = offset - spacing
            // At most 10,000 places tried a line, 1,000 kept (a spacing of a pixel in a deeply
            // magnified tile would otherwise try billions).
            var tries = 0
            for k in 1..<line.count {
                let a = line[k - 1], b = line[k]
                let d = hypot(b.0 - a.0, b.1 - a.1)
                while marked + spacing < distance + d, out.count < 1_000, tries < 10_000 {
                    tries += 1
                    marked += spacing
                    let t = (marked - distance) / d
                    let x = a.0 + (b.0 - a.0) * t, y = a.1 + (b.1 - a.1) * t
                    if x >= 0, x < extent, y >= 0, y < extent, marked - labelLength / 2 >= 0, marked + labelLength / 2 <= total,
                       window <= 0 || Self.turnsWithin(line, at: (x, y), segment: k - 1, labelLength: labelLength, window: window, maxAngle: maxAngle) {
                        out.append(LinePoint(x: x, y: y, direction: ((b.0 - a.0) / d * 16, (b.1 - a.1) / d * 16), segment: k))
                    }
                    if middle { return out }
                }
                distance += d
            }
            return out
        }
        let found = resample(offset, middle: false)
        if !found.isEmpty || continued { return found }
        return resample(total / 2, middle: true)
    }

    /// Whether a label of `labelLength` centred at `p` (on segment `segment`, from point
    /// `segment` to the next) fits the line with its turns summed over any `window` of line at
    /// most `maxAngle`, as MapLibre's `checkMaxAngle` decides (false where the line ends under it).
    static func turnsWithin(_ line: [(Double, Double)], at p: (Double, Double), segment: Int, labelLength: Double, window: Double, maxAngle: Double) -> Bool {
        guard labelLength > 0 else { return true }
        func dist(_ a: (Double, Double), _ b: (Double, Double)) -> Double { hypot(b.0 - a.0, b.1 - a.1) }
        func angle(_ a: (Double, Double), _ b: (Double, Double)) -> Double { atan2(a.1 - b.1, a.0 - b.0) }
        // Back to the first segment the label lies on.
        var index = segment + 1, distance = 0.0, q = p
        while distance > -labelLength / 2 {
            index -= 1
            guard index >= 0 else { return false }
            distance -= dist(line[index], q)
            q = line[index]
        }
        distance += dist(line[index], line[index + 1])
        index += 1
        // Forward over the label's length, the turns at its corners summed over the window.
        var corners: [(distance: Double, turn: Double)] = [], first = 0, recent = 0.0
        while distance < labelLength / 2 {
            guard index + 1 < line.count else { return false }
            let prev = line[index - 1], current = line[index], next = line[index + 1]
            var turn = angle(prev, current) - angle(current, next)
            turn = abs((turn + 3 * Double.pi).truncatingRemainder(dividingBy: 2 * Double.pi) - Double.pi)
            corners.append((distance, turn))
            recent += turn
            while distance - corners[first].distance > window {
                recent -= corners[first].turn
                first += 1
            }
            if recent > maxAngle { return false }
            index += 1
            distance += dist(current, next)
        }
        return true
    }

    /// The points of a line within `halfLength` (tile units, along the line) of the point `m`
    /// on it each side, `m` itself among them: the points and its index.
    static func window(_ line: [(Double, Double)], around m: LinePoint, halfLength: Double) -> (points: [(Double, Double)], anchor: Int) {
        var before: [(Double, Double)] = [], after: [(Double, Double)] = []
        var walked = 0.0, last = (m.x, m.y)
        var k = m.segment - 1
        while k >= 0, walked < halfLength, before.count < 256 {
            let q = line[k]
            walked += hypot(q.0 - last.0, q.1 - last.1)
            before.append(q)
            last = q
            k -= 1
        }
        walked = 0; last = (m.x, m.y); k = m.segment
        while k < line.count, walked < halfLength, after.count < 256 {
            let q = line[k]
            walked += hypot(q.0 - last.0, q.1 - last.1)
            after.append(q)
            last = q
            k += 1
        }
        return (before.reversed() + [(m.x, m.y)] + after, before.count)
    }

    /// Buildings of the fill-extrusion layers shown at `zoom`, from the deepest tiles covering
    /// `area`; each feature once (a building cut by tile edges is drawn in pieces, whose walls
    /// meet).
    public func buildings(area: [Double], zoom: Double) -> [BasemapBuilding] {
        var out: [BasemapBuilding] = []
        // `fill-extrusion-pattern` images at tile scale, by name (nil: not in the sprite).
        var images: [String: PatternImage?] = [:]
        func image(_ layer: BasemapStyle.Layer, _ name: String) -> PatternImage? {
            if let known = images[name] { return known }
            var made: PatternImage?
            if let sheet = sprite {
                if let (pixels, ratio) = sheet.icon(name) {
                    if let cell = Self.patternCell(pixels, ratio: ratio) {
                        made = PatternImage(width: cell.width, height: cell.height, texels: (0..<(cell.width * cell.height)).map {
                            SIMD4(cell.texels[$0 * 4], cell.texels[$0 * 4 + 1], cell.texels[$0 * 4 + 2], cell.texels[$0 * 4 + 3])
                        })
                    }
                    if made == nil { note("layer '\(layer.id)': pattern '\(name)' is over 1,024 pixels a side on buildings; not drawn") }
                } else {
                    note("layer '\(layer.id)': pattern '\(name)' is not in the sprite; not drawn")
                }
            } else {
                note("layer '\(layer.id)': fill-extrusion-pattern needs a local sprite (the style's \"sprite\"); patterned extrusions are not drawn")
            }
            images[name] = made
            return made
        }
        // Patterns lie on the world's pixels at the view's whole zoom (as the tiles draw them).
        let patternZoom = max(0, min(30, zoom.rounded(.down)))
        for layer in style.layers where layer.kind == .fillExtrusion && layer.shows(at: zoom) {
            // A layer-wide opacity, as MapLibre composites the layer (0: nothing is drawn).
            let opacity = min(1, max(0, Self.number(layer, "fill-extrusion-opacity", EvaluationContext(zoom: zoom), default: 1)))
            guard opacity > 0, let sourceName = layer.source, let dz = maxDataZoom(sourceName) else { continue }
            for id in Self.tiles(area, zoom: dz, limit: 36) {
                guard let tile = vectorTile(sourceName, id), let data = dataLayer(tile, layer) else { continue }
                let extent = Int32(data.extent)
                // `fill-extrusion-translate`: pixels at MapLibre's 512-pixel tile scale at
                // `zoom`, moved on the map (as `fill-translate`), in this data tile's units.
                var shift = (0.0, 0.0)
                if case .array(let v)? = layer.property("fill-extrusion-translate")?.evaluate(EvaluationContext(zoom: zoom)), v.count == 2,
                   let x = v[0].number, let y = v[1].number, x.isFinite, y.isFinite {
                    let units = Double(data.extent) / 512 / pow(2, zoom - Double(id.z))
                    shift = (min(1024, max(-1024, x)) * units, min(1024, max(-1024, y)) * units)
                }
                var filter = FeatureFilter(layer, data, zoom: zoom, tile: id)
                defer { filter.finish() }
                for (index, feature) in data.features.enumerated() where feature.type == .polygon {
                    guard out.count < Self.maxBuildings else { return out }
                    let c = EvaluationContext(zoom: zoom, layer: data, feature: feature, tile: id)
                    guard filter.keeps(index, c) else { continue }
                    // Below the ground is at the ground, as MapLibre's shader clamps both.
                    let roof = max(0, Self.number(layer, "fill-extrusion-height", c, default: 0))
                    let base = max(0, Self.number(layer, "fill-extrusion-base", c, default: 0))
                    guard roof > base, roof < 2000 else { continue }
                    let color = Self.color(layer, "fill-extrusion-color", c, default: StyleColor(red: 0, green: 0, blue: 0))
                    var patternImage: PatternImage?
                    if case .string(let name)? = layer.property("fill-extrusion-pattern")?.evaluate(c), !name.isEmpty {
                        // A feature whose image is missing is not drawn, as MapLibre leaves it out.
                        guard let found = image(layer, name) else { continue }
                        patternImage = found
                    }
                    for polygon in feature.polygons {
                        let ring = feature.part(polygon[0]), b = ring.startIndex
                        let count = ring.count / 2
                        guard count >= 3, count <= 1000 else { continue }
                        // Clipped to the tile (buffers repeat the building in the neighbour).
                        var inside = false
                        for k in 0..<count where ring[b + 2 * k] >= 0 && ring[b + 2 * k] < extent && ring[b + 2 * k + 1] >= 0 && ring[b + 2 * k + 1] < extent { inside = true; break }
                        guard inside else { continue }
                        // The footprint, then its courtyards (a polygon's further rings), as
                        // many as fit in a building's vertices.
                        var rings: [(start: Int, count: Int)] = [(b, count)]
                        var vertices = count
                        for hole in polygon.dropFirst() {
                            let h = feature.part(hole)
                            guard h.count / 2 >= 3, vertices + h.count / 2 <= Building.maxVertices else { continue }
                            rings.append((h.startIndex, h.count / 2))
                            vertices += h.count / 2
                        }
                        func geographic(_ ring: (start: Int, count: Int)) -> [(latitude: Double, longitude: Double)] {
                            (0..<ring.count).map {
                                Self.geographic(id, extent: data.extent, Double(feature.coordinates[ring.start + 2 * $0]) + shift.0,
                                                Double(feature.coordinates[ring.start + 2 * $0 + 1]) + shift.1)
                            }
                        }
                        var building = BasemapBuilding(footprint: geographic(rings[0]), base: base, roof: roof,
                                                       color: SIMD3(color.red * 255, color.green * 255, color.blue * 255), featureID: feature.id)
                        building.holes = rings.dropFirst().map(geographic)
                        building.opacity = opacity
                        if case .bool(false)? = layer.property("fill-extrusion-vertical-gradient")?.evaluate(c) { building.verticalGradient = false }
                        if let patternImage {
                            // The corners in world pixels at the pattern's zoom, moved by whole
                            // patterns near the origin (small numbers, the same texels).
                            let scale = 512 * pow(2, patternZoom - Double(id.z)) / Double(data.extent)
                            let ox = Double(id.x * data.extent) * scale, oy = Double(id.y * data.extent) * scale
                            let w = Double(patternImage.width), h = Double(patternImage.height)
                            let first = SIMD2(ox + (Double(feature.coordinates[b]) + shift.0) * scale, oy + (Double(feature.coordinates[b + 1]) + shift.1) * scale)
                            let whole = SIMD2((first.x / w).rounded(.down) * w, (first.y / h).rounded(.down) * h)
                            var roofCoordinates: [SIMD2<Double>] = []
                            var along: [[Double]] = []
                            for r in rings {
                                let corners = (0..<r.count).map {
                                    SIMD2(ox + (Double(feature.coordinates[r.start + 2 * $0]) + shift.0) * scale,
                                          oy + (Double(feature.coordinates[r.start + 2 * $0 + 1]) + shift.1) * scale) - whole
                                }
                                var distances = [0.0]
                                for k in 0..<r.count {
                                    let d = corners[(k + 1) % r.count] - corners[k]
                                    distances.append(distances[k] + (d.x * d.x + d.y * d.y).squareRoot())
                                }
                                roofCoordinates += corners
                                along.append(distances)
                            }
                            // Up a wall, MapLibre's 2^z / 65,536 pixels a metre.
                            building.pattern = BuildingPattern(image: patternImage, roof: roofCoordinates, along: along, upward: pow(2, patternZoom) / 65_536,
                                                               ringSizes: rings.map(\.count))
                        }
                        out.append(building)
                    }
                }
            }
        }
        return out
    }
}

/// How a signed-distance icon is coloured: `icon-color`, the halo's colour, width and blur
/// (screen pixels), at `icon-size`.
struct SDFLook: Hashable {
    var color: StyleColor, halo: StyleColor, haloWidth: Double, haloBlur: Double, size: Double
}

struct SDFKey: Hashable {
    var name: String, look: SDFLook
}

extension Basemap {
    /// Most pixels of signed-distance icons one view colours (each look of each icon once).
    public static let maxSDFPixels = 16 << 20
    /// Most pixels of images set in labels' texts in one view (each label's drawn from its own
    /// copy of its images).
    public static let maxInlineImagePixels = 16 << 20

    /// A signed-distance icon coloured as MapLibre's SDF shader colours it: each pixel's alpha
    /// is a distance d (0…1, the edge at 0.75, 8 units a screen pixel at icon-size 1); the fill
    /// is `icon-color` at smoothstep(0.75 − γ, 0.75 + γ, d), γ = 0.105 / size; under it the halo,
    /// at smoothstep(b − γh, b + γh, d), b = (6 − halo width / size) / 8,
    /// γh = (halo blur · 1.19 / 8 + 0.105) / size. Premultiplied, the fill over the halo.
    static func sdfIcon(_ field: Pixmap, _ look: SDFLook) -> Pixmap {
        var out = Pixmap(width: field.width, height: field.height)!
        let gamma = 0.105 / look.size
        let haloOn = look.haloWidth > 0 && look.halo.alpha > 0
        let haloBuffer = (6 - look.haloWidth / look.size) / 8, haloGamma = (look.haloBlur * 1.19 / 8 + 0.105) / look.size
        /// A colour premultiplied, 0…1.
        func premultiplied(_ c: StyleColor) -> SIMD4<Double> {
            let a = min(1, max(0, c.alpha))
            return SIMD4(min(1, max(0, c.red)) * a, min(1, max(0, c.green)) * a, min(1, max(0, c.blue)) * a, a)
        }
        let fill = premultiplied(look.color), halo = premultiplied(look.halo)
        for i in 0..<(field.width * field.height) {
            let d = Double(field.data[i * 4 + 3]) / 255
            let top = fill * smoothstep(0.75 - gamma, 0.75 + gamma, d)
            let under = haloOn ? halo * smoothstep(haloBuffer - haloGamma, haloBuffer + haloGamma, d) : .zero
            let rgba = ((top + under * (1 - top.w)) * 255).rounded(.toNearestOrAwayFromZero)
            for k in 0..<4 { out.data[i * 4 + k] = UInt8(min(255, max(0, rgba[k]))) }
        }
        return out
    }
}
