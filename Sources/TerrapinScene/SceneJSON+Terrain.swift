// Terrain (a file, elevation tiles or inline samples) and imagery (an image with bounds, a
// GeoTIFF or raster tiles) in scene files: each a table of its members (SceneFields.swift), whose
// check applies the rules of its modes and makes the spec the loader reads.
import TerrapinIO
import TerrapinGeo
import TerrapinImagery
import TerrapinRaster
import TerrapinTerrainData
import TerrapinTypography
import TerrapinViews

/// A terrain object as written: its members, before the mode they make (a file, tiles or inline
/// samples) becomes a `TerrainSpec`.
struct TerrainMembers: Sendable {
    var file: String?
    var tiles: String?
    var encoding = ElevationEncoding.terrainrgb
    var columns: Int?
    var rows: Int?
    /// Every number read, within its range (nil when absent or when one of them is not).
    var bounds: [Double]?
    var samples: [Float]?
    var exaggeration = 1.0
    /// What the members make, set by the table's check.
    var spec: TerrainSpec?

    init() {}

    init(_ t: TerrainSpec) {
        if let inline = t.inline {
            columns = inline.columns
            rows = inline.rows
            bounds = inline.bounds
            samples = inline.samples
        } else {
            if t.tiles { tiles = t.file } else { file = t.file }
            encoding = t.encoding
            bounds = t.bounds
        }
        exaggeration = t.exaggeration
    }
}

/// An imagery object as written, before its mode (an image with bounds, a GeoTIFF or tiles)
/// becomes an `ImagerySpec`.
struct ImageryMembers: Sendable {
    var file: String?
    var tiles: String?
    var bounds: [Double]?
    var projection = Imagery.Projection.geographic
    var shading = 0.0
    var spec: ImagerySpec?

    init() {}

    init(_ i: ImagerySpec) {
        if i.tiles { tiles = i.file } else { file = i.file }
        bounds = i.bounds.isEmpty ? nil : i.bounds
        projection = i.projection
        shading = i.shading
    }
}

