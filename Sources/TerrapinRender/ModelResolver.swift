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
    /// Each instance's box likewise (a node's mesh, as its transform places it): together what
    /// drawing it covers, overdraw included (10,000 nodes can instance one view-sized mesh).
    public let instanceBoxes: [Rect]
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
            return ResolvedModel(index: index, name: name, placed: nil, box: nil, instanceBoxes: [], depth: nil, altitude: 0, hidden: .invalidPosition, triangles: 0)
        }
        let altitude = ground.altitude(of: model.position, mode: model.altitudeMode)
        let asset: ModelAsset
        switch model.asset {
        case .success(let a): asset = a
        case .failure(let e):
            return ResolvedModel(index: index, name: name, placed: nil, box: nil, instanceBoxes: [], depth: nil, altitude: altitude, hidden: .notLoaded(e.description), triangles: 0)
        case nil:
            // Resolve reads no files: a map that skipped the load stage (MapLoader) shows none.
            return ResolvedModel(index: index, name: name, placed: nil, box: nil, instanceBoxes: [], depth: nil, altitude: altitude,
                                 hidden: .notLoaded("'\(model.url.path)' was not loaded (MapLoader.load runs before resolve)"), triangles: 0)
        }
        let position = LatLngAltitude(latitude: model.position.latitude, longitude: model.position.longitude, altitude: altitude)
        let placed = PlacedModel(asset: asset, at: position, scale: model.scale, orientation: model.orientation, in: projection.frame)
        let (box, instanceBoxes) = projectedBoxes(placed, projection: projection)
        let depth = projection.project(enu: placed.origin)?.depth
        var hidden: HiddenReason?
        if box == nil {
            hidden = .behindCamera
        } else if let b = box, b.maxX < 0 || b.maxY < 0 || b.minX > projection.width || b.minY > projection.height {
            hidden = .offScreen
        } else if hiddenByGround(placed, projection: projection, ground: ground) {
            hidden = .occluded
        }
        return ResolvedModel(index: index, name: name, placed: placed, box: box, instanceBoxes: instanceBoxes, depth: depth, altitude: altitude, hidden: hidden, triangles: asset.triangleCount)
    }

    /// The box of every drawn vertex in front of the near plane, projected (points), and each
    /// instance's.
    static func projectedBoxes(_ placed: PlacedModel, projection: Projection) -> (Rect?, [Rect]) {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var boxes: [Rect] = []
        for instance in placed.asset.instances {
            var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
            for v in placed.asset.primitives[instance.primitive].positions {
                guard let s = projection.project(enu: placed.enu(instance.transform.apply(SIMD3(Double(v.x), Double(v.y), Double(v.z))))) else { continue }
                x0 = min(x0, s.x); x1 = max(x1, s.x); y0 = min(y0, s.y); y1 = max(y1, s.y)
            }
            guard x0 <= x1, y0 <= y1 else { continue }
            boxes.append(Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
            minX = min(minX, x0); maxX = max(maxX, x1); minY = min(minY, y0); maxY = max(maxY, y1)
        }
        guard minX <= maxX, minY <= maxY else { return (nil, []) }
        return (Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY), boxes)
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
