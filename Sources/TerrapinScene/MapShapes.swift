// Polylines and polygons, as in the Maps 3D SDK: values that TerrapinRender resolves into the
// display list's overlays layer. Widths are in points on screen; colours are UIColors.
import TerrapinGeo
import TerrapinViews

/// Map content that takes taps: `.onTap { }` runs when a tap hits what it drew.
public protocol MapContentTappable {
    func onTap(_ action: @escaping () -> Void) -> Self
}

/// How a polyline's stroke is broken along its length. The SDK's reference lists `.solid` and
/// `.dotted`; `.dashed` is Terrapin's. With the stroke's width w: dots are round, w across,
/// one every 2w; dashes are 3w long with gaps of 2w, their ends square. The pattern restarts
/// where the line comes out from behind the ground.
public enum StrokePattern: String, Equatable, Hashable, Sendable, CaseIterable {
    case solid
    case dotted
    case dashed
}

public struct Polyline: MapContent, MapContentTappable {
    public struct StrokeStyle {
        public var strokeColor: UIColor
        /// Points on screen. Default 1.
        public var strokeWidth: Double
        /// The casing drawn around the line. Default white.
        public var outerColor: UIColor
        /// The casing's width on each side, as a fraction (0…1) of `strokeWidth`. Default 0.
        public var outerWidth: Double
        /// Solid, dotted or dashed (the casing follows the line's pattern). Default `.solid`.
        public var strokePattern: StrokePattern

        public init(strokeColor: UIColor = .white, strokeWidth: Double = 1.0, outerColor: UIColor = .white, outerWidth: Double = 0.0,
                    strokePattern: StrokePattern = .solid) {
            (self.strokeColor, self.strokeWidth, self.outerColor, self.outerWidth, self.strokePattern) =
                (strokeColor, strokeWidth, outerColor, outerWidth, strokePattern)
        }
    }

    public struct ContourStyle {
        /// Segments follow great circles (densified) instead of straight lines in Web Mercator.
        public var geodesic: Bool
        /// A curtain down to the ground (needs `.relativeToGround` or `.absolute`).
        public var extruded: Bool
        /// Parts hidden by the terrain are drawn dimmed instead of not at all.
        public var drawOccludedSegments: Bool

        public init(geodesic: Bool = false, extruded: Bool = false, drawOccludedSegments: Bool = false) {
            (self.geodesic, self.extruded, self.drawOccludedSegments) = (geodesic, extruded, drawOccludedSegments)
        }
    }

    public var path: [LatLngAltitude]
    public var altitudeMode: AltitudeMode
    /// Default `StrokeStyle()`: 1 pt of white.
    public var strokeStyle = StrokeStyle()
    /// Default `ContourStyle()`: straight, not extruded, hidden where occluded.
    public var contourStyle = ContourStyle()
    public var tapAction: (() -> Void)?

    public init(path: [LatLngAltitude], altitudeMode: AltitudeMode = .clampToGround) {
        (self.path, self.altitudeMode) = (path, altitudeMode)
    }

    public func stroke(_ style: StrokeStyle) -> Polyline { var p = self; p.strokeStyle = style; return p }
    public func contour(_ style: ContourStyle) -> Polyline { var p = self; p.contourStyle = style; return p }
    public func onTap(_ action: @escaping () -> Void) -> Polyline { var p = self; p.tapAction = action; return p }
    public var items: [MapItem] { [.polyline(self)] }
}

public struct Polygon: MapContent, MapContentTappable {
    public struct StyleOptions {
        /// Default white.
        public var fillColor: UIColor
        /// The outline (Terrapin, as the JavaScript `Polygon3DElement`): default clear, 0 pt.
        public var strokeColor: UIColor
        public var strokeWidth: Double
        /// A solid: walls from the ground up to the path's altitude, and a top.
        public var extruded: Bool
        public var drawsOccludedSegments: Bool
        /// Edges follow great circles. Default true (as the SDK).
        public var geodesic: Bool

        public init(fillColor: UIColor = .white, strokeColor: UIColor = .clear, strokeWidth: Double = 0, extruded: Bool = false,
                    drawsOccludedSegments: Bool = false, geodesic: Bool = true) {
            (self.fillColor, self.strokeColor, self.strokeWidth, self.extruded, self.drawsOccludedSegments, self.geodesic) =
                (fillColor, strokeColor, strokeWidth, extruded, drawsOccludedSegments, geodesic)
        }
    }

    /// The outer ring (closed implicitly: the last point joins the first).
    public var path: [LatLngAltitude]
    /// Holes.
    public var innerPaths: [[LatLngAltitude]]
    public var altitudeMode: AltitudeMode
    /// Default `StyleOptions()`: white, no outline.
    public var styleOptions = StyleOptions()
    public var tapAction: (() -> Void)?

    public init(path: [LatLngAltitude], innerPaths: [[LatLngAltitude]] = [], altitudeMode: AltitudeMode = .clampToGround) {
        (self.path, self.innerPaths, self.altitudeMode) = (path, innerPaths, altitudeMode)
    }

    /// The SDK 1.0's form: an outer ring and holes as one geometry.
    public init(geometry: PolygonGeometry, altitudeMode: AltitudeMode = .clampToGround) {
        self.init(path: geometry.path, innerPaths: geometry.innerPaths, altitudeMode: altitudeMode)
    }

    /// The outer ring and the holes.
    public var geometry: PolygonGeometry { PolygonGeometry(path: path, innerPaths: innerPaths) }

    public func style(_ options: StyleOptions) -> Polygon { var p = self; p.styleOptions = options; return p }
    public func onTap(_ action: @escaping () -> Void) -> Polygon { var p = self; p.tapAction = action; return p }
    public var items: [MapItem] { [.polygon(self)] }
}

/// A polygon's outline (the SDK 1.0's `PolygonGeometry`): the outer ring and optional holes,
/// filled by the even-odd rule; an extruded polygon has walls on every ring.
public struct PolygonGeometry: Equatable, Hashable, Sendable {
    public var path: [LatLngAltitude]
    public var innerPaths: [[LatLngAltitude]]
    public init(path: [LatLngAltitude], innerPaths: [[LatLngAltitude]] = []) {
        (self.path, self.innerPaths) = (path, innerPaths)
    }
}

/// Where a tap on the map landed, for `Map.onTap`.
public struct MapTapInfo {
    public enum Content: Equatable, Sendable {
        /// The map itself.
        case map
        /// A vector basemap's place (its label was tapped): "layer/feature id".
        case place(id: String)
    }
    /// The ground point under the tap: a ray cast against the terrain or the ellipsoid.
    public let location: LatLngAltitude
    public let content: Content

    public init(location: LatLngAltitude, content: Content = .map) {
        (self.location, self.content) = (location, content)
    }
}
