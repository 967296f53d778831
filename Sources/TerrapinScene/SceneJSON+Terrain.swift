// Terrain (a file or inline samples) and imagery in scene files (MapScene → JSON writes them in
// SceneJSON+Map.swift, with the rest of the map).
import TerrapinIO
import TerrapinGeo
import TerrapinRaster
import TerrapinTerrainData
import TerrapinTypography
import TerrapinViews

extension Reader {

    mutating func terrain(_ node: JSONNode, _ path: String) -> TerrainSpec? {
        guard let m = object(node, path, allowed: ["file", "tiles", "encoding", "bounds", "exaggeration", "columns", "rows", "samples"]) else { return nil }
        if m["samples"] != nil || m["columns"] != nil || m["rows"] != nil { return inlineTerrain(m, node, path) }
        if m["tiles"] != nil {
            guard m["file"] == nil, m["bounds"] == nil else {
                report(m["file"] ?? m["bounds"], path, "terrain from \"tiles\" takes no \"file\" or \"bounds\" (the tiles say where they are)")
                return nil
            }
            guard let file = fileName(m["tiles"], path + ".tiles") else { return nil }
            var spec = TerrainSpec(file: file)
            spec.tiles = true
            spec.encoding = choice(m["encoding"], path + ".encoding", default: .terrainrgb)
            if let e = number(m["exaggeration"], path + ".exaggeration", in: 0...100) { spec.exaggeration = e }
            return spec
        }
        if m["encoding"] != nil { report(m["encoding"], path + ".encoding", "\"encoding\" is for terrain \"tiles\"") }
        guard let file = fileName(m["file"], path + ".file") else {
            if m["file"] == nil { report(node, path, "terrain needs a \"file\" (.asc, .hgt, or a Terrarium .png with \"bounds\") or inline \"samples\"") }
            return nil
        }
        var spec = TerrainSpec(file: file)
        if let b = array(m["bounds"], path + ".bounds", max: 4) {
            let values = b.enumerated().compactMap { number($1, path + ".bounds[\($0)]", in: $0 % 2 == 0 ? -180...180 : -90...90, unit: $0 % 2 == 0 ? " of degrees of longitude" : " of degrees of latitude") }
            if values.count == 4, values[0] < values[2], values[1] < values[3] {
                spec.bounds = values
            } else if values.count == b.count {
                report(m["bounds"], path + ".bounds", "expected [west, south, east, north] in degrees with west < east and south < north")
            }
        } else if file.lowercased().hasSuffix(".png") {
            report(m["file"], path + ".file", "a Terrarium PNG needs \"bounds\": [west, south, east, north]")
        }
        if let e = number(m["exaggeration"], path + ".exaggeration", in: 0...100) { spec.exaggeration = e }
        return spec
    }


