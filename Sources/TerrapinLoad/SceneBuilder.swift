// load: scene data → a `Map` and its views (the other direction, a `Map` → scene data, is
// `SceneFile(describing:)` in TerrapinScene's MapDescription.swift). This module is the load stage
// between decode (TerrapinScene, which reads the scene file only) and resolve (TerrapinRender,
// which reads none); MapFiles.swift does the same for maps built in Swift (`MapLoader`).
//
// Design contract
// - Owns: every file a scene names — height grids, elevation and raster tiles, GeoTIFFs,
//   imagery, basemap styles and sprites, glTF models, images — opened through the scene's
//   `FileAccess` (confined beneath `--root` when given) and kept by `AssetCache.shared` (one
//   budget for every kind, drawn basemaps among them; tiles drawn from archives are kept by
//   `TileCache.shared`, below).
// - May not: project, place, collide or draw; it hands resolve a `Map` of loaded values.
// - Errors are `LoadError`s naming the file; a file that cannot be opened at all is found
//   first by the preflight in `PreparedScene`, which names the scene's JSON path too.
// - The archives and sprites a basemap style names are opened here, when this stage first makes
//   the drawn basemap (TerrapinScene's `DrawnBasemap`, kept in `AssetCache.shared`), through
//   the `open` closure and file rules it gives `MapBasemap`. Not yet here: the preflight, which
//   lives in TerrapinRender.
import Foundation
import TerrapinBasemap
import TerrapinGeo
import TerrapinRaster
import TerrapinIO
import TerrapinModels
import Terrapin3D
import TerrapinImagery
import TerrapinTerrain
import TerrapinTerrainData
import TerrapinTiles
import TerrapinTypography
import TerrapinScene
import TerrapinViews


/// What height grids, grounds of elevation tiles (per camera: their finer levels follow it)
/// and imagery cost `AssetCache.shared`, which keeps them for every scene naming the same
/// unchanged file.
enum AssetCost {
    static func grid(_ grid: HeightGrid) -> Int { grid.samples.count * 4 }
    static func ground(_ ground: TerrainGround) -> Int { ground.levels.reduce(0) { $0 + $1.samples.count * 4 } }
    static func imagery(_ imagery: Imagery) -> Int { imagery.byteCount }
}

/// Tile archives opened once per process — by canonical path, size and modification time (an
/// XYZ template by its text) — with their TileImagery, so directories are read and the tile
/// size probed once, and decoded tiles are shared in `TileCache.shared`. At most 64 archives
/// are kept; beyond that each scene opens its own.
final class OpenTileSource: @unchecked Sendable {
    let source: any TileSource
    /// Made on first use; guarded by `openTileSources`' lock.
    var imagery: TileImagery?
    init(_ source: any TileSource) { self.source = source }
}
let openTileSources = Locked<[String: OpenTileSource]>([:])
let maxOpenTileSources = 64

func tileSource(_ file: String, files: FileAccess) throws(LoadError) -> any TileSource {
    // An archive by what it is (opened through `files`); a template by its text and the rules
    // its tiles are opened under.
    let key = NetworkAccess.isURL(file) ? "url|\(files.network)|" + file : file.contains("{z}") ? "xyz|\(files)|" + file : files.identity(file)
    if let key, let hit = openTileSources.withLock({ $0[key] }) { return hit.source }
    let source: any TileSource
    do throws(TileError) { source = try TileSources.open(file, files: files) } catch { throw LoadError.tiles(error) }
    guard let key else { return source }
    return openTileSources.withLock { (open: inout [String: OpenTileSource]) -> any TileSource in
        if let raced = open[key] { return raced.source }
        if open.count < maxOpenTileSources { open[key] = OpenTileSource(source) }
        return source
    }
}

/// `body`'s terrain error as the load stage's.
func loadingTerrain<T>(_ body: () throws(TerrainError) -> T) throws(LoadError) -> T {
    do { return try body() } catch { throw .terrain(error) }
}

/// The source's TileImagery, made once for each kept source.
func tileImagery(_ source: any TileSource) throws(LoadError) -> TileImagery {
    let kept = openTileSources.withLock { (open: inout [String: OpenTileSource]) -> OpenTileSource? in
        open.values.first { $0.source === source }
    }
    if let imagery = openTileSources.withLock({ _ in kept?.imagery }) { return imagery }
    let made = try loadingTerrain { () throws(TerrainError) in try TileImagery(source: source) }
    guard let kept else { return made }
    return openTileSources.withLock { _ -> TileImagery in
        if let existing = kept.imagery { return existing }
        kept.imagery = made
        return made
    }
}

