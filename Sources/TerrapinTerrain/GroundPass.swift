// The ground and 3D layers of a map, painted into one depth buffer: sky and sea-level ground by
// a ray per pixel, then the terrain mesh, then buildings, then the result composited onto the
// canvas. The map's painter calls these in display-list order; nothing here decides what is
// drawn — that was resolved before.
//
// Invariant: every pass writes device pixels of `frame`, which covers the map's rect clipped to
// the canvas; depth is metres along the view axis (smaller is nearer). The ray-cast ground
// leaves depth at +∞ inside the terrain grid's extent, where the mesh decides (it is the same
// surface at sea level, so a depth from both would fight).
import Terrapin3D
import TerrapinGeo
import TerrapinImagery
import TerrapinTiles
import TerrapinTerrainData
import TerrapinGeometry
import TerrapinRaster
import TerrapinIO

/// Sky colours: the horizon and the zenith.
public struct SkyColors: Sendable, Equatable {
    public var zenith: RGBAColor
    public var horizon: RGBAColor
    /// Whether the ground and what stands on it fade towards the horizon colour with distance
    /// (aerial perspective). A vector basemap's style draws none: MapLibre has no fog unless a
    /// style's `sky` asks for it.
    public var haze: Bool
    public init(zenith: RGBAColor, horizon: RGBAColor, haze: Bool = true) {
        (self.zenith, self.horizon, self.haze) = (zenith, horizon, haze)
    }
}

public struct GroundPass {
    public let projection: Projection
    /// The map's rect in points and the canvas transform (points → device pixels).
    let rect: Rect
    let transform: Transform
    let x0: Int, y0: Int
    /// Haze: the distance over which the ground fades towards the horizon colour.
    public let hazeDistance: Double
    public private(set) var frame: DepthFrame
    let sky: SkyColors
    /// Whether the render has been stopped (`Cancellation`): the sky and flat ground stop
    /// drawing rows soon after (the result is thrown away).
    public var stopped: (@Sendable () -> Bool)? = nil

