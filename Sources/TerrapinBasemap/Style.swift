// The MapLibre Style Specification, the part Terrapin draws: sources (vector, raster,
// raster-dem, geojson), layers background / fill / line / symbol / raster / fill-extrusion / hillshade,
// filters, zoom ranges, visibility and the paint and layout properties the
// common styles use. What else a style holds is warned about once and skipped, never fatal; a
// style that is not one (not JSON, no layers, a layer without an id) is a `BasemapError.style`.
import TerrapinIO
import TerrapinNet
import Terrapin3D
import TerrapinImagery
import TerrapinTerrainData

public struct BasemapStyle: Sendable {
    public struct Source: Sendable, Equatable {
        public enum Kind: String, Sendable { case vector, raster, rasterDEM = "raster-dem", geojson, image }
        /// A GeoJSON source's `data`: the object itself, or a file or URL naming it.
        public enum Data: Sendable, Equatable { case inline(JSONNode), file(String) }
        public var kind: Kind
        /// A local archive path or XYZ template (`pmtiles://`, `mbtiles://` and `file://`
        /// stripped, relative to the style's folder); nil when the scene supplies the tiles.
        public var location: String?
        public var tileSize: Int
        public var minZoom: Int?, maxZoom: Int?
        public var attribution: String?
        /// The remote URL the style gave: the scene's tiles stand in for a vector source, its
        /// imagery for a raster one; otherwise it is read (http and https only).
        public var remote: String?
        /// A raster-dem source's `encoding`: "mapbox" (Terrain-RGB, the default) or "terrarium".
        public var encoding: String = "mapbox"
        /// A GeoJSON source's data, its tiles' buffer (512ths of a tile) and whether features
        /// are numbered as their ids.
        public var data: Data?
        public var buffer = 128.0
        public var generateID = false
        /// `lineMetrics`: the source's lines know how far along each point is (`line-gradient`).
        public var lineMetrics = false
        /// A `tiles` URL with no {z}, {x} or {y}: MapLibre asks for that one file for every tile.
        public var repeated = false
        /// `bounds` [west, south, east, north]: tiles wholly outside are not read, as MapLibre
        /// requests none there. Nil: the whole world.
        public var bounds: [Double]?
        /// An image source's corners (top left, top right, bottom right, bottom left: longitude,
        /// latitude); its image file is `location`.
        public var corners: [[Double]] = []
        /// `promoteId`: the property that stands for a feature's id (for `feature-state` and
        /// `["id"]`), by source layer ("" for every layer).
        public var promoteId: [String: String] = [:]
        /// A GeoJSON source's clustering (`cluster`: true) and `filter`.
        public var cluster: ClusterOptions?
        public var filter: SourceFilter?
    }

    /// A GeoJSON source's `filter`: the expression, and its JSON (what two sources compare by).
    public struct SourceFilter: Sendable, Equatable {
        public let expression: StyleExpression
        public let json: String
        public static func == (a: SourceFilter, b: SourceFilter) -> Bool { a.json == b.json }
    }

    public enum LayerKind: String, Sendable, CaseIterable {
        case background, fill, line, symbol, raster, hillshade, fillExtrusion = "fill-extrusion", circle, heatmap, sky
    }

    public struct Layer: Sendable {
        public let id: String
        public let kind: LayerKind
        public let source: String?
        public let sourceLayer: String?
        public let minZoom: Double, maxZoom: Double
        public let filter: StyleExpression?
        public let visible: Bool
        /// Paint and layout properties together (their names do not overlap).
        public private(set) var properties: [String: StyleExpression]
        /// What the layer's filter's answers are kept by (`FilterAnswers`): the filter's own
        /// number, unique to this parse of it, and whether it reads the zoom. Nil without a
        /// filter, or for one reading a feature's state (the scene's, not the tile's).
        let filterMemo: (id: Int, readsZoom: Bool)?

