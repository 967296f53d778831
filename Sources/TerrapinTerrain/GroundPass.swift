// The ground and 3D layers of a map, painted into one depth buffer: sky and sea-level ground by
// a ray per pixel, then the terrain mesh, then buildings, then the result composited onto the
// canvas. The map's painter calls these in display-list order; nothing here decides what is
// drawn — that was resolved before.
//
// Invariant: every pass writes device pixels of `frame`, which covers the map's rect clipped to
// the canvas; depth is metres along the view axis (smaller is nearer). The ray-cast ground
// leaves depth at +∞ inside the terrain grid's extent, where the mesh decides (it is the same
// surface at sea level, so a depth from both would fight).
import TerrapinGeo
import TerrapinGeometry
import TerrapinRaster

/// Sky colours: the horizon and the zenith.
public struct SkyColors: Sendable, Equatable {
    public var zenith: RGBAColor
    public var horizon: RGBAColor
    public init(zenith: RGBAColor, horizon: RGBAColor) {
        self.zenith = zenith
        self.horizon = horizon
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
        hazeDistance = max(2_000, projection.camera.range * 6)
        frame = DepthFrame(width: x1 - x0, height: y1 - y0)
    }

    var horizon: SIMD3<Float> { SIMD3<Float>(sky.horizon.red, sky.horizon.green, sky.horizon.blue) * 255 }
    var toDevice: (scale: Double, dx: Double, dy: Double) {
        (scale: transform.a, dx: transform.a * rect.minX + transform.tx - Double(x0), dy: transform.d * rect.minY + transform.ty - Double(y0))
    }

    /// Sky and sea-level ground by casting a ray per pixel against the Earth (a sphere of the
    /// ellipsoid's equatorial radius tangent at the camera's centre), with haze growing with
    /// distance; `imagery` drapes the flat ground outside `grid` (the mesh drapes it inside).
    public mutating func drawSkyAndFlatGround(ground groundColor: RGBAColor, grid: HeightGrid?, imagery: Imagery?, style: TerrainStyle) {
        guard let inverse = transform.inverted else { return }
        let projection = self.projection, rect = self.rect, x0 = self.x0, y0 = self.y0
        let r = WGS84.a
        let centre = Vector3(0, 0, -r - projection.frame.origin.altitude)
        let m = projection.eye - centre
        let c = m.dot(m) - r * r
        let up = m.normalized
        let hazeDistance = self.hazeDistance
        let lat0 = projection.frame.origin.latitude * Double.pi / 180
        let degLat = 111_132.954 - 559.822 * cos(2 * lat0), degLon = 111_412.84 * cos(lat0)
        func insideGrid(_ q: Vector3) -> Bool {
            guard let g = grid else { return false }
            let lat = projection.frame.origin.latitude + q.y / degLat, lon = projection.frame.origin.longitude + q.x / degLon
            return lat >= g.southCentre - g.cellHeight && lat <= g.northCentre + g.cellHeight
                && lon >= g.westCentre - g.cellWidth && lon <= g.eastCentre + g.cellWidth
        }
        let focal = projection.focalLength * transform.a
        let flatShade = imagery?.shadesRelativeToFlat == true ? 1 : Float(1 - (imagery?.shading ?? 0) * 0.75 * (1 - style.light.2))
        var reader = ImageryReader()
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
            guard let c = imagery.sample(x: texel.x, y: texel.y, level: 0.5 * log2(max(1, perPixel)), reader: &reader) else { return base }
            let k = flatShade / 255, cover = 1 - c.w / 255
            return RGBAColor(red: c.x * k + base.red * cover, green: c.y * k + base.green * cover, blue: c.z * k + base.blue * cover, alpha: 1)
        }
        let width = frame.width
        for py in y0..<(y0 + frame.height) {
            for px in x0..<(x0 + width) {
                let p = inverse.apply(Point(Double(px) + 0.5, Double(py) + 0.5))
                let (_, dir) = projection.ray(x: p.x - rect.minX, y: p.y - rect.minY)
                let b = m.dot(dir)
                let disc = b * b - c
                var color: RGBAColor
                let i = (py - y0) * width + (px - x0)
                if disc > 0, -b - disc.squareRoot() > 0 {
                    let distance = -b - disc.squareRoot()
                    let q = projection.eye + dir * distance
                    color = groundColor
                    if !insideGrid(q) {
                        frame.depth[i] = Float(distance * dir.dot(projection.forward))
                        color = draped(groundColor, at: q, along: dir, distance: distance)
                    }
                    color = mix(color, sky.horizon, Float(1 - exp(-distance / hazeDistance)) * 0.85)
                } else {
                    // Sky: from the horizon colour up to the zenith colour with the ray's elevation.
                    color = mix(sky.horizon, sky.zenith, min(1, max(0, Float(dir.dot(up))) * 2.2))
                }
                let c8 = color.rgba8
                frame.pixels[i] = UInt32(c8.red) | UInt32(c8.green) << 8 | UInt32(c8.blue) << 16 | 0xFF00_0000
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

func mix(_ a: RGBAColor, _ b: RGBAColor, _ t: Float) -> RGBAColor {
    RGBAColor(red: a.red + (b.red - a.red) * t, green: a.green + (b.green - a.green) * t, blue: a.blue + (b.blue - a.blue) * t, alpha: 1)
}

#if canImport(Glibc)
import Glibc
#endif
