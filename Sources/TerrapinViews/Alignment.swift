// Alignment, edges and insets, as in SwiftUI.
import TerrapinGeometry

public enum HorizontalAlignment: Sendable, Equatable { case leading, center, trailing }
/// `firstTextBaseline` and `lastTextBaseline` line up the baselines of an HStack's children
/// (text's first or last line, a symbol's designed baseline; other views' bottom edge); in a
/// frame or ZStack they place as `center`.
public enum VerticalAlignment: Sendable, Equatable { case top, center, bottom, firstTextBaseline, lastTextBaseline }

public struct Alignment: Sendable, Equatable {
    public var horizontal: HorizontalAlignment
    public var vertical: VerticalAlignment
    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        (self.horizontal, self.vertical) = (horizontal, vertical)
    }
    public static let center = Alignment(horizontal: .center, vertical: .center)
    public static let leading = Alignment(horizontal: .leading, vertical: .center)
    public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
    public static let top = Alignment(horizontal: .center, vertical: .top)
    public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
    public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
    public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
    public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
    public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)

    /// Where a child of `size` goes inside `rect`.
    func place(_ size: Size, in rect: Rect) -> Rect {
        let x: Double
        switch horizontal {
        case .leading: x = rect.minX
        case .center: x = rect.minX + (rect.width - size.width) / 2
        case .trailing: x = rect.maxX - size.width
        }
        let y: Double
        switch vertical {
        case .top: y = rect.minY
        case .center, .firstTextBaseline, .lastTextBaseline: y = rect.minY + (rect.height - size.height) / 2
        case .bottom: y = rect.maxY - size.height
        }
        return Rect(x: x, y: y, width: size.width, height: size.height)
    }
}

public struct Edge: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let top = Edge(rawValue: 1)
    public static let leading = Edge(rawValue: 2)
    public static let bottom = Edge(rawValue: 4)
    public static let trailing = Edge(rawValue: 8)
    public static let horizontal: Edge = [.leading, .trailing]
    public static let vertical: Edge = [.top, .bottom]
    public static let all: Edge = [.top, .leading, .bottom, .trailing]
}

public struct EdgeInsets: Equatable, Sendable {
    public var top: Double, leading: Double, bottom: Double, trailing: Double
    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        (self.top, self.leading, self.bottom, self.trailing) = (top, leading, bottom, trailing)
    }
    init(_ edges: Edge, _ length: Double) {
        self.init(top: edges.contains(.top) ? length : 0, leading: edges.contains(.leading) ? length : 0,
                  bottom: edges.contains(.bottom) ? length : 0, trailing: edges.contains(.trailing) ? length : 0)
    }
}

/// SwiftUI's default spacing between adjacent views in a stack, and default padding.
let defaultSpacing = 8.0
let defaultPadding = 16.0