        init(id: String, kind: LayerKind, source: String?, sourceLayer: String?, minZoom: Double, maxZoom: Double, filter: StyleExpression?, visible: Bool,
             properties: [String: StyleExpression]) {
            self.id = id; self.kind = kind; self.source = source; self.sourceLayer = sourceLayer
            self.minZoom = minZoom; self.maxZoom = maxZoom; self.filter = filter; self.visible = visible; self.properties = properties
            filterMemo = filter.flatMap { $0.readsFeatureState ? nil : (FilterAnswers.newFilterID(), $0.readsZoom) }
        }

        public func property(_ name: String) -> StyleExpression? { properties[name] }

        /// The layer with its properties' `image` expressions given the sprite's names (an
        /// object of them), its filter's memo kept.
        func resolvingImages(_ known: StyleValue) -> Layer {
            guard properties.values.contains(where: { $0.contains { if case .call("image", _) = $0 { true } else { false } } }) else { return self }
            var copy = self
            copy.properties = properties.mapValues { $0.resolvingImages(known) }
            return copy
        }

        /// Whether the layer draws at `zoom` (minzoom inclusive, maxzoom exclusive).
        /// Whether the layer is drawn at `zoom`: within [minzoom, maxzoom). A zoom within 10⁻⁶ of a
        /// whole zoom is taken as it (a view's zoom comes from its camera's range, a few ulps off:
        /// zoom 0 must not read as −10⁻¹⁰ and hide every layer starting at 0).
        public func shows(at zoom: Double) -> Bool {
            let whole = zoom.rounded()
            let z = abs(zoom - whole) < 1e-6 ? whole : zoom
            return visible && z >= minZoom && z < maxZoom
        }
    }

    public var name: String?
    public var sources: [String: Source]
    public var layers: [Layer]

    /// The style with every `image` expression given the names of `sprite`'s images, so that
    /// one the sprite lacks gives null, as MapLibre's does (a `coalesce` of images falls back
    /// past it).
    func resolvingImages(_ sprite: SpriteSheet) -> BasemapStyle {
        let known = StyleValue.object(Dictionary(sprite.icons.keys.map { ($0, StyleValue.bool(true)) }, uniquingKeysWith: { a, _ in a }))
        var copy = self
        copy.layers = layers.map { $0.resolvingImages(known) }
        return copy
    }
    /// What was read and skipped (each once), for stderr and `inspect`.
    public var warnings: [String]
    /// The style's file (for messages), or "roadmap" / "hybrid" for the built-ins.
    public var file: String
    /// The sprite sheet's local base path (`…/sprite` for `sprite.json` and `sprite.png`).
    public var sprite: String?
    /// A `sprite` array's other sheets (local base paths), by id: their icons are named
    /// "id:name" (the "default" sheet is `sprite`, its icons unprefixed).
    public var extraSprites: [(id: String, path: String)] = []
    /// The root `light`, which lights the `fill-extrusion`s (MapLibre's default when absent;
    /// literal values are read, an expression is warned about and its default kept).
    public var light = ExtrusionLight.standard
    /// The root `sky`'s `sky-color` and `horizon-color` (expressions of the zoom), where the
    /// style gives them: the colours above the horizon, at the top and at the horizon.
    public var sky: [String: StyleExpression] = [:]
    /// Features' states (`feature-state`), as the scene gives them (`featureState`).
    public var featureStates = FeatureStates()
    /// Images added to the sprite by the scene (`images`), as MapLibre's `addImage` adds
    /// them: each named icon (or pattern) replaces the sprite's own of that name.
    public var addedImages: [AddedImage] = []

    /// A source's `promoteId`: a property name for every layer, or one per source layer.
    static func promoteId(_ node: JSONNode?) -> [String: String] {
        switch node?.value {
        case .string(let name)?: return ["": name]
        case .object(let members)?:
            var byLayer: [String: String] = [:]
            for m in members.prefix(1000) { if case .string(let name) = m.value.value { byLayer[m.key] = name } }
            return byLayer
        default: return [:]
        }
    }

