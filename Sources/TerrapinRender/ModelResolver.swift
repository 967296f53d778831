// Resolve for 3D models: each placed for the camera (its altitude mode against the ground, its
// scale and orientation), its drawn vertices projected into a screen box, and hidden where it
// is off-screen, behind the eye, could not be loaded, or where the ground hides every point of
// a 3×3×3 lattice over its bounds (then it is not drawn at all; otherwise the depth buffer
// decides pixel by pixel). Taps are hit-tested against its triangles, along the tap's ray.
import TerrapinGeo
import TerrapinGeometry
import TerrapinModels
import TerrapinScene
import TerrapinTerrain

public struct ResolvedModel {
    /// Index among the map's models, in declaration order.
    public let index: Int
    /// The file's name (its last path component).
    public let name: String
    /// Placed for this camera; nil when the model could not be loaded.
    public let placed: PlacedModel?
    /// The box of its projected vertices, in points; nil when none is in front of the eye.
    public let box: Rect?
    /// Metres along the view axis to its origin.
    public let depth: Double?
    /// Height above the ellipsoid its origin stands at.
    public let altitude: Double
    public let hidden: HiddenReason?
    public let triangles: Int
}

enum ModelResolver {
    static func resolve(_ map: Map, projection: Projection, ground: Ground) -> [ResolvedModel] {
        map.models.enumerated().map { resolve($1, index: $0, projection: projection, ground: ground) }
    }

    static func resolve(_ model: Model, index: Int, projection: Projection, ground: Ground) -> ResolvedModel {
        let name = model.url.lastPathComponent
        guard model.position.isValid else {
            return ResolvedModel(index: index, name: name, placed: nil, box: nil, depth: nil, altitude: 0, hidden: .invalidPosition, triangles: 0)
        }
        let altitude = ground.altitude(of: model.position, mode: model.altitudeMode)
        let asset: ModelAsset
        switch model.asset {
        case .success(let a): asset = a
        case .failure(let e):
            return ResolvedModel(index: index, name: name, placed: nil, box: nil, depth: nil, altitude: altitude, hidden: .notLoaded(e.description), triangles: 0)
        case nil:
            // Resolve reads no files: a map that skipped the load stage (MapLoader) shows none.
            return ResolvedModel(index: index, name: name, placed: nil, box: nil, depth: nil, altitude: altitude,
                                 hidden: .notLoaded("'\(model.url.path)' was not loaded (MapLoader.load runs before resolve)"), triangles: 0)
        }
        let position = LatLngAltitude(latitude: model.position.latitude, longitude: model.position.longitude, altitude: altitude)
        let placed = PlacedModel(asset: asset, at: position, scale: model.scale, orientation: model.orientation, in: projection.frame)
        let box = projectedBox(placed, projection: projection)
        let depth = projection.project(enu: placed.origin)?.depth
        var hidden: HiddenReason?
        if box == nil {
            hidden = .behindCamera
        } else if let b = box, b.maxX < 0 || b.maxY < 0 || b.minX > projection.width || b.minY > projection.height {
            hidden = .offScreen
        } else if hiddenByGround(placed, projection: projection, ground: ground) {
            hidden = .occluded
        }
        return ResolvedModel(index: index, name: name, placed: placed, box: box, depth: depth, altitude: altitude, hidden: hidden, triangles: asset.triangleCount)
    }

    /// The box of every drawn vertex in front of the near plane, projected (points).
    static func projectedBox(_ placed: PlacedModel, projection: Projection) -> Rect? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        placed.forEachVertex { p in
            guard let s = projection.project(enu: p) else { return }
            minX = min(minX, s.x); maxX = max(maxX, s.x); minY = min(minY, s.y); maxY = max(maxY, s.y)
        }
        guard minX <= maxX, minY <= maxY else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// Whether the ground blocks the line of sight to every point of a 3×3×3 lattice over the
    /// model's bounds.
    static func hiddenByGround(_ placed: PlacedModel, projection: Projection, ground: Ground) -> Bool {
        let lo = placed.asset.boundsMin, hi = placed.asset.boundsMax
        for i in 0...2 {
            for j in 0...2 {
                for k in 0...2 {
                    let f = SIMD3<Double>(Double(i), Double(j), Double(k)) / 2
                    let p = placed.enu(lo + (hi - lo) * f)
                    if !ground.isOccluded(from: projection.eye, to: p, in: projection.frame) { return false }
                }
            }
        }
        return true
    }

    /// The distance along the tap's ray to the model's nearest triangle, when the ground does
    /// not hide that point.
    static func hit(_ placed: PlacedModel, x: Double, y: Double, projection: Projection, ground: Ground) -> Double? {
        let ray = projection.ray(x: x, y: y)
        guard let t = placed.intersect(origin: ray.origin, direction: ray.direction) else { return nil }
        let point = ray.origin + ray.direction * t
        return ground.isOccluded(from: ray.origin, to: point, in: projection.frame) ? nil : t
    }
}
