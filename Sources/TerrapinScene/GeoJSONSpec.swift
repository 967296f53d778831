// A GeoJSON file a scene names, and the simplestyle-spec defaults for its features (scene data;
// TerrapinLoad's GeoJSON.swift reads the file into map content).
import TerrapinViews

/// A GeoJSON file in a scene, with default styles for its features.
public struct GeoJSONSpec: Equatable, Sendable {
    public var file: String
    /// simplestyle-spec properties applied where a feature has none of its own.
    public var style = GeoJSONStyle()

    public init(file: String, style: GeoJSONStyle = GeoJSONStyle()) {
        (self.file, self.style) = (file, style)
    }
}

/// The simplestyle-spec properties Terrapin draws (nil: the spec's default).
public struct GeoJSONStyle: Equatable, Sendable {
    public var stroke: Color?
    public var strokeWidth: Double?
    public var strokeOpacity: Double?
    public var fill: Color?
    public var fillOpacity: Double?
    public var markerColor: Color?
    public init() {}

    public static let keys = ["stroke", "stroke-width", "stroke-opacity", "fill", "fill-opacity", "marker-color"]
    /// simplestyle-spec 1.1.0's defaults.
    package static let defaultStroke = Color(hex: "#555555")!, defaultFill = Color(hex: "#555555")!, defaultMarker = Color(hex: "#7e7e7e")!
}
