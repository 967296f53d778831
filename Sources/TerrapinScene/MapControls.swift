// The SDK 1.0's map controls: `.mapControls(at:margin:spacing:) { CompassControl(); ZoomControl() }`
// declares buttons at one edge of the map. These are values; TerrapinRender lays them out
// (MapControlLayout), draws them above everything and takes their taps first.
import TerrapinViews

/// The edge of the map a group of controls sits at: `.top` and `.bottom` centred horizontally,
/// `.leading` and `.trailing` centred vertically (a `Spacer` pushes them toward one end).
public enum MapControlPosition: String, Equatable, Hashable, Sendable, CaseIterable {
    case top, bottom, leading, trailing
}

/// How a two-button control lays out its buttons. `.auto`: vertical at `.leading` and
/// `.trailing`, horizontal at `.top` and `.bottom`.
public enum MapControlOrientation: String, Equatable, Hashable, Sendable, CaseIterable {
    case auto, horizontal, vertical
}

/// One control, as the layout sees it (the controls' `_primitiveControls`).
public enum MapControlKind: Equatable, Sendable {
    /// A compass turned with the heading; a tap turns the map to north.
    case compass
    /// "+" and "−": the camera's range halved or doubled.
    case zoom(MapControlOrientation)
    /// Tilt up and down by 15°.
    case tilt(MapControlOrientation)
    /// Heading −45° ("↺") and +45° ("↻").
    case rotate(MapControlOrientation)
    /// "←" and "→": the centre moves a third of the view's width.
    case panHorizontal(MapControlOrientation)
    /// "↑" and "↓": the centre moves a third of the view's height, along the heading.
    case panVertical(MapControlOrientation)
    /// Flexible space (SwiftUI's `Spacer`): the room left is shared between the spacers.
    case spacer

    public var name: String {
        switch self {
        case .compass: "compass"
        case .zoom: "zoom"
        case .tilt: "tilt"
        case .rotate: "rotate"
        case .panHorizontal: "pan horizontal"
        case .panVertical: "pan vertical"
        case .spacer: "spacer"
        }
    }
}

/// A map control (the SDK's protocol is sealed: its conformers are the controls below,
/// `Spacer` and what `MapControlsBuilder` makes).
public protocol MapControl {
    /// The controls it stands for, flattened, in order.
    var _primitiveControls: [MapControlKind] { get }
}

public struct CompassControl: MapControl, View, Sendable {
    public init() {}
    public var _primitiveControls: [MapControlKind] { [.compass] }
    public var body: some View { EmptyView() }
}

/// A two-button control: zoom, tilt, rotate or pan (`ZoomControl`, … below), laid out by its
/// orientation.
public struct OrientedMapControl<Kind: OrientedMapControlKind>: MapControl, View, Sendable {
    public let orientation: MapControlOrientation
    public init(orientation: MapControlOrientation = .auto) { self.orientation = orientation }
    public var _primitiveControls: [MapControlKind] { [Kind.control(orientation)] }
    public var body: some View { EmptyView() }
}

/// Which two-button control an `OrientedMapControl` is.
public protocol OrientedMapControlKind: Sendable {
    static func control(_ orientation: MapControlOrientation) -> MapControlKind
}

public enum ZoomControlKind: OrientedMapControlKind { public static func control(_ o: MapControlOrientation) -> MapControlKind { .zoom(o) } }
public enum TiltControlKind: OrientedMapControlKind { public static func control(_ o: MapControlOrientation) -> MapControlKind { .tilt(o) } }
public enum RotateControlKind: OrientedMapControlKind { public static func control(_ o: MapControlOrientation) -> MapControlKind { .rotate(o) } }
public enum PanHorizontalControlKind: OrientedMapControlKind {
    public static func control(_ o: MapControlOrientation) -> MapControlKind { .panHorizontal(o) }
}
public enum PanVerticalControlKind: OrientedMapControlKind {
    public static func control(_ o: MapControlOrientation) -> MapControlKind { .panVertical(o) }
}

/// "+" and "−".
public typealias ZoomControl = OrientedMapControl<ZoomControlKind>
/// Tilt up and down.
public typealias TiltControl = OrientedMapControl<TiltControlKind>
/// Turn left and right.
public typealias RotateControl = OrientedMapControl<RotateControlKind>
/// Pan left and right.
public typealias PanHorizontalControl = OrientedMapControl<PanHorizontalControlKind>
/// Pan up and down.
public typealias PanVerticalControl = OrientedMapControl<PanVerticalControlKind>

extension Spacer: MapControl {
    public var _primitiveControls: [MapControlKind] { [.spacer] }
}

/// What `MapControlsBuilder` makes: controls in order.
public struct MapControls: MapControl, Sendable {
    public let _primitiveControls: [MapControlKind]
    public init(_ controls: [MapControlKind]) { _primitiveControls = controls }
}

/// Collects controls: blocks, `if`, `if`/`else`, `for` and availability checks.
@resultBuilder
public enum MapControlsBuilder: ListBuilder {
    public typealias Element = MapControlKind
    public static func buildExpression(_ control: some MapControl) -> [MapControlKind] { control._primitiveControls }
    public static func buildFinalResult(_ controls: [MapControlKind]) -> MapControls { MapControls(controls) }
}

/// The controls declared at one edge.
public struct MapControlGroup: Equatable, Sendable {
    public var position: MapControlPosition
    /// Points between the controls and the map's edge. Default 16.
    public var margin: Double
    /// Points between neighbouring controls. Default 8.
    public var spacing: Double
    public var controls: [MapControlKind]

    public init(position: MapControlPosition, margin: Double = 16, spacing: Double = 8, controls: [MapControlKind]) {
        self.position = position
        self.margin = margin.isFinite ? max(0, margin) : 16
        self.spacing = spacing.isFinite ? max(0, spacing) : 8
        self.controls = controls
    }
}

extension Map {
    /// Places `controls` at `position` (the SDK 1.0's `mapControls`): stacked along that edge,
    /// `margin` points from it, `spacing` between them; top to bottom at `.leading` and
    /// `.trailing`, left to right at `.top` and `.bottom`. Applying it again for the same
    /// position replaces that position's controls; the other positions keep theirs. Drawn above
    /// everything, they take taps first: each step changes the camera binding.
    public func mapControls<C: MapControl>(at position: MapControlPosition = .trailing, margin: Double = 16, spacing: Double = 8,
                                           @MapControlsBuilder _ controls: () -> C) -> Map {
        let group = MapControlGroup(position: position, margin: margin, spacing: spacing, controls: controls()._primitiveControls)
        return with { map in
            map.controls.removeAll { $0.position == position }
            map.controls.append(group)
        }
    }
}
