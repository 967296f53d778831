// A Swift-built map as scene data: `SceneFile(describing:output:)` and `MapScene(describing:)`
// turn `Map { Marker … }` into the values a scene file holds, so `SceneEncoder` can write it
// and reading it back renders the same pixels. Files are named as they were loaded (relative
// to `directory` when they lie under it); a height grid made in memory is written inline.
import TerrapinBasemap
import TerrapinGeo
import TerrapinRaster
import TerrapinImagery
import TerrapinViews

extension SceneFile {
    /// The scene file of `map` drawn at `output`; paths are made relative to `directory`, where
    /// the file will be saved. `notes` lists what was left out (tap actions, content shapes).
    public init(describing map: Map, output: OutputOptions = OutputOptions(), directory: String = ".",
                notes: inout [String]) throws(ViewSpecError) {
        self.init(output: output, map: try MapScene(describing: map, directory: directory, notes: &notes), directory: directory)
        time = map.time
    }

    public init(describing map: Map, output: OutputOptions = OutputOptions(), directory: String = ".") throws(ViewSpecError) {
        var notes: [String] = []
        try self.init(describing: map, output: output, directory: directory, notes: &notes)
    }
}

extension MapScene {
    public init(describing map: Map, directory: String = ".", notes: inout [String]) throws(ViewSpecError) {
        self.init()
        func file(_ path: String) -> String { relativePath(path, from: directory) }
        mode = map.mode
        camera = map.initialCamera ?? map.camera?.wrappedValue
        flights = map.flights
        if !map.triggeredFlights.isEmpty {
            notes.append("\(map.triggeredFlights.count) camera flight(s) started by a trigger: triggers are code, left out (scene files give flights a \"start\" time)")
        }
        // What SDK 1.0 maps declare in code that scene files have no field for.
        if !map.controls.isEmpty {
            notes.append("map controls at \(map.controls.map(\.position.rawValue).joined(separator: ", ")): scene files have no controls, left out")
        }
        if map.placeTapHandler != nil { notes.append("the map's onPlaceTap handler is code, left out") }
        if let language = map.labelLanguage {
            notes.append("the basemap labels' language \"\(language)\" is left out (a scene's \"locale\" sets it, and the markers' text language too)")
        }
        cameraRestriction = map.cameraRestriction
        attribution = map.attribution
        if let ground = map.groundTerrain {
            if let source = ground.grid.source {
                terrain = TerrainSpec(file: file(source.file), bounds: source.bounds, exaggeration: ground.exaggeration)
                if let encoding = source.tiles {
                    terrain?.tiles = true
                    terrain?.encoding = encoding
                }
            } else {
                terrain = TerrainSpec(file: "", exaggeration: ground.exaggeration)
                terrain?.inline = InlineGrid(ground.grid)
            }
        }
        if let imagery = map.imagery {
            guard let source = imagery.source else { throw ViewSpecError("imagery made in memory (save it as a PNG and use Imagery.load)") }
            if imagery.tiles != nil || source.lowercased().hasSuffix(".tif") || source.lowercased().hasSuffix(".tiff") {
                self.imagery = ImagerySpec(file: file(source), bounds: [], shading: imagery.shading, tiles: imagery.tiles?.source != nil)
            } else {
                self.imagery = ImagerySpec(file: file(source), bounds: [imagery.west, imagery.south, imagery.east, imagery.north],
                                           projection: imagery.projection, shading: imagery.shading)
            }
        }
        if let b = map.basemap {
            let style = b.style.map { BasemapStyle.builtinNames.contains($0.file) ? $0.file : file($0.file) }
            basemap = BasemapSpec(tiles: file(b.tiles.path), style: style)
        }
        if map.sun.azimuth != 315 || map.sun.altitude != 45 { sun = [map.sun.azimuth, map.sun.altitude] }
        if case .dimmed(let opacity) = map.occludedMarkers { dimmedOccludedOpacity = opacity }
        earth = map.earth
        buildings = map.buildings.map {
            BuildingSpec(footprint: $0.footprint, holes: $0.holes, base: $0.base, roof: $0.roof,
                         color: RGBA8(red: Self.byte($0.color.x), green: Self.byte($0.color.y), blue: Self.byte($0.color.z)))
        }
        labels = map.basemapLabels
        for item in map.items {
            switch item {
            case .marker(let m): markers.append(try MarkerSpec(describing: m, directory: directory, notes: &notes))
            case .polyline(let p):
                polylines.append(PolylineSpec(describing: p))
                if p.tapAction != nil { notes.append("polyline \(polylines.count - 1): its onTap handler is code, left out") }
            case .polygon(let p):
                polygons.append(PolygonSpec(describing: p))
                if p.tapAction != nil { notes.append("polygon \(polygons.count - 1): its onTap handler is code, left out") }
            case .model(let m):
                var spec = ModelSpec(position: m.position, file: file(m.url.path))
                spec.altitudeMode = m.altitudeMode
                spec.zIndex = Int(m.zIndex)
                spec.scale = m.scale
                spec.orientation = m.orientation
                models.append(spec)
                if m.tapAction != nil { notes.append("model \(models.count - 1): its onTap handler is code, left out") }
            }
        }
    }

