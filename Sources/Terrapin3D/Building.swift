// Buildings: footprints extruded from a base to a roof height, standing on the ground under
// them. With the terrain they make the surface "mesh" that `relativeToMesh` altitudes and
// occlusion use, and they are drawn into the terrain's depth buffer, so terrain and buildings
// hide each other correctly.
import TerrapinGeo
import TerrapinGeometry

/// An extruded footprint: a simple polygon of positions (altitudes ignored, either winding),
/// less its courtyards, from `base` to `roof` metres above the ground at the footprint's first
/// vertex.
public struct Building: Sendable, Equatable {
    public var footprint: [LatLngAltitude]
    /// Courtyards: rings inside the footprint with no building over them (either winding; each
    /// of at least 3 valid positions, or it is ignored; all rings together at most
    /// `maxVertices`). Default none.
    public var holes: [[LatLngAltitude]] = [] {
        didSet {
            var budget = Self.maxVertices - footprint.count
            holes = holes.filter { ring in
                guard ring.count >= 3, ring.count <= budget, ring.allSatisfy(\.isValid) else { return false }
                budget -= ring.count
                return true
            }
        }
    }
    /// The footprint, then the courtyards.
    public var rings: [[LatLngAltitude]] { [footprint] + holes }
    /// Metres above the ground where the walls start. Default 0.
    public var base: Double
    /// Metres above the ground of the flat roof.
    public var roof: Double
    /// sRGB 0…255. Default a light warm grey.
    public var color: SIMD3<Double>

    public static let maxVertices = 1_000
    /// Lit as a MapLibre style lights its `fill-extrusion`s (a basemap's buildings) instead of by
    /// the map's sun. Default nil: the sun.
    public var extrusionLight: ExtrusionLight?
    /// An image on the walls and roof instead of `color` (a basemap's `fill-extrusion-pattern`).
    public var pattern: BuildingPattern?
    /// Below 1, the building is drawn with the others of its opacity as one layer (hiding each
    /// other, seen through as a whole), laid over the view at this opacity, as MapLibre draws
    /// a `fill-extrusion` layer's `fill-extrusion-opacity`. 0…1, default 1.
    public var opacity: Double = 1

    /// Nil unless there are 3…1,000 valid vertices and 0 ≤ base < roof ≤ 10,000 m.
    public init?(footprint: [LatLngAltitude], base: Double = 0, roof: Double, color: SIMD3<Double> = SIMD3(214, 208, 198)) {
        guard (3...Self.maxVertices).contains(footprint.count), footprint.allSatisfy(\.isValid),
              base.isFinite, roof.isFinite, base >= 0, roof > base, roof <= 10_000 else { return nil }
        self.footprint = footprint
        self.base = base
        self.roof = roof
        self.color = color
    }

    /// Whether `p` lies inside the footprint and outside its courtyards (even-odd rule over
    /// every ring, in degrees: fine at building scale).
    public func contains(_ p: LatLngAltitude) -> Bool {
        EvenOdd.contains(p.longitude, p.latitude, rings: rings) { ($0.longitude, $0.latitude) }
    }
}