    /// Properties drawn, by layer kind; the rest are warned about.
    static let supported: [LayerKind: Set<String>] = [
        .background: ["background-color", "background-opacity", "background-pattern"],
        .fill: ["fill-color", "fill-opacity", "fill-outline-color", "fill-antialias", "fill-translate", "fill-translate-anchor", "fill-pattern", "fill-sort-key"],
        // line-round-limit: round joins are always round.
        .line: ["line-color", "line-width", "line-opacity", "line-dasharray", "line-cap", "line-join", "line-miter-limit",
                "line-round-limit", "line-gap-width", "line-translate", "line-translate-anchor", "line-offset", "line-pattern", "line-gradient", "line-blur", "line-sort-key"],
        // Labels and icons are kept upright (keep-upright) and face the viewer, except that a
        // line's label follows it unless text-rotation-alignment is "viewport", and lies flat on
        // the map under pitch unless text-pitch-alignment is "viewport"; a point's text and icon
        // collide each by its own box (text-padding, icon-padding), either showing alone where
        // text-optional or icon-optional allows. symbol-avoid-edges: MapLibre applies it only
        // where it renders one tile at a time (Native's tile mode); a whole view collides its
        // labels across tiles, as MapLibre's static and continuous maps do, and it changes
        // nothing there.
        .symbol: ["text-field", "text-font", "text-size", "text-color", "text-halo-color", "text-halo-width", "text-halo-blur", "text-opacity",
                  "text-transform", "text-max-width", "text-line-height", "text-anchor", "text-offset", "symbol-placement", "symbol-spacing", "text-max-angle", "text-letter-spacing", "text-padding", "text-justify", "symbol-sort-key",
                  "text-allow-overlap", "text-optional", "icon-optional", "text-keep-upright", "text-rotation-alignment",
                  "text-pitch-alignment", "icon-image", "icon-size", "text-ignore-placement", "icon-allow-overlap", "icon-ignore-placement",
                  "icon-opacity", "icon-rotate", "text-translate", "text-translate-anchor", "icon-text-fit", "icon-text-fit-padding", "icon-rotation-alignment",
                  "icon-color", "icon-halo-color", "icon-halo-width", "icon-halo-blur", "text-variable-anchor", "text-variable-anchor-offset", "text-radial-offset", "icon-anchor", "icon-offset", "symbol-z-order", "text-rotate", "icon-translate", "icon-translate-anchor", "text-overlap", "icon-overlap", "text-writing-mode", "icon-padding", "symbol-avoid-edges", "icon-keep-upright", "icon-pitch-alignment"],
        // raster-fade-duration: a still image has no fade.
        .raster: ["raster-opacity", "raster-fade-duration", "raster-brightness-min", "raster-brightness-max", "raster-contrast", "raster-saturation", "raster-hue-rotate"],
        .hillshade: ["hillshade-illumination-direction", "hillshade-illumination-anchor", "hillshade-exaggeration", "hillshade-shadow-color",
                     "hillshade-highlight-color", "hillshade-accent-color"],
        .fillExtrusion: ["fill-extrusion-color", "fill-extrusion-height", "fill-extrusion-base", "fill-extrusion-opacity",
                         "fill-extrusion-translate", "fill-extrusion-translate-anchor", "fill-extrusion-pattern", "fill-extrusion-vertical-gradient"],
        .circle: ["circle-radius", "circle-color", "circle-blur", "circle-opacity", "circle-translate", "circle-translate-anchor",
                  "circle-pitch-scale", "circle-pitch-alignment", "circle-stroke-width", "circle-stroke-color", "circle-stroke-opacity", "circle-sort-key"],
        .heatmap: ["heatmap-radius", "heatmap-weight", "heatmap-intensity", "heatmap-color", "heatmap-opacity"],
        .sky: [],
    ]
    /// Array-valued properties the spec interpolates (the rest step: dashes, fonts, anchors).
    static let interpolatedArrays: Set<String> = ["text-offset", "icon-offset", "icon-text-fit-padding", "fill-translate", "line-translate", "fill-extrusion-translate",
                                                  "circle-translate", "text-translate", "icon-translate"]
    static let arrayValued: Set<String> = ["line-dasharray", "text-font", "icon-padding", "text-offset", "icon-offset", "text-variable-anchor", "text-variable-anchor-offset", "icon-text-fit-padding", "fill-translate", "line-translate", "fill-extrusion-translate", "circle-translate", "text-translate", "icon-translate", "text-writing-mode"]