    mutating func imagery(_ node: JSONNode, _ path: String) -> ImagerySpec? {
        guard let m = object(node, path, allowed: ["file", "tiles", "bounds", "projection", "shading"]) else { return nil }
        if m["tiles"] != nil {
            guard m["file"] == nil, m["bounds"] == nil, m["projection"] == nil else {
                report(m["file"] ?? m["bounds"] ?? m["projection"], path, "imagery from \"tiles\" takes no \"file\", \"bounds\" or \"projection\" (tiles are Web Mercator and say where they are)")
                return nil
            }
            guard let file = fileName(m["tiles"], path + ".tiles") else { return nil }
            var spec = ImagerySpec(file: file, bounds: [])
            spec.tiles = true
            if let s = number(m["shading"], path + ".shading", in: 0...1) { spec.shading = s }
            return spec
        }
        if case .string(let f)? = m["file"]?.value, m["bounds"] == nil, f.lowercased().hasSuffix(".tif") || f.lowercased().hasSuffix(".tiff") {
            // A GeoTIFF says where it is.
            guard m["projection"] == nil else {
                report(m["projection"], path + ".projection", "a GeoTIFF's projection comes from the file")
                return nil
            }
            var spec = ImagerySpec(file: f, bounds: [])
            if let s = number(m["shading"], path + ".shading", in: 0...1) { spec.shading = s }
            return spec
        }
        guard m["file"] != nil, m["bounds"] != nil else {
            report(node, path, "imagery needs \"tiles\" (a .pmtiles or .mbtiles archive, or an XYZ template), or a \"file\" (a PNG, JPEG or WebP) and its \"bounds\": [west, south, east, north]")
            return nil
        }
        guard let file = fileName(m["file"], path + ".file"), let b = array(m["bounds"], path + ".bounds", max: 4) else { return nil }
        let values = b.enumerated().compactMap { number($1, path + ".bounds[\($0)]", in: $0 % 2 == 0 ? -180...180 : -90...90, unit: $0 % 2 == 0 ? " of degrees of longitude" : " of degrees of latitude") }
        guard values.count == 4 else {
            if values.count == b.count { report(m["bounds"], path + ".bounds", "expected four numbers: [west, south, east, north]") }
            return nil
        }
        var spec = ImagerySpec(file: file, bounds: values)
        spec.projection = choice(m["projection"], path + ".projection", default: .geographic)
        let maxLatitude = spec.projection == .webMercator ? 85.051_128_78 : 90
        if !(values[1] < values[3]) || values[0] == values[2] || abs(values[1]) > maxLatitude || abs(values[3]) > maxLatitude {
            report(m["bounds"], path + ".bounds", "expected [west, south, east, north] with south < north" + (spec.projection == .webMercator ? " within ±85.0511° (Web Mercator)" : "")
                   + " and west ≠ east (west > east crosses the antimeridian)")
            return nil
        }
        if let s = number(m["shading"], path + ".shading", in: 0...1) { spec.shading = s }
        return spec
    }


    /// `{"columns": c, "rows": r, "bounds": [w, s, e, n], "samples": [c × r metres, north row first]}`.
    mutating func inlineTerrain(_ m: Members, _ node: JSONNode, _ path: String) -> TerrainSpec? {
        guard m["file"] == nil else {
            report(m["file"], path + ".file", "terrain has either a \"file\" or inline \"samples\", not both")
            return nil
        }
        guard m["columns"] != nil, m["rows"] != nil, m["samples"] != nil, m["bounds"] != nil else {
            report(node, path, "inline terrain needs \"columns\", \"rows\", \"bounds\": [west, south, east, north] and \"samples\"")
            return nil
        }
        let columns = integer(m["columns"], path + ".columns", in: 2...HeightGrid.maxSamples, default: 0)
        let rows = integer(m["rows"], path + ".rows", in: 2...HeightGrid.maxSamples, default: 0)
        let bounds = (array(m["bounds"], path + ".bounds", max: 4) ?? []).enumerated().compactMap { number($1, path + ".bounds[\($0)]", in: $0 % 2 == 0 ? -180...180 : -90...90, unit: $0 % 2 == 0 ? " of degrees of longitude" : " of degrees of latitude") }
        guard bounds.count == 4, bounds[0] < bounds[2], bounds[1] < bounds[3] else {
            report(m["bounds"], path + ".bounds", "expected [west, south, east, north] in degrees with west < east and south < north")
            return nil
        }
        guard columns >= 2, rows >= 2, let items = array(m["samples"], path + ".samples", max: HeightGrid.maxSamples) else { return nil }
        guard items.count == columns * rows else {
            report(m["samples"], path + ".samples", "expected columns × rows = \(columns * rows) samples, found \(items.count)")
            return nil
        }
        var samples: [Float] = []
        samples.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard let v = number(item, path + ".samples[\(i)]", in: -100_000...100_000, unit: " of metres") else { return nil }
            samples.append(Float(v))
        }
        var spec = TerrainSpec(file: "")
        spec.inline = InlineGrid(columns: columns, rows: rows, bounds: bounds, samples: samples)
        if let e = number(m["exaggeration"], path + ".exaggeration", in: 0...100) { spec.exaggeration = e }
        return spec
    }
}