    static func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
}

extension MarkerSpec {
    init(describing m: Marker, directory: String, notes: inout [String]) throws(ViewSpecError) {
        self.init(position: m.position)
        altitudeMode = m.altitudeMode
        collisionBehavior = m.collisionBehavior
        collisionPriority = m.collisionPriority
        zIndex = m.zIndex
        anchor = m.anchor
        if m.isPopoverAnchor {
            kind = .popover
            guard let p = m.popover else { return }
            popover = try PopoverSpec(describing: p, directory: directory, notes: &notes)
            popoverOffset = p.offset
            return
        }
        if let light = m.lightweight {
            kind = .marker3D
            extruded = light.extruded
            drawsWhenOccluded = light.drawsWhenOccluded
            sizePreserved = light.sizePreserved
            label = light.label
            switch light.style.kind {
            case .default: style = .default
            case .pin(let c): style = .pin(try PinSpec(describing: c, notes: &notes))
            case .image(let image):
                guard case .image(let spec) = try ViewSpec(describing: image).content else { throw ViewSpecError("a Marker3D image") }
                style = .image(spec.relative(to: directory))
            case .viewSnapshot(let view): style = .view(try ViewSpec(describing: view, notes: &notes).relative(to: directory))
            }
            return
        }
        if !m.isDefaultPin { content = try ViewSpec(describing: m.content, notes: &notes).relative(to: directory) }
        if let p = m.popover { popover = try PopoverSpec(describing: p, directory: directory, notes: &notes) }
    }
}

extension PopoverSpec {
    init(describing p: MarkerPopover, directory: String, notes: inout [String]) throws(ViewSpecError) {
        let d = PopoverStyle.Shadow()
        guard p.style.shadow.color == d.color, p.style.shadow.radius == d.radius, p.style.shadow.x == d.x, p.style.shadow.y == d.y else {
            throw ViewSpecError("a popover shadow other than the default")
        }
        self.init(content: try ViewSpec(describing: p.content, notes: &notes).relative(to: directory))
        isOpen = p.isOpen.wrappedValue
        autoClose = p.autoClosedEnabled
        autoPan = p.autoPanEnabled
        padding = p.style.padding
        backgroundColor = p.style.backgroundColor
        cornerRadius = p.style.borderRadius
    }
}

extension ViewSpec {
    /// The same view with image files named relative to `directory`.
    func relative(to directory: String) -> ViewSpec {
        var v = self
        switch content {
        case .image(let i): v.content = .image(i.relative(to: directory))
        case .pin(let p): v.content = .pin(p.relative(to: directory))
        case .vstack(let a, let s, let c): v.content = .vstack(alignment: a, spacing: s, children: c.map { $0.relative(to: directory) })
        case .hstack(let a, let s, let c): v.content = .hstack(alignment: a, spacing: s, children: c.map { $0.relative(to: directory) })
        case .zstack(let a, let c): v.content = .zstack(alignment: a, children: c.map { $0.relative(to: directory) })
        default: break
        }
        v.modifiers = modifiers.map {
            switch $0 {
            case .background(let b): .background(b.relative(to: directory))
            case .overlay(let o): .overlay(o.relative(to: directory))
            default: $0
            }
        }
        return v
    }
}

extension ImageSpec {
    func relative(to directory: String) -> ImageSpec {
        var i = self
        i.file = file.map { relativePath($0, from: directory) }
        return i
    }
}

extension PinSpec {
    func relative(to directory: String) -> PinSpec {
        var p = self
        p.glyph = glyph?.relative(to: directory)
        return p
    }
}

/// `path` as seen from `directory`: unchanged when relative already or unrelated to it; else
/// with the common leading directories removed and `..` for each one left in `directory`.
func relativePath(_ path: String, from directory: String) -> String {
    guard path.hasPrefix("/"), directory.hasPrefix("/") else { return path }
    let p = path.split(separator: "/"), d = directory.split(separator: "/")
    var common = 0
    while common < min(p.count - 1, d.count), p[common] == d[common] { common += 1 }
    guard common > 0 else { return path }
    return (Array(repeating: "..", count: d.count - common) + p[common...].map(String.init)).joined(separator: "/")
}