    /// Reads a style. `file` names it in messages; sources' relative paths resolve from
    /// `directory`.
    public static func parse(_ bytes: [UInt8], file: String, directory: String) throws(BasemapError) -> BasemapStyle {
        let root: JSONNode
        do { root = try JSONParser.parse(bytes) } catch {
            throw .style(file: file, path: "$", location: error.location, message: "\(error.message); a style is a MapLibre style JSON object")
        }
        func failure(_ path: String, _ node: JSONNode?, _ message: String) -> BasemapError {
            .style(file: file, path: path, location: node?.location, message: message)
        }
        guard case .object(let top) = root.value else { throw failure("$", root, "a style is a JSON object with \"version\", \"sources\" and \"layers\"") }
        func member(_ members: [JSONMember], _ key: String) -> JSONNode? { members.first { $0.key == key }?.value }
        var warnings: [String] = []
        var warned: Set<String> = []
        func warn(_ text: String) { if warned.insert(text).inserted { warnings.append(text) } }
        // The style's global state (`state`: each name's `default`), which `global-state`
        // expressions read; a name the style does not declare reads null.
        var globalState: [String: StyleValue] = [:]
        if let state = member(top, "state"), case .object(let names) = state.value {
            for name in names.prefix(10_000) {
                if case .object(let spec) = name.value.value, let value = member(spec, "default") { globalState[name.key] = StyleExpressionParser.literal(value) }
            }
        }
        /// A style read from a server names nothing on this machine: its paths, absolute ones
        /// too, are on its server (as a browser resolves them), and `file://` is refused.
        let fromServer = NetworkAccess.isURL(directory)
        let serverFolder = fromServer ? try? URLText(directory + "/") : nil
        /// A local URL or path as a file path: `file://` dropped, relative to the style's folder;
        /// for a style from a server, a URL on its server (nil for `file://`, with a warning).
        func localPath(_ url: String) -> String? {
            if fromServer {
                guard !url.hasPrefix("file://"), let serverFolder else {
                    warn("'\(String(url.prefix(200)))' names a file on this machine, which a style read from a server may not; it is left out")
                    return nil
                }
                return serverFolder.resolving(url)
            }
            let path = url.hasPrefix("file://") ? String(url.dropFirst(7)) : url
            return path.hasPrefix("/") ? path : directory + "/" + path
        }

        var sources: [String: Source] = [:]
        if let s = member(top, "sources") {
            guard case .object(let list) = s.value else { throw failure("$.sources", s, "\"sources\" is an object of named sources") }
            for m in list {
                let path = "$.sources.\(m.key)"
                guard case .object(let fields) = m.value.value else { throw failure(path, m.value, "a source is an object with a \"type\"") }
                guard let t = member(fields, "type"), case .string(let type) = t.value else { throw failure(path + ".type", m.value, "a source needs a \"type\"") }
                guard let kind = Source.Kind(rawValue: type) else {
                    warn("source '\(m.key)' is of type \"\(type)\", which Terrapin does not draw; its layers are skipped")
                    continue
                }
                if kind == .image {
                    // An image laid on the map by its four corners.
                    guard let u = member(fields, "url"), case .string(let url) = u.value, !url.isEmpty,
                          let c = member(fields, "coordinates"), case .array(let list) = c.value, list.count == 4 else {
                        warn("source '\(m.key)': an image source needs a \"url\" and four \"coordinates\"; its layers are not drawn")
                        continue
                    }
                    let corners = list.compactMap { node -> [Double]? in
                        guard case .array(let pair) = node.value, pair.count == 2, case .number(let lon) = pair[0].value, case .number(let lat) = pair[1].value,
                              lon.isFinite, lat.isFinite, abs(lon) <= 540, abs(lat) <= 85.051129 else { return nil }
                        return [lon, lat]
                    }
                    guard corners.count == 4 else {
                        warn("source '\(m.key)': an image source's \"coordinates\" are four [longitude, latitude] pairs within Web Mercator's latitudes; its layers are not drawn")
                        continue
                    }
                    guard !NetworkAccess.isURL(url) else {
                        warn("source '\(m.key)': image \(String(url.prefix(200))) is remote, which an image source does not read; its layers are not drawn")
                        continue
                    }
                    guard let file = localPath(url) else { continue }
                    var source = Source(kind: .image, location: file, tileSize: 512, minZoom: nil, maxZoom: nil)
                    source.corners = corners
                    if let a = member(fields, "attribution"), case .string(let text) = a.value { source.attribution = text }
                    sources[m.key] = source
                    continue
                }
                if kind == .geojson {
                    var source = Source(kind: .geojson, location: nil, tileSize: 512, minZoom: nil, maxZoom: nil)
                    switch member(fields, "data")?.value {
                    case .object?: source.data = .inline(member(fields, "data")!)
                    case .string(let d)?:
                        guard let file = NetworkAccess.isURL(d) ? d : localPath(d) else { continue }
                        source.data = .file(file)
                    default:
                        warn("source '\(m.key)': a GeoJSON source needs \"data\" (a GeoJSON object, or a file or URL); its layers are not drawn")
                        continue
                    }
                    if let z = member(fields, "maxzoom"), case .number(let v) = z.value, v >= 0, v <= 24 { source.maxZoom = Int(v) }
                    if let b = member(fields, "buffer"), case .number(let v) = b.value, v >= 0, v <= 512 { source.buffer = v }
                    if let g = member(fields, "generateId"), case .bool(let v) = g.value { source.generateID = v }
                    source.promoteId = Self.promoteId(member(fields, "promoteId"))
                    if let m = member(fields, "lineMetrics"), case .bool(let v) = m.value { source.lineMetrics = v }
                    if let a = member(fields, "attribution"), case .string(let text) = a.value { source.attribution = text }
                    if let c = member(fields, "cluster"), case .bool(true) = c.value {
                        var options = ClusterOptions()
                        if let r = member(fields, "clusterRadius"), case .number(let v) = r.value, v >= 0, v <= 10_000 { options.radius = v }
                        if let z = member(fields, "clusterMaxZoom"), case .number(let v) = z.value, v >= 0, v <= 24 { options.maxZoom = Int(v) }
                        if let n = member(fields, "clusterMinPoints"), case .number(let v) = n.value, v >= 2, v <= 1e9 { options.minPoints = Int(v) }
                        if let list = member(fields, "clusterProperties"), case .object(let entries) = list.value {
                            for entry in entries.prefix(64) {
                                guard case .array(let pair) = entry.value.value, pair.count == 2, let map = try? StyleExpressionParser.value(pair[1]) else {
                                    warn("source '\(m.key)': cluster property '\(entry.key)' is not [reducer, expression]; left out")
                                    continue
                                }
                                if case .string(let op) = pair[0].value, ["+", "*", "max", "min", "all", "any"].contains(op) {
                                    options.properties.append(ClusterOptions.Property(name: entry.key, map: map, reduce: op))
                                } else if case .array(let r) = pair[0].value, StyleExpressionParser.isOperator(r.first), let reducer = try? StyleExpressionParser.value(pair[0]) {
                                    // A reducer of ["accumulated"] and ["get", name], e.g. ["+", ["accumulated"], ["get", "sum"]].
                                    options.properties.append(ClusterOptions.Property(name: entry.key, map: map, reduce: "", reducer: reducer))
                                } else {
                                    warn("source '\(m.key)': cluster property '\(entry.key)': its reducer is neither one of +, *, max, min, all, any nor an expression of [\"accumulated\"] and [\"get\", name]; left out")
                                }
                            }
                        }
                        source.cluster = options
                    }
                    if let f = member(fields, "filter") {
                        do { source.filter = SourceFilter(expression: try StyleExpressionParser.value(f), json: "\(f.value)") } catch {
                            warn("source '\(m.key)': its filter: \(error.message); every feature is kept")
                        }
                    }
                    sources[m.key] = source
                    continue
                }
                var location: String?, remote: String?, repeated = false
                if let u = member(fields, "url"), case .string(let url) = u.value { location = url }
                if let t = member(fields, "tiles"), case .array(let list) = t.value, let first = list.first, case .string(let template) = first.value {
                    location = template
                    repeated = !template.contains("{z}") && !template.contains("{x}") && !template.hasSuffix(".pmtiles") && !template.hasSuffix(".mbtiles")
                }
                if let l = location {
                    if l.hasPrefix("http://") || l.hasPrefix("https://") || l.hasPrefix("mapbox://") {
                        // The scene's tiles stand in (the Basemap warns if there are none).
                        remote = l
                        location = nil
                    } else {
                        for prefix in ["pmtiles://", "mbtiles://"] where l.hasPrefix(prefix) { location = String(l.dropFirst(prefix.count)) }
                        if let p = location, NetworkAccess.isURL(p) {
                            // pmtiles://https://…: a remote archive.
                            remote = p
                            location = nil
                        } else if let p = location {
                            // (A style from a server: its archive on the server, drawn as a local one is.)
                            guard let file = localPath(p) else { continue }
                            location = file
                        }
                    }
                }
                func int(_ key: String) -> Int? {
                    guard let n = member(fields, key), case .number(let v) = n.value, v >= 0, v <= 30 else { return nil }
                    return Int(v)
                }
                var tileSize = kind == .vector ? 512 : 512
                if let n = member(fields, "tileSize"), case .number(let v) = n.value, [128.0, 256, 512, 1024].contains(v) { tileSize = Int(v) }
                var attribution: String?
                if let a = member(fields, "attribution"), case .string(let text) = a.value { attribution = text }
                sources[m.key] = Source(kind: kind, location: location, tileSize: tileSize, minZoom: int("minzoom"), maxZoom: int("maxzoom"),
                                        attribution: attribution, remote: remote)
                sources[m.key]?.repeated = repeated && location != nil
                sources[m.key]?.promoteId = Self.promoteId(member(fields, "promoteId"))
                if let b = member(fields, "bounds"), case .array(let items) = b.value {
                    let values = items.compactMap { item -> Double? in if case .number(let v) = item.value, v.isFinite { v } else { nil } }
                    if values.count == 4, values[0] < values[2], values[1] < values[3] {
                        sources[m.key]?.bounds = [max(-180, values[0]), max(-90, values[1]), min(180, values[2]), min(90, values[3])]
                    } else {
                        warn("source '\(m.key)': bounds are [west, south, east, north] in degrees; they are ignored")
                    }
                }
                if let e = member(fields, "encoding"), case .string(let encoding) = e.value {
                    if ["mapbox", "terrarium"].contains(encoding) { sources[m.key]?.encoding = encoding }
                    else { warn("source '\(m.key)': encoding \"\(encoding)\" is not known (mapbox or terrarium); mapbox is used") }
                }
            }
        }
        // `sprite`: one sheet's URL, or an array of {id, url}: the "default" sheet is the sprite
        // (remote or local), the others local sheets whose icons are named "id:name".
        var sprite: String?
        var extraSprites: [(id: String, path: String)] = []
        var sheets: [(id: String, url: String)] = []
        switch member(top, "sprite")?.value {
        case nil: break
        case .string(let url)?: sheets = [("default", url)]
        case .array(let items)?:
            for item in items.prefix(16) {
                guard case .object(let f) = item.value, let i = member(f, "id"), case .string(let id) = i.value,
                      let u = member(f, "url"), case .string(let url) = u.value, !id.isEmpty else {
                    warn("a \"sprite\" entry needs an \"id\" and a \"url\"; it is left out")
                    continue
                }
                sheets.append((id, url))
            }
        default: warn("\"sprite\" is not a string; icons are not drawn")
        }
        for (id, url) in sheets {
            if id == "default", NetworkAccess.isURL(url) {
                // Read from the server by the load stage (the hosts the render allows).
                sprite = url
            } else if url.contains("://"), !url.hasPrefix("file://") {
                warn(id == "default" ? "\"sprite\" is remote (\(url)): icons are not drawn"
                                     : "sprite '\(id)' is remote (\(url)), which only the default sprite may be; its icons are not drawn")
            } else if let path = localPath(url) {
                if id == "default" { sprite = path } else { extraSprites.append((id, path)) }
            }
        }
        if let g = member(top, "glyphs") {
            if case .string(let url) = g.value {
                if url.contains("://"), !url.hasPrefix("file://") { warn("\"glyphs\" is remote (\(url)): labels use the local fonts fontconfig finds") }
            } else {
                warn("\"glyphs\" is not a string; labels use the local fonts")
            }
        }
        guard let l = member(top, "layers"), case .array(let layerNodes) = l.value else {
            throw failure("$.layers", member(top, "layers") ?? root, "a style needs \"layers\": an array of layer objects")
        }
        guard layerNodes.count <= 10_000 else { throw failure("$.layers", l, "\(layerNodes.count) layers is more than 10000") }
        var layers: [Layer] = []
        var ids: Set<String> = []
        for (i, node) in layerNodes.enumerated() {
            let path = "$.layers[\(i)]"
            guard case .object(let fields) = node.value else { throw failure(path, node, "a layer is an object") }
            guard let idNode = member(fields, "id"), case .string(let id) = idNode.value, !id.isEmpty else { throw failure(path + ".id", node, "a layer needs a string \"id\"") }
            guard ids.insert(id).inserted else { throw failure(path + ".id", idNode, "layer id '\(id)' is used twice") }
            guard let typeNode = member(fields, "type"), case .string(let type) = typeNode.value else { throw failure(path + ".type", node, "layer '\(id)' needs a \"type\"") }
            guard let kind = LayerKind(rawValue: type) else { throw failure(path + ".type", typeNode, "layer '\(id)' has type \"\(type)\", which is not a MapLibre layer type") }
            if kind == .sky { warn("layer '\(id)': \(type) layers are not drawn; skipped") }
            var source: String?, sourceLayer: String?
            if let s = member(fields, "source"), case .string(let v) = s.value { source = v }
            if let s = member(fields, "source-layer"), case .string(let v) = s.value { sourceLayer = v }
            if kind == .hillshade, let s = source, let k = sources[s]?.kind, k != .rasterDEM {
                warn("layer '\(id)': hillshade layers need a raster-dem source; '\(s)' is \(k.rawValue); not drawn")
            }
            func zoom(_ key: String, _ fallback: Double) -> Double {
                guard let n = member(fields, key), case .number(let v) = n.value else { return fallback }
                return v
            }
            var filter: StyleExpression?
            var skip = false
            if let f = member(fields, "filter") {
                do { filter = try StyleExpressionParser.filter(f).resolvingGlobalState(globalState) } catch {
                    warn("layer '\(id)': filter at line \(error.location.line): \(error.message); the layer is skipped")
                    skip = true
                }
            }
            var properties: [String: StyleExpression] = [:]
            var visible = true
            for group in ["paint", "layout"] {
                guard let g = member(fields, group) else { continue }
                guard case .object(let props) = g.value else { throw failure("\(path).\(group)", g, "\"\(group)\" is an object of properties") }
                for p in props {
                    if p.key == "visibility" {
                        if case .string(let v) = p.value.value { visible = v != "none" }
                        continue
                    }
                    guard Self.supported[kind]?.contains(p.key) ?? false else {
                        if kind != .sky { warn("layer '\(id)': \(group) property \"\(p.key)\" is not drawn by Terrapin; ignored") }
                        continue
                    }
                    do {
                        let value = try StyleExpressionParser.value(p.value, arrayValued: arrayValued.contains(p.key), interpolatesArrays: interpolatedArrays.contains(p.key))
                            .resolvingGlobalState(globalState)
                        // A colour's CSS text parsed once here, not at every feature it colours.
                        properties[p.key] = p.key.hasSuffix("-color") ? value.withColourOutputs : value
                    } catch {
                        warn("layer '\(id)': \(p.key) at line \(error.location.line): \(error.message); the default is used")
                    }
                }
            }
            if skip { continue }
            if kind != .background, let s = source, sources[s] == nil {
                warn("layer '\(id)' reads source '\(s)', which the style does not define (or Terrapin does not draw); skipped")
                continue
            }
            layers.append(Layer(id: id, kind: kind, source: source, sourceLayer: sourceLayer, minZoom: zoom("minzoom", 0), maxZoom: zoom("maxzoom", 24),
                                filter: filter, visible: visible, properties: properties))
        }
        var name: String?
        if let n = member(top, "name"), case .string(let v) = n.value { name = v }
        let light = member(top, "light").map { Self.light($0, warn: warn) } ?? .standard
        var sky: [String: StyleExpression] = [:]
        if let s = member(top, "sky") {
            if case .object(let members) = s.value {
                for m in members {
                    guard m.key == "sky-color" || m.key == "horizon-color" else {
                        warn("sky \"\(m.key)\" is not drawn by Terrapin; ignored")
                        continue
                    }
                    do { sky[m.key] = try StyleExpressionParser.value(m.value) } catch {
                        warn("sky \(m.key) at line \(error.location.line): \(error.message); the default is used")
                    }
                }
            } else {
                warn("\"sky\" is not an object; ignored")
            }
        }
        var style = BasemapStyle(name: name, sources: sources, layers: layers, warnings: warnings, file: file, sprite: sprite)
        style.extraSprites = extraSprites
        style.light = light
        style.sky = sky
        return style
    }

