// Resolve's placement of the SDK 1.0's map controls: each position's controls stacked along its
// edge (spacers sharing the room left), their buttons and glyphs, and what a tap on each does to
// the camera. The painter draws what this decides; taps reach it before any map content.
import Foundation
import TerrapinGeo
import TerrapinGeometry
import TerrapinScene

/// A button's drawing.
public enum ControlGlyph: String, Equatable, Sendable {
    case compass, zoomIn = "+", zoomOut = "−", tiltUp = "tilt up", tiltDown = "tilt down"
    case rotateLeft = "↺", rotateRight = "↻", panLeft = "←", panRight = "→", panUp = "↑", panDown = "↓"
}

/// One button of a placed control: its frame (points, from the map's top-left) and glyph.
public struct ControlButton: Equatable, Sendable {
    public let frame: Rect
    public let glyph: ControlGlyph
}

/// A control placed on the map.
public struct ResolvedControl: Equatable, Sendable {
    public let kind: MapControlKind
    public let position: MapControlPosition
    /// The card's frame.
    public let frame: Rect
    public let buttons: [ControlButton]
    /// The camera's heading, degrees (the compass's needle turns by minus it).
    public let heading: Double
}

enum MapControlLayout {
    /// A button's side, in points (the SDK's touch target, less its padding).
    static let button = 40.0

    /// Every declared control placed for a `width` × `height` map, in declaration order of the
    /// positions, each position's controls in order (spacers take room and are not listed).
    static func place(_ groups: [MapControlGroup], width: Double, height: Double, heading: Double) -> [ResolvedControl] {
        var out: [ResolvedControl] = []
        for group in groups {
            let vertical = group.position == .leading || group.position == .trailing
            // Each element's size along the edge and across it.
            func extent(_ kind: MapControlKind) -> (along: Double, across: Double) {
                switch kind {
                case .spacer: return (0, 0)
                case .compass: return (button, button)
                case .zoom(let o), .tilt(let o), .rotate(let o), .panHorizontal(let o), .panVertical(let o):
                    let stacked = o == .vertical || (o == .auto && vertical)
                    // Two buttons: along the edge when the control's axis is the edge's.
                    return stacked == vertical ? (2 * button, button) : (button, 2 * button)
                }
            }
            let sizes = group.controls.map(extent)
            let side = vertical ? height : width
            let spacers = group.controls.filter { $0 == .spacer }.count
            let fixed = sizes.reduce(0) { $0 + $1.along } + group.spacing * Double(max(0, group.controls.count - 1))
            let room = max(0, side - 2 * group.margin - fixed)
            // No spacer: the stack is centred along the edge.
            var along = spacers == 0 ? (side - fixed) / 2 : group.margin
            for (kind, size) in zip(group.controls, sizes) {
                defer { along += group.spacing }
                if kind == .spacer { along += room / Double(spacers); continue }
                let across: Double
                switch group.position {
                case .leading, .top: across = group.margin
                case .trailing: across = width - group.margin - size.across
                case .bottom: across = height - group.margin - size.across
                }
                let frame = vertical ? Rect(x: across, y: along, width: size.across, height: size.along)
                                     : Rect(x: along, y: across, width: size.along, height: size.across)
                along += size.along
                out.append(ResolvedControl(kind: kind, position: group.position, frame: frame, buttons: buttons(kind, frame), heading: heading))
            }
        }
        return out
    }

    /// A control's buttons in its frame: first the top (or left) one.
    static func buttons(_ kind: MapControlKind, _ frame: Rect) -> [ControlButton] {
        let glyphs: [ControlGlyph]
        switch kind {
        case .spacer: return []
        case .compass: return [ControlButton(frame: frame, glyph: .compass)]
        case .zoom: glyphs = [.zoomIn, .zoomOut]
        case .tilt: glyphs = [.tiltUp, .tiltDown]
        case .rotate: glyphs = [.rotateLeft, .rotateRight]
        case .panHorizontal: glyphs = [.panLeft, .panRight]
        case .panVertical: glyphs = [.panUp, .panDown]
        }
        let stacked = frame.height > frame.width
        return glyphs.enumerated().map { i, glyph in
            let d = Double(i) * button
            return ControlButton(frame: stacked ? Rect(x: frame.minX, y: frame.minY + d, width: button, height: button)
                                                : Rect(x: frame.minX + d, y: frame.minY, width: button, height: button), glyph: glyph)
        }
    }

    /// The camera after one press of `glyph` on a `width` × `height` view seen through
    /// `projection` (the camera's): range halved or doubled, tilt ±15° (within 0…90), heading
    /// ±45° (compass: north), or the map panned a third of the view across or along it (the
    /// content shifts by that many points at the centre, as auto-pan moves it: `MapResolver.pan`).
    static func step(_ glyph: ControlGlyph, _ camera: Camera, width: Double, height: Double, projection: Projection) -> Camera {
        var c = camera
        switch glyph {
        case .compass: c.heading = 0
        case .zoomIn: c.range = camera.range / 2
        case .zoomOut: c.range = camera.range * 2
        case .tiltUp: c.tilt = min(90, camera.tilt + 15)
        case .tiltDown: c.tilt = max(0, camera.tilt - 15)
        case .rotateLeft: c.heading = normalized(camera.heading - 45)
        case .rotateRight: c.heading = normalized(camera.heading + 45)
        // "→" looks further right: the content moves left.
        case .panLeft: c = MapResolver.pan(camera, by: Point(width / 3, 0), projection: projection)
        case .panRight: c = MapResolver.pan(camera, by: Point(-width / 3, 0), projection: projection)
        case .panUp: c = MapResolver.pan(camera, by: Point(0, height / 3), projection: projection)
        case .panDown: c = MapResolver.pan(camera, by: Point(0, -height / 3), projection: projection)
        }
        return c
    }

    static func normalized(_ heading: Double) -> Double {
        let h = heading.truncatingRemainder(dividingBy: 360)
        return h < 0 ? h + 360 : h
    }
}