    /// Nil when the rect covers no pixel of a canvas `width` × `height`.
    public init?(projection: Projection, rect: Rect, transform: Transform, canvasWidth: Int, canvasHeight: Int, sky: SkyColors) {
        let device = transform.apply(rect)
        let x0 = max(0, Int(saturating: device.minX.rounded(.down))), x1 = min(canvasWidth, Int(saturating: device.maxX.rounded(.up)))
        let y0 = max(0, Int(saturating: device.minY.rounded(.down))), y1 = min(canvasHeight, Int(saturating: device.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0, transform.inverted != nil else { return nil }
        self.projection = projection
        self.rect = rect
        self.transform = transform
        self.x0 = x0
        self.y0 = y0
        self.sky = sky
        // No haze: a distance so great that 1 − e^(−d / it) is 0 for any distance drawn.
        hazeDistance = sky.haze ? max(2_000, projection.camera.range * 6) : .greatestFiniteMagnitude
        frame = DepthFrame(width: x1 - x0, height: y1 - y0)
    }

    var horizon: SIMD3<Float> { SIMD3<Float>(sky.horizon.red, sky.horizon.green, sky.horizon.blue) * 255 }
    public var toDevice: (scale: Double, dx: Double, dy: Double) {
        (scale: transform.a, dx: transform.a * rect.minX + transform.tx - Double(x0), dy: transform.d * rect.minY + transform.ty - Double(y0))
    }

    /// Sky and sea-level ground by casting a ray per pixel against the Earth (a sphere of the
    /// ellipsoid's equatorial radius tangent at the camera's centre), with haze growing with
    /// distance; `imagery` drapes the flat ground outside `grid` (the mesh drapes it inside).
    /// Ground seen through a lattice cell whose four corners agree is interpolated from them:
    /// draped open ground, and the ground under the grid's mesh (its plain hazed colour, which the
    /// mesh then covers). Rows are drawn in bands on all cores; every pixel depends only on its own position, so
    /// the bytes are the same for any number of bands.
    /// Without `depth`, a view that `seesFlatMap` (all ground, no haze) is only filled with the
    /// ground's colour and its depth left unset: for a map whose depth nothing reads (no terrain,
    /// 3D content or depth-tested shapes).
    public mutating func drawSkyAndFlatGround(ground groundColor: RGBAColor, grid: HeightGrid?, imagery: Imagery?, style: TerrainStyle, depth: Bool = true) {
        drawSkyAndFlatGround(ground: groundColor, grid: grid, imagery: imagery, style: style, bands: frame.bands, depth: depth)
    }

    mutating func drawSkyAndFlatGround(ground groundColor: RGBAColor, grid: HeightGrid?, imagery: Imagery?, style: TerrainStyle, bands: Int, depth castsDepth: Bool = true) {
        guard let inverse = transform.inverted else { return }
        let flatShade = imagery?.shadesRelativeToFlat == true ? 1 : Float(1 - (imagery?.shading ?? 0) * 0.75 * (1 - style.light.2))
        let caster = SkyCaster(projection: projection, rect: rect, inverse: inverse, grid: grid, hazeDistance: hazeDistance,
                               focal: projection.focalLength * transform.a, sky: sky, ground: groundColor, flatShade: flatShade)
        let x0 = self.x0, y0 = self.y0, width = frame.width, height = frame.height
        // Imagery positions, levels and haze are found exactly on a lattice every `step` pixels
        // and interpolated between where a cell's four corners are all open ground at nearly the
        // same distance (the mapping is smooth there: under 1/100 texel off); elsewhere (sky,
        // the horizon, the mesh's edge) every pixel is cast on its own.
        let step = SkyCaster.step
        let nx = width / step + 2, ny = height / step + 2
        // (Only imagery and the ground under a grid are interpolated: a flat map without imagery
        // is cast per pixel, and needs no lattice.)
        let lattice = imagery != nil || grid != nil
        var nodes = [SkyCaster.Node](repeating: SkyCaster.Node(), count: lattice ? nx * ny : 0)
        if lattice {
            for j in 0..<ny {
                for i in 0..<nx {
                    nodes[j * nx + i] = caster.node(Double(x0 + i * step) + 0.5, Double(y0 + j * step) + 0.5, imagery)
                }
            }
        }
        // Bound once: an optional struct unwrapped per pixel is copied (and retained) per pixel.
        let drape = imagery ?? Imagery(image: Pixmap(width: 1, height: 1)!, west: 0, south: 0, east: 1, north: 1)!
        let draping = imagery != nil, latticeNodes = nodes
        // A pixel's place within its cell, k / step, as Double and Float: looked up, not divided.
        let fractions = (0..<step).map { Double($0) / Double(step) }, fractionsF = fractions.map { Float($0) }
        let stopped = self.stopped
        // A plane without haze, imagery or grid (the ground under a flat web map): every ground
        // pixel is the plain ground colour (1 − e^(−d / ∞) is exactly 0), so only its depth is
        // cast; the colour is packed once, by the same arithmetic as `SkyCaster.pixel`.
        let plainGround = caster.plane && !lattice && hazeDistance == .greatestFiniteMagnitude ? SkyCaster.pack(mix(groundColor, sky.horizon, 0)) : nil
        // Straight down on the plane every ray meets the ground: the same colour everywhere, and
        // its depth cast only where something will read it (a ray per pixel was a tenth of a
        // flat web map's render).
        if let plainGround, !castsDepth, Self.seesFlatMap(projection) {
            frame.pixels.withUnsafeMutableBufferPointer { $0.update(repeating: plainGround) }
            return
        }
        frame.inBands(max(1, min(bands, height))) { raster in
            var reader = ImageryReader()
            // A cell row's imagery positions and texels.
            let positions = UnsafeMutablePointer<SIMD3<Double>>.allocate(capacity: step)
            let texels = UnsafeMutablePointer<SIMD4<Float>?>.allocate(capacity: step)
            defer { positions.deallocate(); texels.deallocate() }
            for py in (y0 + raster.rows.lowerBound)..<(y0 + raster.rows.upperBound) {
                if py & 15 == 0, let stopped, stopped() { break }
                let j = (py - y0) / step, fy = Double((py - y0) % step) / Double(step)
                let line = (py - y0) * width
                var px = x0
                while px < x0 + width {
                    let i = (px - x0) / step
                    let cellEnd = min(x0 + width, x0 + (i + 1) * step)
                    if lattice {
                        let a = latticeNodes[j * nx + i], b = latticeNodes[j * nx + i + 1], c = latticeNodes[(j + 1) * nx + i], d = latticeNodes[(j + 1) * nx + i + 1]
                        if a.inside, b.inside, c.inside, d.inside, SkyCaster.Node.smooth(a, b, c, d) {
                            // Under the grid's mesh, which draws over it: the ground colour, hazed.
                            // Along the row the corners' blend is linear: its two ends, then steps.
                            let fyF = Float(fy), gyF = 1 - fyF
                            let hLeft = a.haze * gyF + c.haze * fyF, hRight = b.haze * gyF + d.haze * fyF
                            var k = (px - x0) % step
                            for x in px..<cellEnd {
                                raster.pixels[line + (x - x0)] = caster.groundPixel(haze: hLeft + (hRight - hLeft) * fractionsF[k])
                                k += 1
                            }
                            px = cellEnd
                            continue
                        }
                        // Open ground with imagery is interpolated too; without, it stays exact per
                        // pixel (flat maps' colours are their haze at each pixel's own distance).
                        if draping, !a.inside, !b.inside, !c.inside, !d.inside, SkyCaster.Node.smooth(a, b, c, d) {
                            let gy = 1 - fy, fyF = Float(fy), gyF = Float(gy)
                            let hLeft = a.haze * gyF + c.haze * fyF, hRight = b.haze * gyF + d.haze * fyF
                            let zLeft = a.depth * gyF + c.depth * fyF, zRight = b.depth * gyF + d.depth * fyF
                            let tLeft = a.t * gy + c.t * fy, tRight = b.t * gy + d.t * fy
                            // The run's imagery positions, then their texels in one call.
                            let k0 = (px - x0) % step, count = cellEnd - px
                            for n in 0..<count { positions[n] = tLeft + (tRight - tLeft) * fractions[k0 + n] }
                            drape.sampleRun(positions, count: count, reader: &reader, into: texels)
                            for n in 0..<count {
                                let f = fractionsF[k0 + n]
                                let index = line + (px + n - x0)
                                raster.depth[index] = zLeft + (zRight - zLeft) * f
                                raster.pixels[index] = caster.drapedPixel(texels[n], haze: hLeft + (hRight - hLeft) * f)
                            }
                            px = cellEnd
                            continue
                        }
                    }
                    if let plainGround {
                        for x in px..<cellEnd {
                            let index = line + (x - x0)
                            if let depth = caster.planeDepth(Double(x) + 0.5, Double(py) + 0.5) {
                                raster.depth[index] = depth
                                raster.pixels[index] = plainGround
                            } else {
                                raster.pixels[index] = caster.pixel(Double(x) + 0.5, Double(py) + 0.5, imagery: drape, draping: false, reader: &reader).0
                            }
                        }
                        px = cellEnd
                        continue
                    }
                    for x in px..<cellEnd {
                        let index = line + (x - x0)
                        let (colour, depth) = caster.pixel(Double(x) + 0.5, Double(py) + 0.5, imagery: drape, draping: draping, reader: &reader)
                        if let depth { raster.depth[index] = depth }
                        raster.pixels[index] = colour
                    }
                    px = cellEnd
                }
            }
        }
    }

    /// The terrain mesh, depth-tested, with `imagery` draped on it.
    public mutating func drawTerrain(_ terrain: TerrainGround, style: TerrainStyle, imagery: Imagery?) {
        TerrainRenderer.draw(terrain, projection: projection, toDevice: toDevice, horizon: horizon, hazeDistance: hazeDistance, style: style,
                             imagery: imagery, into: &frame)
    }

    /// Extruded building footprints, depth-tested with the terrain.
    public mutating func drawBuildings(_ built: BuiltGround, style: TerrainStyle) {
        BuildingRenderer.draw(built, projection: projection, toDevice: toDevice, horizon: horizon, hazeDistance: hazeDistance, style: style, into: &frame)
    }

    /// Other content of the 3D layer (models), drawn by `body` into the same depth frame with
    /// the pass's projection, device mapping, horizon colour and haze distance.
    public mutating func draw3D(_ body: (inout DepthFrame, Projection, (scale: Double, dx: Double, dy: Double), SIMD3<Float>, Double) -> Void) {
        body(&frame, projection, toDevice, horizon, hazeDistance)
    }

    /// The depth buffer as it is now, to test points drawn over it (shapes).
    public var depthProbe: DepthProbe {
        let t = toDevice
        return DepthProbe(depth: frame.depth, width: frame.width, height: frame.height, scale: t.scale, dx: t.dx, dy: t.dy,
                          x0: x0, y0: y0, projection: projection)
    }

    /// Whether a view is a flat map seen straight down: Web Mercator's plane, no tilt, north up,
    /// no roll. Then a drawer that `drawsDirectly` draws the ground at the output's resolution
    /// (`drawFlatMap`), as a web map does, instead of being draped from tile textures.
    public static func seesFlatMap(_ projection: Projection) -> Bool {
        let c = projection.camera
        return projection.frame.ellipsoid.isPlane && c.tilt == 0 && c.roll == 0 && c.heading.truncatingRemainder(dividingBy: 360) == 0
    }

    /// Most tiles one flat map draws (a 4096² image at a zoom's start needs 81).
    public static let maxFlatMapTiles = 1_024

    /// The ground as a web map draws it, for a view that `seesFlatMap`: the flat ground's colour,
    /// then `drawer`'s tiles at the zoom below the view's (MapLibre's choice for 512-pixel
    /// tiles), each drawn straight onto `canvas` at its place, its style evaluated at the view's
    /// own zoom; every device pixel is drawn by the one tile its centre lies in. Then the frame
    /// takes the pixels back, so 3D content drawn next covers them. False (nothing drawn) when
    /// the drawer cannot, or the view is not such a map. Without `depth` (nothing is drawn into
    /// the frame after it, nothing reads its depth) the ground's depth is not cast (see
    /// `drawSkyAndFlatGround`) and the frame does not take the pixels back: the canvas holds the
    /// map, and the frame is not to be composited again.
    public mutating func drawFlatMap(_ drawer: any TileDrawer, ground groundColor: RGBAColor, style: TerrainStyle, onto canvas: Canvas,
                                     layers: Range<Int>? = nil, depth: Bool = true) -> Bool {
        guard flatMapTiles(drawer, layers: layers, onto: canvas, before: { pass in
            pass.drawSkyAndFlatGround(ground: groundColor, grid: nil, imagery: nil, style: style, depth: depth)
            pass.composite(onto: canvas)
        }) else { return false }
        if depth { readBack(from: canvas) }
        return true
    }

    /// Some of `drawer`'s layers (`layers`) drawn straight onto `canvas` over what is there, as
    /// `drawFlatMap` draws its tiles, without the ground: a style's layers above its labels.
    /// False (nothing drawn) when the view is not a flat map the drawer can draw.
    public mutating func drawFlatMapLayers(_ drawer: any TileDrawer, layers: Range<Int>, onto canvas: Canvas) -> Bool {
        flatMapTiles(drawer, layers: layers, onto: canvas, before: { _ in })
    }

    /// The tiles of a flat map drawn onto `canvas`, each pixel by the one tile its centre lies in
    /// (`before` runs once the view is known to be drawable).
    private mutating func flatMapTiles(_ drawer: any TileDrawer, layers: Range<Int>?, onto canvas: Canvas, before: (inout GroundPass) -> Void) -> Bool {
        guard Self.seesFlatMap(projection), drawer.drawsDirectly, let k = projection.frame.ellipsoid.planeScale else { return false }
        let groundZ = -projection.frame.origin.altitude
        guard let s0 = projection.project(enu: Vector3(0, 0, groundZ)), let s1 = projection.project(enu: Vector3(1, 0, groundZ)) else { return false }
        let device = toDevice
        // Device pixels per metre of the plane at the ground, and per world (2π a k metres).
        let perMetre = (s1.x - s0.x) * device.scale
        let perWorld = perMetre * 2 * Double.pi * projection.frame.ellipsoid.a * k
        let unit = device.scale
        let zoom = log2(perWorld / unit / 512)
        guard perWorld.isFinite, perWorld > 0, zoom.isFinite else { return false }
        let z = min(drawer.maxZoom, max(drawer.minZoom, Int((zoom + 1e-6).rounded(.down))))
        let tiles = Double(1 << z), perTile = perWorld / tiles
        // The centre's place in the world (0…1 each way) and in the canvas.
        let (mx, my) = TileID.world(longitude: projection.frame.origin.longitude, latitude: projection.frame.origin.latitude)
        let cx = s0.x * device.scale + device.dx + Double(x0), cy = s0.y * device.scale + device.dy + Double(y0)
        // Tile (column, row)'s north-west corner in the canvas.
        func corner(_ tx: Int, _ ty: Int) -> (Double, Double) { (cx + (Double(tx) / tiles - mx) * perWorld, cy + (Double(ty) / tiles - my) * perWorld) }
        let x1 = x0 + frame.width, y1 = y0 + frame.height
        // MapLibre's aligned matrix for raster tiles: the world moved by less than half a style
        // pixel so that whole world pixels (at the view's zoom, in style pixels) fall on whole
        // pixels of the image.
        func alignment(_ world: Double, _ centre: Double) -> Double {
            let e = world * perWorld / unit - centre / unit
            var d = e - e.rounded(.down)
            if d > 0.5 { d -= 1 }
            return d * unit
        }
        let rasterAlignment = (x: alignment(mx, cx), y: alignment(my, cy))
        /// The tile column or row holding a canvas position (`w`: its world fraction), bounded.
        func tile(_ w: Double) -> Int { min(1 << 24, max(-1 << 24, Int(saturating: (w * tiles).rounded(.down)))) }
        let first = (tile((Double(x0) - cx) / perWorld + mx) - 1, tile((Double(y0) - cy) / perWorld + my) - 1)
        let last = (tile((Double(x1) - cx) / perWorld + mx) + 1, tile((Double(y1) - cy) / perWorld + my) + 1)
        let rows = max(0, min(last.1, 1 << z - 1)) - max(0, first.1) + 1, columns = last.0 - first.0 + 1
        guard rows > 0, columns > 0, rows * columns <= Self.maxFlatMapTiles else { return false }
        before(&self)
        for ty in max(0, first.1)...min(last.1, 1 << z - 1) {
            for tx in first.0...last.0 {
                if let stopped, stopped() { return true }
                let (left, top) = corner(tx, ty), (right, bottom) = corner(tx + 1, ty + 1)
                // The pixels whose centres lie in the tile, within the frame.
                let c0 = max(x0, Int(saturating: (left - 0.5).rounded(.up))), c1 = min(x1, Int(saturating: (right - 0.5).rounded(.up)))
                let r0 = max(y0, Int(saturating: (top - 0.5).rounded(.up))), r1 = min(y1, Int(saturating: (bottom - 0.5).rounded(.up)))
                guard c1 > c0, r1 > r0, let tile = Canvas(width: c1 - c0, height: r1 - r0) else { continue }
                let wrapped = ((tx % (1 << z)) + (1 << z)) % (1 << z)
                var view = TileView(origin: (left - Double(c0), top - Double(r0)), pixelsPerTile: perTile, unit: unit, zoom: zoom)
                view.layers = layers
                view.rasterAlignment = rasterAlignment
                view.frame = (Double(x0 - c0), Double(y0 - r0), Double(x1 - c0), Double(y1 - r0))
                guard (try? drawer.draw(TileID(z: z, x: wrapped, y: ty), view: view, into: tile)) == true else { continue }
                canvas.composite(tile.pixmap, atDevice: (c0, r0))
            }
        }
        return true
    }

    /// Takes the frame's pixels back from `canvas` (what was drawn over the composited ground,
    /// such as shapes on the ground), so that 3D content drawn next covers them, depth-tested.
    public mutating func readBack(from canvas: Canvas) {
        let source = canvas.pixmap
        let w = frame.width, stride = source.width
        source.data.withUnsafeBytes { raw in
            let src = raw.bindMemory(to: UInt32.self)
            frame.pixels.withUnsafeMutableBufferPointer { dst in
                for y in 0..<frame.height {
                    (dst.baseAddress! + y * w).update(from: src.baseAddress! + (y0 + y) * stride + x0, count: w)
                }
            }
        }
    }

    /// Copies the frame onto `canvas` at its device position (opaque: it replaces what is there).
    public func composite(onto canvas: Canvas) {
        var bytes = [UInt8](repeating: 0, count: frame.pixels.count * 4)
        frame.pixels.withUnsafeBytes { src in bytes.withUnsafeMutableBytes { $0.copyMemory(from: src) } }
        guard let image = Pixmap(width: frame.width, height: frame.height, premultipliedData: bytes) else { return }
        let saved = canvas.transform
        canvas.transform = .identity
        canvas.drawImage(image, transform: .translation(Double(x0), Double(y0)), filter: .nearest)
        canvas.transform = saved
    }
}

/// What a ray per pixel sees: the sky, or the sea-level ground (a sphere of the ellipsoid's
/// equatorial radius tangent at the camera's centre) with imagery and haze.
struct SkyCaster: Sendable {
    static let step = 8
    let projection: Projection
    let rect: Rect
    let inverse: Transform
    let grid: HeightGrid?
    let hazeDistance: Double
    /// Focal length in device pixels.
    let focal: Double
    let sky: SkyColors
    let ground: RGBAColor
    let flatShade: Float
    let centre: Vector3, m: Vector3, c: Double, up: Vector3
    /// Web Mercator's plane (its ground at `groundZ` in the frame) rather than a sphere.
    let plane: Bool, groundZ: Double
    let degLat: Double, degLon: Double
    let base255: SIMD3<Float>, horizon255: SIMD3<Float>
    /// The ground and horizon colours, 0…1 (w 0), for `groundPixel`.
    let groundUnit: SIMD4<Float>, horizonUnit: SIMD4<Float>

    init(projection: Projection, rect: Rect, inverse: Transform, grid: HeightGrid?, hazeDistance: Double, focal: Double, sky: SkyColors,
         ground: RGBAColor, flatShade: Float) {
        self.projection = projection
        self.rect = rect
        self.inverse = inverse
        self.grid = grid
        self.hazeDistance = hazeDistance
        self.focal = focal
        self.sky = sky
        self.ground = ground
        self.flatShade = flatShade
        let r = projection.frame.ellipsoid.a
        centre = Vector3(0, 0, -r - projection.frame.origin.altitude)
        m = projection.eye - centre
        c = m.dot(m) - r * r
        plane = projection.frame.ellipsoid.isPlane
        groundZ = -projection.frame.origin.altitude
        up = plane ? Vector3(0, 0, 1) : m.normalized
        (degLat, degLon) = projection.frame.ellipsoid.metresPerDegree(atLatitude: projection.frame.origin.latitude)
        base255 = SIMD3<Float>(ground.red, ground.green, ground.blue) * 255
        horizon255 = SIMD3<Float>(sky.horizon.red, sky.horizon.green, sky.horizon.blue) * 255
        groundUnit = SIMD4(ground.red, ground.green, ground.blue, 0)
        horizonUnit = SIMD4(sky.horizon.red, sky.horizon.green, sky.horizon.blue, 0)
    }

    /// A lattice node: whether its pixel sees the ground, whether within the grid's extent (the
    /// mesh draws there), and its distance, depth, haze and imagery position and level.
    struct Node: Sendable {
        var ok = false
        var inside = false
        var distance = 0.0
        var depth: Float = 0
        var haze: Float = 0
        var t = SIMD3<Double>(0, 0, 0)

        /// Whether a cell with these corners can be interpolated: all four see the ground, at
        /// distances within 2 % of each other (the mapping is smooth there).
        @inline(__always)
        static func smooth(_ a: Node, _ b: Node, _ c: Node, _ d: Node) -> Bool {
            a.ok && b.ok && c.ok && d.ok
                && max(a.distance, b.distance, c.distance, d.distance) < min(a.distance, b.distance, c.distance, d.distance) * 1.02
        }
    }

    /// The latitude and longitude of a ground point (on the plane exactly; on the sphere, from
    /// the tangent plane's metres).
    @inline(__always)
    func latLon(_ q: Vector3) -> (Double, Double) {
        if plane {
            let p = projection.frame.geodetic(enu: q)
            return (p.latitude, p.longitude)
        }
        let lat = projection.frame.origin.latitude + q.y / degLat
        return (lat, projection.frame.origin.longitude + q.x / max(1e-3, projection.frame.ellipsoid.metresPerDegree(atLatitude: lat).longitude))
    }

    func insideGrid(_ q: Vector3) -> Bool {
        guard let g = grid else { return false }
        let lat = projection.frame.origin.latitude + q.y / degLat, lon = projection.frame.origin.longitude + q.x / degLon
        return lat >= g.southCentre - g.cellHeight && lat <= g.northCentre + g.cellHeight
            && lon >= g.westCentre - g.cellWidth && lon <= g.eastCentre + g.cellWidth
    }

    /// One pixel's ray: sky, or ground (its distance, and whether the grid's mesh covers it).
    func cast(_ px: Double, _ py: Double) -> (dir: Vector3, distance: Double?, inside: Bool) {
        let dir = direction(px, py)
        if plane {
            guard let distance = planeDistance(dir) else { return (dir, nil, false) }
            return (dir, distance, insideGrid(projection.eye + dir * distance))
        }
        let b = m.dot(dir)
        let disc = b * b - c
        guard disc > 0, -b - disc.squareRoot() > 0 else { return (dir, nil, false) }
        let distance = -b - disc.squareRoot()
        return (dir, distance, insideGrid(projection.eye + dir * distance))
    }

    /// The direction of a pixel's ray.
    @inline(__always)
    func direction(_ px: Double, _ py: Double) -> Vector3 {
        let p = inverse.apply(Point(px, py))
        return projection.ray(x: p.x - rect.minX, y: p.y - rect.minY).direction
    }

    /// On the plane: how far along `dir` the ray meets the ground, or nil where it does not
    /// (sky, or beyond the far plane).
    @inline(__always)
    func planeDistance(_ dir: Vector3) -> Double? {
        guard dir.z < -1e-12 else { return nil }
        let distance = (projection.eye.z - groundZ) / -dir.z
        return distance > 0 && distance < projection.far ? distance : nil
    }

    /// On a plane without a grid: the view depth of the ground a pixel's ray meets (`pixel`'s
    /// arithmetic), or nil where it meets none (sky).
    @inline(__always)
    func planeDepth(_ px: Double, _ py: Double) -> Float? {
        let dir = direction(px, py)
        guard let distance = planeDistance(dir) else { return nil }
        return Float(distance * dir.dot(projection.forward))
    }

    /// Where a ground point falls in the imagery: texel position and level of detail.
    func texelAt(_ q: Vector3, along dir: Vector3, distance: Double, _ imagery: Imagery) -> SIMD3<Double> {
        let texel: (x: Double, y: Double), density: (x: Double, y: Double)
        if plane {
            // The plane's metres are not the ground's: the image's pixels per metre of it, from
            // the texels a metre east and a metre north. Only the east texel's x and the north
            // one's y are read, and a plane point's longitude is its x's alone, its latitude its
            // y's: each is found alone. Web Mercator imagery is read by a point's Mercator y, its
            // y over k·a, with no latitude between (exp, atan, tan and log a sample, there and
            // back); other imagery through the latitude, as `latLon` finds it.
            let ellipsoid = projection.frame.ellipsoid, ka = (ellipsoid.planeScale ?? 1) * ellipsoid.a
            let north = projection.frame.ecef(enu: q + Vector3(0, 1, 0)).y
            let northY: Double
            if imagery.projection == .webMercator {
                let v = projection.frame.ecef(enu: q)
                texel = (imagery.texelX(longitude: Ellipsoid.planeLongitude(v.x, ka)), imagery.texelY(mercatorY: v.y / ka))
                northY = imagery.texelY(mercatorY: north / ka)
            } else {
                let (lat, lon) = latLon(q)
                texel = imagery.texel(latitude: lat, longitude: lon)
                northY = imagery.texelY(latitude: Ellipsoid.planeLatitude(north, ka))
            }
            let eastX = imagery.texelX(longitude: Ellipsoid.planeLongitude(projection.frame.ecef(enu: q + Vector3(1, 0, 0)).x, ka))
            density = (abs(eastX - texel.x), abs(northY - texel.y))
        } else {
            let (lat, lon) = latLon(q)
            texel = imagery.texel(latitude: lat, longitude: lon)
            density = imagery.texelsPerMetre(latitude: lat)
        }
        // Image pixels under one screen pixel: the ground it covers, (distance / focal)²
        // times the pixel's own solid angle off the view's axis, cos³ of its angle to it (a
        // pixel at the frame's corner sees less of the sky than one at its centre), stretched
        // by 1 / cos(incidence), times image pixels per square metre. (Without the cos³, the
        // corners of a straight-down view read a zoom too coarse.) A drawn map's tiles leave the
        // stretch out: MapLibre chooses a tile's zoom from its distance alone, so the centre of a
        // tilted view reads the view's own zoom (with the stretch, a view at 60° read the zoom
        // above it there, its roads and buildings magnified and soft).
        let incidence = imagery.readsOneZoom ? 1 : max(1e-3, abs(dir.dot(plane ? up : (q - centre).normalized)))
        let axis = max(1e-3, dir.dot(projection.forward))
        let perPixel = (distance / focal) * (distance / focal) * (axis * axis * axis) / incidence * density.x * density.y
        return SIMD3(texel.x, texel.y, 0.5 * log2(max(1, perPixel)))
    }

    func node(_ px: Double, _ py: Double, _ imagery: Imagery?) -> Node {
        let ray = cast(px, py)
        guard let d = ray.distance else { return Node() }
        let haze = Float(1 - exp(-d / hazeDistance)) * 0.85
        guard !ray.inside else { return Node(ok: true, inside: true, distance: d, haze: haze) }
        return Node(ok: true, distance: d, depth: Float(d * ray.dir.dot(projection.forward)), haze: haze,
                    t: imagery.map { texelAt(projection.eye + ray.dir * d, along: ray.dir, distance: d, $0) } ?? .zero)
    }

    /// The plain ground colour hazed, as a pixel: the per-pixel cast's arithmetic (`mix`, then
    /// `RGBAColor.rgba8`: ⌊v · 255 + ½⌋, 0 at or below 0 and for NaN, 255 from 1), done on the
    /// three channels at once. (Every pixel under the grid's mesh takes it.)
    @inline(__always)
    func groundPixel(haze: Float) -> UInt32 {
        let v = groundUnit + (horizonUnit - groundUnit) * haze
        let w = v * 255 + 0.5
        // ⌊w⌋ for 0.5 < w < 255.5: w + 2^23 rounds w to an integer; one less where that rounded up.
        // (As `ModelRenderer.Shading.pack` does. A shared inlinable helper in TerrapinRaster,
        // called from both modules, cost 15 % more instructions in this loop and 2.4 % in the
        // model rasteriser under callgrind, so each module keeps its three lines.)
        let m = w + 8_388_608
        var bytes = unsafeBitCast(m, to: SIMD4<Int32>.self) &- 0x4B00_0000
        bytes = bytes &+ SIMD4<Int32>(repeating: 0).replacing(with: -1, where: m - 8_388_608 .> w)
        bytes = bytes.replacing(with: 255, where: v .>= 1)
        bytes = bytes.replacing(with: 0, where: .!(v .> 0))
        return UInt32(truncatingIfNeeded: bytes.x) | UInt32(truncatingIfNeeded: bytes.y) << 8 | UInt32(truncatingIfNeeded: bytes.z) << 16 | 0xFF00_0000
    }

    /// A ground pixel from its texel (nil: none there) and haze (colours in 0…255 floats:
    /// the imagery over the ground colour, then haze).
    @inline(__always)
    func drapedPixel(_ texel: SIMD4<Float>?, haze: Float) -> UInt32 {
        var rgb = base255
        if let texel {
            rgb = SIMD3(texel.x, texel.y, texel.z) * flatShade + rgb * (1 - texel.w / 255)
        }
        rgb = rgb + (horizon255 - rgb) * haze
        // Clamped by selects (`clamped` is a generic call per pixel here); NaN reads 0.
        var q = rgb + 0.5
        q = q.replacing(with: 0, where: .!(q .>= 0))
        q = q.replacing(with: 255, where: q .> 255)
        return UInt32(q.x) | UInt32(q.y) << 8 | UInt32(q.z) << 16 | 0xFF00_0000
    }

    /// A pixel cast on its own: its colour, and its depth where it is open ground; `imagery` is
    /// read where `draping`. (Not an optional: unwrapping one copied the imagery, retains and
    /// all, at every pixel.)
    func pixel(_ px: Double, _ py: Double, imagery: borrowing Imagery, draping: Bool, reader: inout ImageryReader) -> (UInt32, Float?) {
        let ray = cast(px, py)
        var color: RGBAColor
        var depth: Float?
        if let distance = ray.distance {
            color = ground
            if !ray.inside {
                depth = Float(distance * ray.dir.dot(projection.forward))
                if draping {
                    let t = texelAt(projection.eye + ray.dir * distance, along: ray.dir, distance: distance, imagery)
                    if let c = imagery.sample(x: t.x, y: t.y, level: t.z, reader: &reader) {
                        let k = flatShade / 255, cover = 1 - c.w / 255
                        color = RGBAColor(red: c.x * k + ground.red * cover, green: c.y * k + ground.green * cover, blue: c.z * k + ground.blue * cover, alpha: 1)
                    }
                }
            }
            color = mix(color, sky.horizon, Float(1 - exp(-distance / hazeDistance)) * 0.85)
        } else {
            // Sky: from the horizon colour up to the zenith colour with the ray's elevation.
            color = mix(sky.horizon, sky.zenith, min(1, max(0, Float(ray.dir.dot(up))) * 2.2))
        }
        return (Self.pack(color), depth)
    }

    /// A colour as an opaque pixel (`RGBAColor.rgba8`'s rounding).
    @inline(__always)
    static func pack(_ color: RGBAColor) -> UInt32 {
        let c8 = color.rgba8
        return UInt32(c8.red) | UInt32(c8.green) << 8 | UInt32(c8.blue) << 16 | 0xFF00_0000
    }
}

func mix(_ a: RGBAColor, _ b: RGBAColor, _ t: Float) -> RGBAColor {
    RGBAColor(red: a.red + (b.red - a.red) * t, green: a.green + (b.green - a.green) * t, blue: a.blue + (b.blue - a.blue) * t, alpha: 1)
}

#if canImport(Glibc)
import Glibc
#endif

/// A copy of the ground pass's depth buffer (view-axis metres per device pixel; infinity where
/// nothing was drawn) with the map's points → device pixels mapping: "is this point behind
/// what was drawn there?", and "which point of the ground does this pixel show?".
public struct DepthProbe: Sendable {
    public let depth: [Float]
    public let width: Int, height: Int
    /// Device pixels per map point.
    public let scale: Double
    /// Buffer pixel of map point (x, y): (x · scale + dx, y · scale + dy).
    public let dx: Double, dy: Double
    /// The device (canvas) pixel of the buffer's top-left pixel.
    public let x0: Int, y0: Int
    public let projection: Projection

    /// The ENU point (the projection's frame) drawn at buffer pixel (x, y), from its depth; nil
    /// where nothing was drawn (sky).
    @inline(__always)
    public func point(x: Int, y: Int) -> Vector3? {
        let z = Double(depth[y * width + x])
        guard z.isFinite else { return nil }
        let mx = (Double(x) + 0.5 - dx) / scale, my = (Double(y) + 0.5 - dy) / scale
        let f = projection.focalLength
        // The ray's direction scaled to depth 1 along the view axis.
        let dir = projection.forward + projection.right * ((mx - projection.width / 2) / f) + projection.up * ((projection.height / 2 - my) / f)
        return projection.eye + dir * z
    }

    /// Whether a point at `p` (map points) and view depth `z` is hidden: every pixel around the
    /// one under it (3 × 3) holds something nearer by more than 0.5 % + 1 m (so a line lying on
    /// the ground, whose depth differs from the mesh's by rounding, shows; one behind a hill or
    /// a building does not). Points off the buffer are not hidden.
    public func hides(_ p: Point, depth z: Double) -> Bool {
        let x = Int((p.x * scale + dx).rounded(.down)), y = Int((p.y * scale + dy).rounded(.down))
        guard x >= 0, y >= 0, x < width, y < height, z.isFinite else { return false }
        var farthest: Float = 0
        for yy in max(0, y - 1)...min(height - 1, y + 1) {
            for xx in max(0, x - 1)...min(width - 1, x + 1) { farthest = max(farthest, depth[yy * width + xx]) }
        }
        guard farthest.isFinite else { return false }
        return z > Double(farthest) * 1.005 + 1
    }
}