    /// The root `light`'s literal members; anything else is warned about and its default kept.
    static func light(_ node: JSONNode, warn: (String) -> Void) -> ExtrusionLight {
        var light = ExtrusionLight.standard
        guard case .object(let members) = node.value else {
            warn("\"light\" is not an object; MapLibre's default light is used")
            return light
        }
        for m in members {
            let skipped = "light \"\(m.key)\" is not a literal Terrapin reads; the default is used"
            switch (m.key, m.value.value) {
            case ("anchor", .string(let a)) where a == "map" || a == "viewport": light.anchoredToMap = a == "map"
            case ("position", .array(let items)) where items.count == 3:
                let values = items.compactMap { item -> Double? in if case .number(let v) = item.value, v.isFinite { v } else { nil } }
                if values.count == 3, values[0] >= 0 { light.position = SIMD3(values[0], values[1], values[2]) } else { warn(skipped) }
            case ("color", .string(let text)):
                if let c = CSSColor.parse(text) { light.color = SIMD3(c.red, c.green, c.blue) } else { warn(skipped) }
            case ("intensity", .number(let v)) where v.isFinite && v >= 0 && v <= 1: light.intensity = v
            default: warn(skipped)
            }
        }
        return light
    }
}

/// An image added to a style's sprite (MapLibre's `map.addImage`): its name, its PNG, JPEG or
/// WebP file, its pixel ratio (image pixels per style pixel, 0.25…8) and whether it is a signed
/// distance field (coloured by `icon-color`).
public struct AddedImage: Sendable, Equatable {
    public var name: String
    public var file: String
    public var pixelRatio: Double
    public var sdf: Bool
    public init(name: String, file: String, pixelRatio: Double = 1, sdf: Bool = false) {
        (self.name, self.file, self.pixelRatio, self.sdf) = (name, file, pixelRatio, sdf)
    }
}
