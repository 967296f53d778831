// Drawing a resolved map, and `Map` as a view: sky and ground, markers back to front,
// popovers on top; taps go to popovers first, then markers from the front.
import TerrapinGeo
import TerrapinGeometry
import TerrapinRaster
import TerrapinScene
import TerrapinTerrain
import TerrapinTypography
import TerrapinViews

/// Flat ground (where no terrain or imagery covers it) and sky colours per map mode.
enum MapPalette {
    static func ground(_ mode: MapMode) -> RGBAColor {
        switch mode {
        case .satellite, .hybrid: RGBAColor(RGBA8(hex: "#9DAF8C")!)
        case .roadmap: RGBAColor(RGBA8(hex: "#EEF0EB")!)
        }
    }
    static let skyTop = RGBAColor(RGBA8(hex: "#7FAEE0")!)
    static let horizon = RGBAColor(RGBA8(hex: "#DCE8F2")!)
}

public final class MapDrawing: CustomDrawing {
    let map: Map
    let prepared: [PreparedMarker]
    let ground: Ground
    private var cache: (Double, Double, ResolvedScene)? = nil

    init(map: Map, ground: Ground) throws {
        self.map = map
        self.ground = ground
        prepared = try MapResolver.prepare(map)
    }

    /// The default size of a map offered no size: 512 × 384 points.
    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        Size(width: proposal.width.flatMap { $0.isFinite ? $0 : nil } ?? 512, height: proposal.height.flatMap { $0.isFinite ? $0 : nil } ?? 384)
    }

    public var labels: [String] { prepared.map(\.label) }

    func resolved(_ width: Double, _ height: Double) -> ResolvedScene {
        if let (w, h, scene) = cache, w == width, h == height { return scene }
        let scene = MapResolver.resolve(map, prepared, width: width, height: height, ground: ground)
        cache = (width, height, scene)
        return scene
    }

    public func draw(in rect: Rect, canvas: Canvas, scale: Double) {
        let scene = resolved(rect.width, rect.height)
        canvas.save()
        canvas.clip(to: PathBuilder.rect(rect))
        drawGround(scene, in: rect, canvas: canvas, scale: scale)
        let saved = canvas.transform
        canvas.transform = Transform.translation(rect.minX, rect.minY).concatenating(saved)
        if case .dimmed(let opacity) = map.occludedMarkers {
            for m in scene.markers where m.hidden == .occluded {
                drawLeader(m, canvas: canvas, opacity: opacity)
                drawDimmed(prepared[m.index].layout, at: m.box, opacity: opacity, canvas: canvas, scale: scale)
            }
        }
        // Basemap labels lie on the map, under every marker.
        for label in scene.labels where label.isShown {
            if let layout = label.layout { Self.drawHaloText(layout, at: Point(label.box.minX, label.box.minY), canvas: canvas) }
        }
        for i in scene.drawOrder { drawLeader(scene.markers[i], canvas: canvas, opacity: 1) }
        var sprites = SpriteCache()
        for i in scene.drawOrder {
            let m = scene.markers[i]
            if prepared[i].lightweight != nil {
                drawLightweight(m, prepared[i], canvas: canvas, scale: scale, sprites: &sprites)
            } else {
                prepared[i].layout.draw(in: canvas, at: Point(m.box.minX, m.box.minY), scale: scale)
            }
        }
        for p in scene.popovers { drawPopover(p, canvas: canvas, scale: scale) }
        canvas.transform = saved
        canvas.restore()
    }

    /// Sky and sea-level ground by casting a ray per pixel against the Earth (a sphere of the
    /// ellipsoid's equatorial radius tangent at the camera's centre), with haze growing with
    /// distance; then the terrain mesh, depth-tested, over it.
    func drawGround(_ scene: ResolvedScene, in rect: Rect, canvas: Canvas, scale: Double) {
        let t = canvas.transform
        let device = t.apply(rect)
        let x0 = max(0, Int(saturating: device.minX.rounded(.down))), x1 = min(canvas.width, Int(saturating: device.maxX.rounded(.up)))
        let y0 = max(0, Int(saturating: device.minY.rounded(.down))), y1 = min(canvas.height, Int(saturating: device.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0, let inverse = t.inverted else { return }
        let projection = Projection(camera: scene.camera, width: scene.width, height: scene.height,
                                    centerAltitude: MapResolver.centerAltitude(scene.camera, ground: ground))
        let groundColor = MapPalette.ground(map.mode)
        let r = WGS84.a
        let centre = Vector3(0, 0, -r - projection.frame.origin.altitude)
        let m = projection.eye - centre
        let c = m.dot(m) - r * r
        let up = m.normalized
        let hazeDistance = max(2_000, scene.camera.range * 6)
        var frame = DepthFrame(width: x1 - x0, height: y1 - y0)
        // Where the grid covers the ground, the terrain mesh decides depth (it is the same
        // surface at sea level, so a depth from this pass would fight it).
        let grid = map.terrain?.grid
        let lat0 = projection.frame.origin.latitude * Double.pi / 180
        let degLat = 111_132.954 - 559.822 * cos(2 * lat0), degLon = 111_412.84 * cos(lat0)
        func insideGrid(_ q: Vector3) -> Bool {
            guard let g = grid else { return false }
            let lat = projection.frame.origin.latitude + q.y / degLat, lon = projection.frame.origin.longitude + q.x / degLon
            return lat >= g.southCentre - g.cellHeight && lat <= g.northCentre + g.cellHeight
                && lon >= g.westCentre - g.cellWidth && lon <= g.eastCentre + g.cellWidth
        }
        // Imagery on the flat ground outside the grid (the mesh drapes it inside).
        let imagery = map.mode == .roadmap ? nil : map.imagery
        let focal = projection.focalLength * t.a
        var style = TerrainStyle()
        style.sunAzimuth = map.sun.azimuth
        style.sunAltitude = map.sun.altitude
        let flatShade = Float(1 - (imagery?.shading ?? 0) * 0.75 * (1 - style.light.2))
        func draped(_ base: RGBAColor, at q: Vector3, along dir: Vector3, distance: Double) -> RGBAColor {
            guard let imagery else { return base }
            let lat = projection.frame.origin.latitude + q.y / degLat
            let phi = lat * Double.pi / 180
            let lon = projection.frame.origin.longitude + q.x / max(1e-3, 111_412.84 * cos(phi) - 93.5 * cos(3 * phi))
            let texel = imagery.texel(latitude: lat, longitude: lon)
            // Image pixels under one screen pixel: the ground it covers, (distance / focal)²
            // stretched by 1 / cos(incidence), times image pixels per square metre.
            let incidence = max(1e-3, abs(dir.dot((q - centre).normalized)))
            let density = imagery.texelsPerMetre(latitude: lat)
            let perPixel = (distance / focal) * (distance / focal) / incidence * density.x * density.y
            guard let c = imagery.sample(x: texel.x, y: texel.y, level: 0.5 * log2(max(1, perPixel))) else { return base }
            let k = flatShade / 255, cover = 1 - c.w / 255
            return RGBAColor(red: c.x * k + base.red * cover, green: c.y * k + base.green * cover, blue: c.z * k + base.blue * cover, alpha: 1)
        }
        for py in y0..<y1 {
            for px in x0..<x1 {
                let p = inverse.apply(Point(Double(px) + 0.5, Double(py) + 0.5))
                let (_, dir) = projection.ray(x: p.x - rect.minX, y: p.y - rect.minY)
                let b = m.dot(dir)
                let disc = b * b - c
                var color: RGBAColor
                let i = (py - y0) * frame.width + (px - x0)
                if disc > 0, -b - disc.squareRoot() > 0 {
                    let distance = -b - disc.squareRoot()
                    let q = projection.eye + dir * distance
                    color = groundColor
                    if !insideGrid(q) {
                        frame.depth[i] = Float(distance * dir.dot(projection.forward))
                        color = draped(groundColor, at: q, along: dir, distance: distance)
                    }
                    color = mix(color, MapPalette.horizon, Float(1 - exp(-distance / hazeDistance)) * 0.85)
                } else {
                    // Sky: from the horizon colour up to the zenith colour with the ray's elevation.
                    color = mix(MapPalette.horizon, MapPalette.skyTop, min(1, max(0, Float(dir.dot(up))) * 2.2))
                }
                let c8 = color.rgba8
                frame.pixels[i] = UInt32(c8.red) | UInt32(c8.green) << 8 | UInt32(c8.blue) << 16 | 0xFF00_0000
            }
        }
        // The terrain mesh, then the buildings, into the same depth buffer.
        let toDevice = (scale: t.a, dx: t.a * rect.minX + t.tx - Double(x0), dy: t.d * rect.minY + t.ty - Double(y0))
        let horizon = SIMD3<Float>(MapPalette.horizon.red, MapPalette.horizon.green, MapPalette.horizon.blue) * 255
        if let terrain = map.terrain {
            var style = style
            if map.mode == .roadmap { style.palette = .roadmap }
            TerrainRenderer.draw(terrain, projection: projection, toDevice: toDevice, horizon: horizon, hazeDistance: hazeDistance, style: style,
                                 imagery: imagery, into: &frame)
        }
        if let built = ground as? BuiltGround {
            BuildingRenderer.draw(built, projection: projection, toDevice: toDevice, horizon: horizon, hazeDistance: hazeDistance, style: style, into: &frame)
        }
        var bytes = [UInt8](repeating: 0, count: frame.pixels.count * 4)
        frame.pixels.withUnsafeBytes { src in bytes.withUnsafeMutableBytes { $0.copyMemory(from: src) } }
        guard let image = Pixmap(width: frame.width, height: frame.height, premultipliedData: bytes) else { return }
        let saved = canvas.transform
        canvas.transform = .identity
        canvas.drawImage(image, transform: .translation(Double(x0), Double(y0)), filter: .nearest)
        canvas.transform = saved
    }

    /// Dark text (#202124) in a 1-pt white halo: Marker3D and basemap labels.
    static func drawHaloText(_ text: TextLayout, at origin: Point, canvas: Canvas) {
        let halo = 1.0
        for (dx, dy) in [(-halo, 0.0), (halo, 0), (0, -halo), (0, halo), (-halo, -halo), (halo, halo), (-halo, halo), (halo, -halo)] {
            text.draw(in: canvas, at: Point(origin.x + dx, origin.y + dy), color: .white)
        }
        text.draw(in: canvas, at: origin, color: RGBAColor(RGBA8(hex: "#202124")!))
    }

    /// A leader line from the ground to a lifted marker's anchor: 1 pt of #3C4043 with a white
    /// casing, and a small dot where it meets the ground.
    func drawLeader(_ m: ResolvedMarker, canvas: Canvas, opacity: Double) {
        guard let g = m.groundAnchor, let a = m.anchor else { return }
        var line = PathBuilder()
        line.move(to: Point(g.x, g.y))
        line.line(to: Point(a.x, a.y))
        let path = line.build()
        canvas.stroke(path, style: StrokeStyle(width: 2.5, cap: .round), paint: Paint(shader: .solid(.white), opacity: 0.8 * opacity))
        canvas.stroke(path, style: StrokeStyle(width: 1, cap: .round), paint: Paint(shader: .solid(RGBAColor(RGBA8(hex: "#3C4043")!)), opacity: opacity))
        canvas.fill(PathBuilder.circle(center: Point(g.x, g.y), radius: 2), paint: Paint(shader: .solid(RGBAColor(RGBA8(hex: "#3C4043")!)), opacity: opacity))
    }

    /// A Marker3D: its style rasterised once per sprite key and size, composited on whole
    /// device pixels (the image fast path), then its label with a white halo.
    func drawLightweight(_ m: ResolvedMarker, _ p: PreparedMarker, canvas: Canvas, scale: Double, sprites: inout SpriteCache) {
        let t = canvas.transform
        let key = "\(p.lightweight?.spriteKey ?? "marker:\(m.index)")@\(m.scale * t.a)"
        let sprite = sprites.sprite(key) {
            let factor = m.scale * t.a
            guard let layer = Canvas(width: Int(saturating: (p.layout.size.width * factor).rounded(.up)) + 1,
                                     height: Int(saturating: (p.layout.size.height * factor).rounded(.up)) + 1) else { return nil }
            layer.transform = .scale(factor)
            p.layout.draw(in: layer, at: .zero, scale: factor)
            return layer.pixmap
        }
        if let sprite {
            let origin = t.apply(Point(m.box.minX, m.box.minY))
            canvas.drawSprite(sprite, x: Int(saturating: origin.x.rounded()), y: Int(saturating: origin.y.rounded()))
        }
        if let label = p.labelLayout, let box = m.labelBox { Self.drawHaloText(label, at: Point(box.minX, box.minY), canvas: canvas) }
    }

    /// A marker drawn through a translucent layer.
    func drawDimmed(_ layout: ViewLayout, at box: Rect, opacity: Double, canvas: Canvas, scale: Double) {
        let device = canvas.transform.apply(box)
        let x0 = Int(saturating: device.minX.rounded(.down)) - 1, y0 = Int(saturating: device.minY.rounded(.down)) - 1
        guard let layer = Canvas(width: Int(saturating: device.width.rounded(.up)) + 3, height: Int(saturating: device.height.rounded(.up)) + 3) else { return }
        layer.transform = canvas.transform.concatenating(.translation(Double(-x0), Double(-y0)))
        layout.draw(in: layer, at: Point(box.minX, box.minY), scale: scale)
        let saved = canvas.transform
        canvas.transform = .identity
        canvas.drawImage(layer.pixmap, transform: .translation(Double(x0), Double(y0)), filter: .nearest, opacity: opacity)
        canvas.transform = saved
    }

    /// A popover opened inside `withAnimation` fades in (SwiftUI's default transition) over
    /// that animation from the time it opened; otherwise it shows at once.
    func drawPopover(_ p: ResolvedPopover, canvas: Canvas, scale: Double) {
        guard let popover = prepared[p.markerIndex].marker.popover, let content = prepared[p.markerIndex].popover else { return }
        let style = popover.style
        let path = Self.bubble(p, radius: style.borderRadius)
        func draw(_ target: Canvas) {
            target.drawShadow(of: path, color: style.shadow.color.rgba, radius: style.shadow.radius, offset: Point(style.shadow.x, style.shadow.y))
            target.fill(path, paint: Paint(color: style.backgroundColor.rgba))
            content.draw(in: target, at: Point(p.bubble.minX + style.padding, p.bubble.minY + style.padding), scale: scale)
        }
        var opacity = 1.0
        if let change = popover.isOpen.lastChange, let animation = change.animation, map.time >= change.time {
            opacity = min(1, max(0, animation.progress(at: map.time - change.time)))
        }
        guard opacity < 1 else { return draw(canvas) }
        guard opacity > 0, let layer = Canvas(width: canvas.width, height: canvas.height) else { return }
        layer.transform = canvas.transform
        draw(layer)
        let saved = canvas.transform
        canvas.transform = .identity
        canvas.drawImage(layer.pixmap, filter: .nearest, opacity: opacity)
        canvas.transform = saved
    }

    /// The bubble and its tapered stem as one outline.
    static func bubble(_ p: ResolvedPopover, radius: Double) -> Path {
        let b = p.bubble
        let r = min(radius, b.width / 2, b.height / 2)
        let half = MapResolver.popoverStemWidth / 2
        let stemX = min(max(p.tip.x, b.minX + r + half), b.maxX - r - half)
        var path = PathBuilder()
        path.move(to: Point(b.minX + r, b.minY))
        path.line(to: Point(b.maxX - r, b.minY))
        path.arc(center: Point(b.maxX - r, b.minY + r), radius: r, startAngle: -Double.pi / 2, endAngle: 0, clockwise: true)
        path.line(to: Point(b.maxX, b.maxY - r))
        path.arc(center: Point(b.maxX - r, b.maxY - r), radius: r, startAngle: 0, endAngle: Double.pi / 2, clockwise: true)
        path.line(to: Point(stemX + half, b.maxY))
        path.quad(to: Point(p.tip.x, p.tip.y), control: Point(stemX + half * 0.25, b.maxY + 2))
        path.quad(to: Point(stemX - half, b.maxY), control: Point(stemX - half * 0.25, b.maxY + 2))
        path.line(to: Point(b.minX + r, b.maxY))
        path.arc(center: Point(b.minX + r, b.maxY - r), radius: r, startAngle: Double.pi / 2, endAngle: Double.pi, clockwise: true)
        path.line(to: Point(b.minX, b.minY + r))
        path.arc(center: Point(b.minX + r, b.minY + r), radius: r, startAngle: Double.pi, endAngle: 1.5 * Double.pi, clockwise: true)
        path.close()
        return path.build()
    }

    /// Popovers first, then shown markers from the front; a tap on nothing (or on another
    /// marker) closes open popovers that have autoClosedEnabled.
    public func tap(at point: Point, in rect: Rect) -> TapTarget? {
        let scene = resolved(rect.width, rect.height)
        let local = Point(point.x - rect.minX, point.y - rect.minY)
        for p in scene.popovers.reversed() where p.bubble.contains(local) {
            let content = prepared[p.markerIndex].popover!
            let style = prepared[p.markerIndex].marker.popover!.style
            let inner = Point(local.x - p.bubble.minX - style.padding, local.y - p.bubble.minY - style.padding)
            let name = p.isStandalone ? prepared[p.markerIndex].label : "popover on marker \(p.markerIndex)"
            return content.tap(at: inner) ?? TapTarget(label: name, action: {})
        }
        let closeOthers = { (except: Int?) in
            for p in scene.popovers where p.markerIndex != except {
                if let popover = self.prepared[p.markerIndex].marker.popover, popover.autoClosedEnabled { popover.isOpen.wrappedValue = false }
            }
        }
        for i in scene.drawOrder.reversed() {
            let m = scene.markers[i]
            let inner = Point((local.x - m.box.minX) / m.scale, (local.y - m.box.minY) / m.scale)
            guard m.box.contains(local), prepared[i].layout.contains(inner) || prepared[i].layout.tap(at: inner) != nil else { continue }
            let target = prepared[i].layout.tap(at: inner)
            return TapTarget(label: target?.label ?? prepared[i].label) {
                closeOthers(i)
                target?.action()
            }
        }
        if scene.popovers.isEmpty { return nil }
        return TapTarget(label: nil) { closeOthers(nil) }
    }
}

/// Rasterised Marker3D styles for one draw, keyed by style and device size.
struct SpriteCache {
    private var sprites: [String: Sprite?] = [:]
    mutating func sprite(_ key: String, make: () -> Pixmap?) -> Sprite? {
        if let s = sprites[key] { return s }
        let s = make().map(Sprite.init)
        sprites[key] = s
        return s
    }
}

func mix(_ a: RGBAColor, _ b: RGBAColor, _ t: Float) -> RGBAColor {
    RGBAColor(red: a.red + (b.red - a.red) * t, green: a.green + (b.green - a.green) * t, blue: a.blue + (b.blue - a.blue) * t, alpha: 1)
}

extension Map: CustomDrawingView {
    public func makeDrawing(_ environment: EnvironmentValues) throws -> CustomDrawing { try MapDrawing(map: self, ground: ground) }
}

#if canImport(Glibc)
import Glibc
#endif