public struct SceneBuilder {
    public let directory: String
    /// How every file the scene names is opened (confined beneath `--root`, or anywhere).
    public let files: FileAccess
    /// The map's language (MapScene.locale), set on every view the builder makes for it.
    var locale: String? = nil
    /// Device pixels per point of the image the map is drawn into, when known: a basemap's
    /// sprite is its 1x sheet at 1, as MapLibre picks it by the pixel ratio; nil (a map whose
    /// output is not known yet) or 2 and more: its @2x sheet where there is one.
    public var pixelRatio: Int? = nil

    public init(directory: String, files: FileAccess = .unrestricted) {
        (self.directory, self.files) = (directory, files)
    }

    /// A file the scene names, relative to the scene's folder (a URL as it is).
    public func path(_ file: String) -> String {
        file.hasPrefix("/") || directory.isEmpty || NetworkAccess.isURL(file) ? file : directory + "/" + file
    }

    public func map(_ spec: MapScene) throws(LoadError) -> Map {
        var localized = self
        localized.locale = spec.locale
        let markers = spec.markers.map(localized.marker)
        var map = spec.camera.map { Map(initialCamera: $0, mode: spec.mode) } ?? Map(mode: spec.mode)
        // The map's language names its basemap's labels too ("fr-FR": `name:fr`).
        map.labelLanguage = spec.locale.flatMap { $0.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } }
        map.items = spec.polygons.flatMap(\.polygon.items) + spec.polylines.flatMap(\.polyline.items) + markers.flatMap { $0 }
        for m in spec.models {
            // A model that cannot be read is an error of the scene (a Swift-built one is listed hidden).
            let asset: ModelAsset
            do throws(ModelError) { asset = try Model.load(path(m.file), files: files) } catch { throw LoadError.model(error) }
            map.items.append(.model(Model(position: m.position, asset: asset, altitudeMode: m.altitudeMode, zIndex: Int32(m.zIndex),
                                          scale: m.scale, orientation: m.orientation).with(url: m.file)))
        }
        for g in spec.geojson { map.items += try GeoJSON.items(path: path(g.file), file: g.file, defaults: g.style, files: files) }
        if let terrain = spec.terrain, let inline = terrain.inline {
            // The decoder checked counts and bounds, so the grid is valid.
            if let grid = inline.grid { map = map.terrain(grid, exaggeration: terrain.exaggeration) }
        } else if let terrain = spec.terrain, terrain.tiles {
            // Finer zooms nested near the camera (`TileTerrain.ground`), kept per camera.
            let file = path(terrain.file)
            let camera = spec.camera
            let area = camera.map(Self.area(around:))
            let key = camera.map { c in
                [c.center.latitude, c.center.longitude, c.center.altitude, c.heading, c.tilt, c.roll, c.range, c.fieldOfView.degrees]
                    .map { String($0) }.joined(separator: ",") + ",\(c.altitudeMode)"
            } ?? ""
            let ground = try AssetCache.shared.value("terrain", file, variant: "tiles \(terrain.encoding) \(key) \(terrain.exaggeration)", files: files, cost: AssetCost.ground) { () throws(LoadError) in
                let source = try tileSource(file, files: files)
                return try loadingTerrain { () throws(TerrainError) in
                    try TileTerrain.ground(source, encoding: terrain.encoding, area: area, camera: camera, exaggeration: terrain.exaggeration).ground
                }
            }
            map = map.terrain(ground)
        } else if let terrain = spec.terrain {
            let file = path(terrain.file)
            let grid = try AssetCache.shared.value("height grid", file, variant: "\(terrain.bounds ?? [])", files: files, cost: AssetCost.grid) { () throws(LoadError) in
                try loadingTerrain { () throws(TerrainError) in
                    guard let b = terrain.bounds else { return try GridLoader.load(file, files: files) }
                    let bytes: [UInt8]
                    do throws(FileError) { bytes = try files.read(file, limit: GridLoader.maxFileBytes) } catch { throw TerrainError.file(error) }
                    return try GridLoader.terrarium(bytes, name: file, west: b[0], south: b[1], east: b[2], north: b[3])
                }
            }
            map = map.terrain(grid, exaggeration: terrain.exaggeration)
        }
        if let spec = spec.imagery, spec.tiles {
            let source = try tileSource(path(spec.file), files: files)
            map = map.imagery(Imagery(tiles: try tileImagery(source), shading: spec.shading))
        } else if let spec = spec.imagery, spec.bounds.isEmpty {
            // A GeoTIFF: bounds and projection from the file.
            let file = path(spec.file)
            map = map.imagery(try AssetCache.shared.value("imagery", file, variant: "geotiff \(spec.shading)", files: files, cost: AssetCost.imagery) { () throws(LoadError) in
                try loadingTerrain { () throws(TerrainError) in try GeoTIFF.imagery(file, shading: spec.shading, files: files) }
            })
        } else if let spec = spec.imagery {
            let file = path(spec.file)
            let b = spec.bounds
            map = map.imagery(try AssetCache.shared.value("imagery", file, variant: "\(b) \(spec.projection) \(spec.shading)", files: files, cost: AssetCost.imagery) { () throws(LoadError) in
                try loadingTerrain { () throws(TerrainError) in
                    try Imagery.load(file, west: b[0], south: b[1], east: b[2], north: b[3], projection: spec.projection, shading: spec.shading, files: files)
                }
            })
        }
        if let b = spec.basemap {
            let source = try tileSource(path(b.tiles), files: files)
            var style: BasemapStyle?
            if let file = b.style { style = try Map.loadStyle(BasemapStyle.builtin(file) != nil ? file : path(file), files: files) }
            let files = files
            var basemap = MapBasemap(tiles: source, style: style, files: files, open: { file throws(LoadError) in try tileSource(file, files: files) })
            basemap.featureStates = b.featureStates
            basemap.images = b.images.map { var image = $0; image.file = path($0.file); return image }
            basemap.retinaSprite = (pixelRatio ?? 2) > 1
            map = map.basemap(basemap)
            // A style that cannot be drawn (a source it names is missing) is an error now, not a
            // blank map later.
            do { _ = try DrawnBasemap.for(map.basemap!, mode: map.mode, imagery: map.imagery) } catch let e as LoadError { throw e } catch {
                throw LoadError.basemap(String(describing: error))
            }
        }
        if let sun = spec.sun { map = map.sun(azimuth: sun[0], altitude: sun[1]) }
        map.flights = spec.flights
        map.cameraRestriction = spec.cameraRestriction
        map.attribution = spec.attribution
        if !spec.labels.isEmpty { map = map.basemapLabels(spec.labels) }
        if !spec.buildings.isEmpty {
            // The decoder has checked every field, so each makes a Building.
            map = map.buildings(spec.buildings.compactMap { b in
                var building = Building(footprint: b.footprint, base: b.base, roof: b.roof,
                                        color: SIMD3(Double(b.color.red), Double(b.color.green), Double(b.color.blue)))
                building?.holes = b.holes
                return building
            })
        }
        if let opacity = spec.dimmedOccludedOpacity { map = map.occludedMarkers(.dimmed(opacity: opacity)) }
        map.earth = spec.earth
        return map
    }

    /// The ground a camera can see, for choosing terrain tiles: its centre ± four times its
    /// range (at least 5 km, at most 300 km), as [west, south, east, north].
    public static func area(around camera: Camera) -> [Double] {
        let r = min(300_000, max(5_000, 4 * camera.range))
        let lat = camera.center.latitude
        let dLat = r / 111_132, dLon = r / max(1_000, 111_320 * cos(lat * Double.pi / 180))
        return [max(-180, camera.center.longitude - dLon), max(-85, lat - dLat), min(180, camera.center.longitude + dLon), min(85, lat + dLat)]
    }

    func marker(_ spec: MarkerSpec) -> [MapItem] {
        switch spec.kind {
        case .marker3D:
            let style: Marker3D.Style = switch spec.style {
            case .default: .default
            case .pin(let pin): .pin(configuration(pin))
            case .image(let image): .image(self.image(image))
            case .view(let view): .viewSnapshot(inLocale(self.view(view)))
            }
            return Marker3D(position: spec.position, altitudeMode: spec.altitudeMode, collisionBehavior: spec.collisionBehavior,
                            extruded: spec.extruded, drawsWhenOccluded: spec.drawsWhenOccluded, sizePreserved: spec.sizePreserved,
                            zIndex: spec.zIndex, label: spec.label, style: style).items
        case .marker:
            let isOpen = State(initialValue: spec.popover?.isOpen ?? false)
            var content = inLocale(spec.content.map { view($0) } ?? AnyView(Pin()))
            if spec.tapTogglesPopover {
                let open = isOpen.projectedValue
                let animation = spec.popover?.animation
                content = AnyView(content.onTapGesture { withAnimation(animation) { open.wrappedValue.toggle() } })
            }
            var marker = Marker(position: spec.position, altitudeMode: spec.altitudeMode, collisionBehavior: spec.collisionBehavior,
                                collisionPriority: spec.collisionPriority, zIndex: spec.zIndex, anchor: spec.anchor) { content }
            if let p = spec.popover {
                let body = inLocale(view(p.content))
                marker = marker.popover(isOpen: isOpen.projectedValue, autoClosedEnabled: p.autoClose, autoPanEnabled: p.autoPan,
                                        style: PopoverStyle(padding: p.padding, backgroundColor: p.backgroundColor, borderRadius: p.cornerRadius)) { body }
            }
            return marker.items
        case .popover:
            guard let p = spec.popover else { return [] }
            let isOpen = State(initialValue: p.isOpen)
            let body = inLocale(view(p.content))
            return Popover(positionAnchor: spec.position, altitudeMode: spec.altitudeMode, isOpen: isOpen.projectedValue, offset: spec.popoverOffset,
                           autoClosedEnabled: p.autoClose, autoPanEnabled: p.autoPan,
                           style: PopoverStyle(padding: p.padding, backgroundColor: p.backgroundColor, borderRadius: p.cornerRadius)) { body }.items
        }
    }

    /// A view in the map's language, when the scene names one.
    func inLocale(_ view: AnyView) -> AnyView {
        guard let locale else { return view }
        return AnyView(view.environment(\.locale, Locale(identifier: locale)))
    }

    func configuration(_ pin: PinSpec) -> Pin.Configuration {
        if let glyph = pin.glyph {
            let g = view(glyph)
            return Pin.Configuration(backgroundColor: pin.background, borderColor: pin.border, glyphColor: pin.glyphColor, scale: pin.scale) { g }
        }
        return Pin.Configuration(backgroundColor: pin.background, borderColor: pin.border, glyphColor: pin.glyphColor, scale: pin.scale)
    }

    func image(_ spec: ImageSpec) -> Image {
        if let name = spec.systemName { return Image(systemName: name) }
        return Image(contentsOfFile: path(spec.file ?? ""), files: files)
    }

    public func view(_ spec: ViewSpec) -> AnyView {
        var result: AnyView
        switch spec.content {
        case .text(let text): result = AnyView(Text(text))
        case .image(let image): result = AnyView(self.image(image))
        case .pin(let pin): result = AnyView(Pin(configuration: configuration(pin)))
        case .color(let color): result = AnyView(color)
        case .shape(let kind, let fill, let stroke, let lineWidth):
            result = shape(kind, fill: fill, stroke: stroke, lineWidth: lineWidth)
        case .spacer(let minLength): result = AnyView(Spacer(minLength: minLength))
        case .vstack(let alignment, let spacing, let children):
            let views = children.map(view)
            result = AnyView(VStack(alignment: alignment, spacing: spacing) { ForEach(views.indices, id: \.self) { views[$0] } })
        case .hstack(let alignment, let spacing, let children):
            let views = children.map(view)
            result = AnyView(HStack(alignment: alignment, spacing: spacing) { ForEach(views.indices, id: \.self) { views[$0] } })
        case .zstack(let alignment, let children):
            let views = children.map(view)
            result = AnyView(ZStack(alignment: alignment) { ForEach(views.indices, id: \.self) { views[$0] } })
        }
        var applied: [ModifierSpec] = []
        for modifier in spec.modifiers {
            if case .appearAnimation(let animation, let from) = modifier {
                // The content with the modifiers so far, built again for "before" and "after".
                result = AnyView(AppearAnimation(spec: ViewSpec(spec.content, modifiers: applied), animation: animation, from: from, builder: self))
                applied = [modifier]
                continue
            }
            result = apply(modifier, to: result, content: spec.content)
            applied.append(modifier)
        }
        return result
    }

    func shape(_ kind: ShapeKind, fill: Color?, stroke: Color?, lineWidth: Double) -> AnyView {
        func styled<S: Shape>(_ s: S) -> AnyView {
            switch (fill, stroke) {
            case (let f?, let st?): AnyView(s.fill(f).overlay(s.stroke(st, lineWidth: lineWidth)))
            case (nil, let st?): AnyView(s.stroke(st, lineWidth: lineWidth))
            case (let f?, nil): AnyView(s.fill(f))
            case (nil, nil): AnyView(s)   // filled with the foreground colour, as in SwiftUI
            }
        }
        switch kind {
        case .rectangle: return styled(Rectangle())
        case .capsule: return styled(Capsule())
        case .circle: return styled(Circle())
        case .ellipse: return styled(Ellipse())
        case .roundedRectangle(let r): return styled(RoundedRectangle(cornerRadius: r))
        }
    }

    func apply(_ modifier: ModifierSpec, to view: AnyView, content: ViewSpec.Content) -> AnyView {
        switch modifier {
        case .font(let spec): return AnyView(view.font(Font(spec)))
        case .fontWeight(let w): return AnyView(view.fontWeight(w))
        case .bold: return AnyView(view.bold())
        case .italic: return AnyView(view.italic())
        case .foregroundStyle(let c): return AnyView(view.foregroundStyle(c))
        case .lineLimit(let n): return AnyView(view.lineLimit(n))
        case .multilineTextAlignment(let a): return AnyView(view.multilineTextAlignment(a))
        case .minimumScaleFactor(let f): return AnyView(view.minimumScaleFactor(f))
        case .imageScale(let s): return AnyView(view.imageScale(s))
        case .locale(let id): return AnyView(view.environment(\.locale, Locale(identifier: id)))
        case .frame(let width, let height, let minWidth, let maxWidth, let minHeight, let maxHeight, let alignment):
            if minWidth == nil && maxWidth == nil && minHeight == nil && maxHeight == nil {
                return AnyView(view.frame(width: width, height: height, alignment: alignment))
            }
            return AnyView(view.frame(minWidth: minWidth, idealWidth: width, maxWidth: maxWidth, minHeight: minHeight, idealHeight: height,
                                      maxHeight: maxHeight, alignment: alignment))
        case .padding(let insets): return AnyView(view.padding(insets))
        case .fixedSize: return AnyView(view.fixedSize())
        case .offset(let x, let y): return AnyView(view.offset(x: x, y: y))
        case .background(let spec): return AnyView(view.background(self.view(spec)))
        case .overlay(let spec): return AnyView(view.overlay(self.view(spec)))
        case .clipShape(let kind):
            switch kind {
            case .rectangle: return AnyView(view.clipShape(Rectangle()))
            case .capsule: return AnyView(view.clipShape(Capsule()))
            case .circle: return AnyView(view.clipShape(Circle()))
            case .ellipse: return AnyView(view.clipShape(Ellipse()))
            case .roundedRectangle(let r): return AnyView(view.clipShape(RoundedRectangle(cornerRadius: r)))
            }
        case .cornerRadius(let r): return AnyView(view.cornerRadius(r))
        case .border(let c, let width): return AnyView(view.border(c, width: width))
        case .shadow(let color, let radius, let x, let y): return AnyView(view.shadow(color: color, radius: radius, x: x, y: y))
        case .opacity(let o): return AnyView(view.opacity(o))
        case .scaleEffect(let s): return AnyView(view.scaleEffect(s))
        case .rotationEffect(let d): return AnyView(view.rotationEffect(.degrees(d)))
        case .resizable:
            // Only an image itself can be made resizable (the decoder checks it comes first).
            if case .image(let spec) = content { return AnyView(image(spec).resizable()) }
            return view
        case .aspectRatio(let r, let mode): return AnyView(view.aspectRatio(r, contentMode: mode))
        case .accessibilityLabel(let l): return AnyView(view.accessibilityLabel(l))
        case .appearAnimation: return view   // handled in view(_:)
        }
    }
}

/// A scene file's appear animation: the view built with its `from` values until it appears,
/// then with its own, animated between by `.animation(_:value:)`.
struct AppearAnimation: View, SceneDescribable {
    @State var appeared = false
    let spec: ViewSpec
    let animation: Animation
    let from: [ModifierSpec]
    let builder: SceneBuilder

    var body: some View {
        var start = spec
        if !appeared {
            start.modifiers = spec.modifiers.map { m in from.first { Self.kind($0) == Self.kind(m) } ?? m }
        }
        return builder.view(start).animation(animation, value: appeared).onAppear { appeared = true }
    }

    static func kind(_ m: ModifierSpec) -> String? {
        switch m {
        case .opacity: "opacity"
        case .scaleEffect: "scaleEffect"
        case .offset: "offset"
        case .rotationEffect: "rotationEffect"
        case .foregroundStyle: "foregroundStyle"
        default: nil
        }
    }

    func sceneSpec(_ notes: inout [String]) throws(ViewSpecError) -> ViewSpec {
        var s = spec
        s.modifiers.append(.appearAnimation(animation, from: from))
        return s
    }
}

#if canImport(Glibc)
import Glibc
#endif