extension SceneTables {
    /// `[west, south, east, north]`: four numbers, longitudes and latitudes in their ranges.
    static func boundsRow<M: Sendable>(_ keyPath: WritableKeyPath<M, [Double]?> & Sendable, doc: String) -> Field<M> {
        .custom("bounds", schema: SceneSchema.fragment(##"{"type": "array", "minItems": 4, "maxItems": 4, "items": {"type": "number", "minimum": -180, "maximum": 180}}"##),
                type: "[west, south, east, north]", unit: "degrees", doc: doc,
                read: { r, node, path, m in m[keyPath: keyPath] = r.bounds(node, path) },
                write: { m in m[keyPath: keyPath].map { .array($0.map { .number($0) }) } })
    }

    static let terrain: ObjectTable<TerrainMembers> = ObjectTable<TerrainMembers>(
        name: "terrain",
        doc: "Heights: a file, elevation tiles stitched around the camera, or inline samples (columns × rows metres, north row first; bounds are the cells' outer edges).",
        initial: TerrainMembers(),
        composition: Composition(keyword: "oneOf",
                                 cases: SceneSchema.fragment(##"[{"required": ["file"]}, {"required": ["tiles"]}, {"required": ["columns", "rows", "bounds", "samples"]}]"##),
                                 text: "One of: a `file` (with `bounds` for a Terrarium PNG); `tiles` (with `encoding`); or inline `columns`, `rows`, `bounds` and `samples`."),
        fields: [
            .optionalFile("file", \.file, doc: ".asc, .hgt (or .hgt.zip, as SRTM tiles are served), a GeoTIFF .tif, or a Terrarium .png (which needs bounds)."),
            .optionalFile("tiles", \.tiles, type: "file or URL",
                          doc: "Elevation tiles: a .pmtiles or .mbtiles archive, or an XYZ template such as dem/{z}/{x}/{y}.png (or an http(s) URL of either, or of a TileJSON document), stitched around the camera."),
            .custom("encoding", schema: .object([("enum", .array(ElevationEncoding.allCases.map { .string($0.rawValue) }))]),
                    type: ElevationEncoding.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " | "), default: "\"terrainrgb\"",
                    doc: "How tiles encode heights: Mapbox Terrain-RGB or Terrarium. Only with tiles.",
                    read: { r, node, path, t in t.encoding = r.choice(node, path, default: t.encoding) },
                    write: { $0.tiles == nil ? nil : .string($0.encoding.rawValue) }),
            .optionalInteger("columns", \.columns, in: 2...HeightGrid.maxSamples, doc: "Inline samples: how many a row."),
            .optionalInteger("rows", \.rows, in: 2...HeightGrid.maxSamples, doc: "Inline samples: how many rows."),
            boundsRow(\.bounds, doc: "A Terrarium PNG's or the inline samples' outer edges, west < east and south < north."),
            .custom("samples", schema: SceneSchema.fragment(##"{"type": "array", "items": {"type": "number", "minimum": -100000, "maximum": 100000}}"##),
                    type: "array of numbers", unit: "metres", doc: "Inline heights, columns × rows of them, north row first.",
                    read: { r, node, path, t in t.samples = r.samples(node, path) },
                    write: { $0.samples.map { .numbers($0.map { Double($0) }) } }),
            .number("exaggeration", \.exaggeration, in: 0...100, initial: TerrainMembers(), doc: "Heights multiplied by this."),
        ],
        check: { r, node, path, t in t.spec = r.terrainMode(t, Members(node), node, path) })

    static let imagery: ObjectTable<ImageryMembers> = ObjectTable<ImageryMembers>(
        name: "imagery",
        doc: "An image, or raster tiles, draped on the ground in satellite and hybrid modes; relief shows where it is absent or transparent.",
        initial: ImageryMembers(),
        composition: Composition(keyword: "anyOf",
                                 cases: SceneSchema.fragment(##"[{"required": ["file", "bounds"]}, {"required": ["tiles"]}, {"required": ["file"], "properties": {"file": {"pattern": "\\.[tT][iI][fF][fF]?$"}}}]"##),
                                 text: "One of: `tiles`; a GeoTIFF `file`; or an image `file` with its `bounds` (and `projection`)."),
        fields: [
            .optionalFile("file", \.file, doc: "A PNG, JPEG or WebP of at most 33,554,432 pixels (with bounds), or a GeoTIFF (.tif, .tiff: EPSG:4326 or EPSG:3857; bounds and projection from the file)."),
            .optionalFile("tiles", \.tiles, type: "file or URL",
                          doc: "Raster tiles (PNG, JPEG or WebP): a .pmtiles or .mbtiles archive, or an XYZ template such as tiles/{z}/{x}/{y}.png ({-y} for TMS rows); or an http(s) URL of either, or of a TileJSON document."),
            boundsRow(\.bounds, doc: "The image's outer edges; west > east crosses the antimeridian."),
            .choice("projection", \.projection, initial: ImageryMembers(),
                    doc: "How the image's rows are spaced: evenly in latitude, or in Web Mercator y (XYZ tiles)."),
            .number("shading", \.shading, in: 0...1, initial: ImageryMembers(), doc: "How much the hillshade darkens the imagery."),
        ],
        check: { r, node, path, i in i.spec = r.imageryMode(i, Members(node), node, path) })
}

extension Members {
    /// An object node's members, unchecked (a table's check, after the reader checked them).
    init(_ node: JSONNode) {
        if case .object(let list) = node.value { self.init(list: list) } else { self.init(list: []) }
    }
}

extension Reader {
    /// Four numbers in degrees, each in its range; nil when absent or when any is not.
    mutating func bounds(_ node: JSONNode, _ path: String) -> [Double]? {
        guard let b = array(node, path, max: 4) else { return nil }
        let values = b.enumerated().compactMap { number($1, path + "[\($0)]", in: $0 % 2 == 0 ? -180...180 : -90...90, unit: $0 % 2 == 0 ? " of degrees of longitude" : " of degrees of latitude") }
        return values.count == b.count ? values : nil
    }

    /// Inline heights in metres.
    mutating func samples(_ node: JSONNode, _ path: String) -> [Float]? {
        guard let items = array(node, path, max: HeightGrid.maxSamples) else { return nil }
        var samples: [Float] = []
        samples.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard let v = number(item, path + "[\(i)]", in: -100_000...100_000, unit: " of metres") else { return nil }
            samples.append(Float(v))
        }
        return samples
    }

    /// The terrain a table's members make: inline samples, tiles or a file, each with the members
    /// it needs and none it cannot take.
    mutating func terrainMode(_ t: TerrainMembers, _ m: Members, _ node: JSONNode, _ path: String) -> TerrainSpec? {
        func ordered(_ b: [Double]) -> Bool { b.count == 4 && b[0] < b[2] && b[1] < b[3] }
        let boundsMessage = "expected [west, south, east, north] in degrees with west < east and south < north"
        if m["samples"] != nil || m["columns"] != nil || m["rows"] != nil {
            guard m["file"] == nil else {
                report(m["file"], path + ".file", "terrain has either a \"file\" or inline \"samples\", not both")
                return nil
            }
            guard m["columns"] != nil, m["rows"] != nil, m["samples"] != nil, m["bounds"] != nil else {
                report(node, path, "inline terrain needs \"columns\", \"rows\", \"bounds\": [west, south, east, north] and \"samples\"")
                return nil
            }
            guard let bounds = t.bounds, ordered(bounds) else {
                if t.bounds != nil { report(m["bounds"], path + ".bounds", boundsMessage) }
                return nil
            }
            guard let columns = t.columns, let rows = t.rows, columns >= 2, rows >= 2, let samples = t.samples else { return nil }
            guard samples.count == columns * rows else {
                report(m["samples"], path + ".samples", "expected columns × rows = \(columns * rows) samples, found \(samples.count)")
                return nil
            }
            var spec = TerrainSpec(file: "")
            spec.inline = InlineGrid(columns: columns, rows: rows, bounds: bounds, samples: samples)
            spec.exaggeration = t.exaggeration
            return spec
        }
        if m["tiles"] != nil {
            guard m["file"] == nil, m["bounds"] == nil else {
                report(m["file"] ?? m["bounds"], path, "terrain from \"tiles\" takes no \"file\" or \"bounds\" (the tiles say where they are)")
                return nil
            }
            guard let tiles = t.tiles else { return nil }
            var spec = TerrainSpec(file: tiles)
            spec.tiles = true
            spec.encoding = t.encoding
            spec.exaggeration = t.exaggeration
            return spec
        }
        if m["encoding"] != nil { report(m["encoding"], path + ".encoding", "\"encoding\" is for terrain \"tiles\"") }
        guard let file = t.file else {
            if m["file"] == nil { report(node, path, "terrain needs a \"file\" (.asc, .hgt, or a Terrarium .png with \"bounds\") or inline \"samples\"") }
            return nil
        }
        var spec = TerrainSpec(file: file)
        if let b = t.bounds {
            guard ordered(b) else { report(m["bounds"], path + ".bounds", boundsMessage); return nil }
            spec.bounds = b
        } else if m["bounds"] == nil, file.lowercased().hasSuffix(".png") {
            report(m["file"], path + ".file", "a Terrarium PNG needs \"bounds\": [west, south, east, north]")
        }
        spec.exaggeration = t.exaggeration
        return spec
    }

    /// The imagery a table's members make: tiles, a GeoTIFF, or an image with its bounds.
    mutating func imageryMode(_ i: ImageryMembers, _ m: Members, _ node: JSONNode, _ path: String) -> ImagerySpec? {
        if m["tiles"] != nil {
            guard m["file"] == nil, m["bounds"] == nil, m["projection"] == nil else {
                report(m["file"] ?? m["bounds"] ?? m["projection"], path, "imagery from \"tiles\" takes no \"file\", \"bounds\" or \"projection\" (tiles are Web Mercator and say where they are)")
                return nil
            }
            guard let tiles = i.tiles else { return nil }
            var spec = ImagerySpec(file: tiles, bounds: [])
            spec.tiles = true
            spec.shading = i.shading
            return spec
        }
        if let f = i.file, m["bounds"] == nil, f.lowercased().hasSuffix(".tif") || f.lowercased().hasSuffix(".tiff") {
            // A GeoTIFF says where it is.
            guard m["projection"] == nil else {
                report(m["projection"], path + ".projection", "a GeoTIFF's projection comes from the file")
                return nil
            }
            var spec = ImagerySpec(file: f, bounds: [])
            spec.shading = i.shading
            return spec
        }
        guard m["file"] != nil, m["bounds"] != nil else {
            report(node, path, "imagery needs \"tiles\" (a .pmtiles or .mbtiles archive, or an XYZ template), or a \"file\" (a PNG, JPEG or WebP) and its \"bounds\": [west, south, east, north]")
            return nil
        }
        guard let file = i.file, let values = i.bounds else { return nil }
        guard values.count == 4 else {
            report(m["bounds"], path + ".bounds", "expected four numbers: [west, south, east, north]")
            return nil
        }
        let maxLatitude = i.projection == .webMercator ? 85.051_128_78 : 90
        if !(values[1] < values[3]) || values[0] == values[2] || abs(values[1]) > maxLatitude || abs(values[3]) > maxLatitude {
            report(m["bounds"], path + ".bounds", "expected [west, south, east, north] with south < north" + (i.projection == .webMercator ? " within ±85.0511° (Web Mercator)" : "")
                   + " and west ≠ east (west > east crosses the antimeridian)")
            return nil
        }
        var spec = ImagerySpec(file: file, bounds: values)
        spec.projection = i.projection
        spec.shading = i.shading
        return spec
    }
}
