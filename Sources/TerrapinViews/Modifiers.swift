// View modifiers. Each wraps the content's node (and/or changes the environment first).
import Foundation
import TerrapinGeometry
import TerrapinRaster
import TerrapinTypography

/// A view with a modifier applied.
public struct ModifiedView<Content: View>: View, PrimitiveView {
    /// What the view holds, behind one reference: a modified view is copied into each modifier
    /// around it, its stack and its node, and a copy of the value itself ran its content's whole
    /// tree of value witnesses (a tenth of laying out 10,000 markers). The reference is copied
    /// by a retain; nothing in it changes, so the view is still a value.
    final class Storage {
        let content: Content
        let environment: ((inout EnvironmentValues) -> Void)?
        let wrap: ((Node, EnvironmentValues) throws -> Node)?
        let record: ModifierRecord
        init(content: Content, environment: ((inout EnvironmentValues) -> Void)?, wrap: ((Node, EnvironmentValues) throws -> Node)?, record: ModifierRecord) {
            self.content = content; self.environment = environment; self.wrap = wrap; self.record = record
        }
    }
    let storage: Storage

    init(content: Content, environment: ((inout EnvironmentValues) -> Void)?, wrap: ((Node, EnvironmentValues) throws -> Node)?, record: ModifierRecord) {
        storage = Storage(content: content, environment: environment, wrap: wrap, record: record)
    }

    var content: Content { storage.content }
    var environment: ((inout EnvironmentValues) -> Void)? { storage.environment }
    var wrap: ((Node, EnvironmentValues) throws -> Node)? { storage.wrap }
    /// What the modifier is as scene data (see `ViewSpec(describing:)`).
    var record: ModifierRecord { storage.record }

    func makeNode(_ env: EnvironmentValues) throws -> Node {
        // The environment is copied only by a modifier that changes it.
        guard let environment else { return try node(env) }
        var e = env
        environment(&e)
        return try node(e)
    }

    /// The content's node in `e`, wrapped.
    private func node(_ e: EnvironmentValues) throws -> Node {
        let child = try TerrapinViews.makeNode(storage.content, e)
        return try wrap?(child, e) ?? child
    }
}

extension View {
    func modified(_ record: ModifierRecord, environment: ((inout EnvironmentValues) -> Void)? = nil,
                  wrap: ((Node, EnvironmentValues) throws -> Node)? = nil) -> ModifiedView<Self> {
        ModifiedView(content: self, environment: environment, wrap: wrap, record: record)
    }
    func modified(_ spec: ModifierSpec, environment: ((inout EnvironmentValues) -> Void)? = nil,
                  wrap: ((Node, EnvironmentValues) throws -> Node)? = nil) -> ModifiedView<Self> {
        modified(.spec { spec }, environment: environment, wrap: wrap)
    }

    // MARK: Environment

    public func font(_ font: Font?) -> ModifiedView<Self> {
        modified(font.map { .font($0.spec) }.map { spec in .spec { spec } } ?? .unsupported("font(nil)"), environment: { $0.font = font })
    }
    public func fontWeight(_ weight: Font.Weight?) -> ModifiedView<Self> {
        modified(weight.map { w in .spec { .fontWeight(w) } } ?? .unsupported("fontWeight(nil)"), environment: { $0.fontWeight = weight })
    }
    public func bold(_ active: Bool = true) -> ModifiedView<Self> { modified(active ? .spec { .bold } : .nothing, environment: { if active { $0.fontWeight = .bold } }) }
    public func italic(_ active: Bool = true) -> ModifiedView<Self> { modified(active ? .spec { .italic } : .nothing, environment: { if active { $0.italic = true } }) }
    public func foregroundStyle(_ style: some ShapeStyle) -> ModifiedView<Self> {
        let color = style.color
        return modified(color.map { c in .spec { .foregroundStyle(c) } } ?? .unsupported("a foreground style that is not a colour"), environment: { $0.foregroundColor = $0.animated(color) })
    }
    public func foregroundColor(_ color: Color?) -> ModifiedView<Self> {
        modified(color.map { c in .spec { .foregroundStyle(c) } } ?? .unsupported("foregroundColor(nil)"), environment: { $0.foregroundColor = $0.animated(color) })
    }
    public func lineLimit(_ limit: Int?) -> ModifiedView<Self> {
        modified(limit.map { n in .spec { .lineLimit(n) } } ?? .unsupported("lineLimit(nil)"), environment: { $0.lineLimit = limit })
    }
    public func multilineTextAlignment(_ alignment: TextAlignment) -> ModifiedView<Self> {
        modified(.multilineTextAlignment(alignment), environment: { $0.multilineTextAlignment = alignment })
    }
    /// Symbols' size relative to the font (`Image(systemName:)`).
    public func imageScale(_ scale: Image.Scale) -> ModifiedView<Self> { modified(.imageScale(scale), environment: { $0.imageScale = scale }) }
    /// Sets an environment value, as SwiftUI's `.environment(_:_:)`; `\.locale` picks the
    /// language of the text (regional forms of Han characters).
    public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> ModifiedView<Self> {
        let record: ModifierRecord
        if keyPath == \EnvironmentValues.locale, let locale = value as? Locale? {
            record = locale.map { l in .spec { .locale(l.identifier) } } ?? .nothing
        } else {
            record = .unsupported("environment(\(keyPath))")
        }
        return modified(record, environment: { $0[keyPath: keyPath] = value })
    }
    public func minimumScaleFactor(_ factor: Double) -> ModifiedView<Self> { modified(.minimumScaleFactor(factor), environment: { $0.minimumScaleFactor = factor }) }

    // MARK: Layout

    /// Fixed size in the given dimensions; the content is proposed that size and aligned in it.
    public func frame(width: Double? = nil, height: Double? = nil, alignment: Alignment = .center) -> ModifiedView<Self> {
        modified(.frame(width: width, height: height, minWidth: nil, maxWidth: nil, minHeight: nil, maxHeight: nil, alignment: alignment),
                 wrap: { child, _ in FrameNode(child: child, width: width, height: height, alignment: alignment) })
    }

    /// Flexible frame: clamps the proposal into [min, max] for the content, and its own size into
    /// [min ?? content, max ?? content] around the proposal (ideal when unspecified).
    public func frame(minWidth: Double? = nil, idealWidth: Double? = nil, maxWidth: Double? = nil,
                      minHeight: Double? = nil, idealHeight: Double? = nil, maxHeight: Double? = nil,
                      alignment: Alignment = .center) -> ModifiedView<Self> {
        // A scene file's frame with a minimum or maximum is flexible, its width and height ideal.
        let flexible = minWidth != nil || maxWidth != nil || minHeight != nil || maxHeight != nil
        let record: ModifierRecord = flexible ? .spec {
            .frame(width: idealWidth, height: idealHeight, minWidth: minWidth, maxWidth: maxWidth, minHeight: minHeight, maxHeight: maxHeight, alignment: alignment)
        } : idealWidth == nil && idealHeight == nil ? .nothing : .unsupported("a flexible frame with only ideal sizes")
        return modified(record, wrap: { child, _ in
            FlexFrameNode(child: child, minWidth: minWidth, idealWidth: idealWidth, maxWidth: maxWidth,
                          minHeight: minHeight, idealHeight: idealHeight, maxHeight: maxHeight, alignment: alignment)
        })
    }

    public func padding(_ insets: EdgeInsets) -> ModifiedView<Self> { modified(.padding(insets), wrap: { child, _ in PaddingNode(child: child, insets: insets) }) }
    public func padding(_ length: Double) -> ModifiedView<Self> { padding(EdgeInsets(.all, length)) }
    public func padding(_ edges: Edge = .all, _ length: Double? = nil) -> ModifiedView<Self> { padding(EdgeInsets(edges, length ?? defaultPadding)) }

    /// Proposes nil (the ideal size) in the fixed dimensions.
    public func fixedSize(horizontal: Bool = true, vertical: Bool = true) -> ModifiedView<Self> {
        modified(horizontal && vertical ? .spec { .fixedSize } : !horizontal && !vertical ? .nothing : .unsupported("fixedSize in one dimension"),
                 wrap: { child, _ in FixedSizeNode(child: child, horizontal: horizontal, vertical: vertical) })
    }

    /// Moves the drawing; layout is unchanged.
    public func offset(x: Double = 0, y: Double = 0) -> ModifiedView<Self> {
        modified(.offset(x: x, y: y), wrap: { child, env in OffsetNode(child: child, dx: env.animated(x), dy: env.animated(y)) })
    }

    public func layoutPriority(_ priority: Double) -> ModifiedView<Self> {
        modified(.unsupported("layoutPriority"), wrap: { child, _ in
            let node = WrapperNode(child: child)
            node.layoutPriority = priority
            return node
        })
    }

    // MARK: Drawing

    /// `background` is proposed the content's size and drawn behind it.
    public func background<Background: View>(alignment: Alignment = .center, @ViewBuilder _ content: () -> Background) -> ModifiedView<Self> {
        background(content(), alignment: alignment)
    }
    public func background<Background: View>(_ background: Background, alignment: Alignment = .center) -> ModifiedView<Self> {
        modified(alignment == .center ? .spec { () throws(ViewSpecError) -> ModifierSpec in .background(try ViewSpec(describing: background)) } : .unsupported("a background aligned other than centre"), wrap: { child, env in LayerNode(child: child, secondary: try TerrapinViews.makeNode(background, env), alignment: alignment, inFront: false) })
    }
    /// A style filling a shape behind the content, e.g. `.background(.white, in: Capsule())`.
    public func background<S: Shape>(_ style: some ShapeStyle, in shape: S) -> ModifiedView<Self> {
        background(shape.fill(style))
    }
    public func overlay<Overlay: View>(alignment: Alignment = .center, @ViewBuilder _ content: () -> Overlay) -> ModifiedView<Self> {
        overlay(content(), alignment: alignment)
    }
    public func overlay<Overlay: View>(_ overlay: Overlay, alignment: Alignment = .center) -> ModifiedView<Self> {
        modified(alignment == .center ? .spec { () throws(ViewSpecError) -> ModifierSpec in .overlay(try ViewSpec(describing: overlay)) } : .unsupported("an overlay aligned other than centre"), wrap: { child, env in LayerNode(child: child, secondary: try TerrapinViews.makeNode(overlay, env), alignment: alignment, inFront: true) })
    }

    /// Clips drawing (and taps) to a shape in the view's frame, anti-aliased.
    public func clipShape<S: Shape>(_ shape: S) -> ModifiedView<Self> {
        let record: ModifierRecord
        if let r = shape as? RoundedRectangle, r.style == .circular {
            record = .spec { .cornerRadius(r.cornerRadius) }   // what cornerRadius(_:) clips to
        } else {
            record = shapeKind(shape).map { k in .spec { .clipShape(k) } } ?? .unsupported("clipping to a \(S.self)")
        }
        return modified(record, wrap: { child, _ in ClipNode(child: child, shape: shape) })
    }
    public func cornerRadius(_ radius: Double) -> ModifiedView<Self> {
        let shape = RoundedRectangle(cornerRadius: radius, style: .circular)
        return modified(.cornerRadius(radius), wrap: { child, _ in ClipNode(child: child, shape: shape) })
    }
    public func clipped() -> ModifiedView<Self> { clipShape(Rectangle()) }

    /// A border inside the frame.
    public func border(_ style: some ShapeStyle, width: Double = 1) -> ModifiedView<Self> {
        let border = Rectangle().strokeBorder(style, lineWidth: width)
        return modified(style.color.map { c in .spec { .border(c, width: width) } } ?? .unsupported("a border style that is not a colour"),
                        wrap: { child, env in LayerNode(child: child, secondary: try TerrapinViews.makeNode(border, env), alignment: .center, inFront: true) })
    }

    /// A blurred copy of the content's coverage behind it: standard deviation `radius` points
    /// (CSS blur = 2·radius). SwiftUI's default colour is black at 33 %.
    public func shadow(color: Color = Color(white: 0, opacity: 0.33), radius: Double, x: Double = 0, y: Double = 0) -> ModifiedView<Self> {
        modified(.shadow(color: color, radius: radius, x: x, y: y), wrap: { child, _ in ShadowNode(child: child, color: color, radius: radius, dx: x, dy: y) })
    }

    /// The content composited as one layer with `opacity` (overlaps inside do not show through).
    public func opacity(_ opacity: Double) -> ModifiedView<Self> { modified(.opacity(opacity), wrap: { child, env in OpacityNode(child: child, opacity: env.animated(opacity)) }) }

    public func scaleEffect(_ scale: Double, anchor: UnitPoint = .center) -> ModifiedView<Self> { scaleEffect(x: scale, y: scale, anchor: anchor) }
    public func scaleEffect(x: Double = 1, y: Double = 1, anchor: UnitPoint = .center) -> ModifiedView<Self> {
        modified(x == y && anchor == .center ? .spec { .scaleEffect(x) } : .unsupported("a scale effect other than uniform about the centre"),
                 wrap: { child, env in
                     let sx = env.animated(x), sy = env.animated(y)
                     return EffectNode(child: child, anchor: anchor) { _ in Transform.scale(sx, sy) }
                 })
    }
    public func rotationEffect(_ angle: Angle, anchor: UnitPoint = .center) -> ModifiedView<Self> {
        modified(anchor == .center ? .spec { .rotationEffect(degrees: angle.radians * 180 / Double.pi) } : .unsupported("a rotation about a point other than the centre"),
                 wrap: { child, env in
                     let radians = env.animated(angle.radians)
                     return EffectNode(child: child, anchor: anchor) { _ in Transform.rotation(radians) }
                 })
    }

    /// The shape that receives taps.
    public func contentShape<S: Shape>(_ shape: S) -> ModifiedView<Self> { modified(.dropped("a content shape (it shapes taps, not pixels)"), wrap: { child, _ in ContentShapeNode(child: child, shape: shape) }) }

    /// Stores `action` to run when a tap hits this view (see `ViewRenderer.tap`).
    public func onTapGesture(count: Int = 1, perform action: @escaping () -> Void) -> ModifiedView<Self> {
        modified(.dropped("a tap action (code cannot be written as data; scene files have \"onTap\": \"togglePopover\" on markers)"),
                 wrap: { child, _ in TapNode(child: child, action: action) })
    }

    /// Animates the changes inside when `value` changes (SwiftUI's `.animation(_:value:)`).
    public func animation<V: Hashable>(_ animation: Animation?, value: V) -> ModifiedView<Self> {
        modified(.unsupported("an animation (state and its changes are code)"), environment: { env in
            if env.watchedValueChanged(AnyHashable(value)) { env.animation = animation }
        })
    }

    /// Runs `action` when the view first appears: at time 0, so the changes it makes animate
    /// from the scene's start (e.g. starting a `repeatForever` animation, or toggling a camera
    /// flight's trigger). Once per view: a view inside one holding `@State` remembers in that
    /// state that it ran, so building it again (another time, after a tap) does not run it again.
    public func onAppear(perform action: (() -> Void)? = nil) -> ModifiedView<Self> {
        modified(.dropped("an onAppear action (code cannot be written as data)"), environment: { env in
            // Not while a changed view is built twice (the first build already ran it), nor in a
            // probe build (which changes nothing).
            guard env.animationPass == nil, env.triggerProbe == nil, let action else { return }
            if let scope = env.appearance {
                let k = scope.next
                scope.next += 1
                guard !scope.owner.appeared.contains(k) else { return }
                scope.owner.appeared.insert(k)
            }
            Transaction.$time.withValue(0) { Transaction.$animation.withValue(nil) { action() } }
        })
    }

    /// Kept as metadata (printed by inspection tools; not drawn).
    public func accessibilityLabel(_ label: String) -> ModifiedView<Self> {
        modified(.accessibilityLabel(label), wrap: { child, _ in AccessibilityNode(child: child, label: label) })
    }
}

/// A point in unit coordinates of a view's frame.
public struct UnitPoint: Equatable, Sendable {
    public var x: Double, y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let center = UnitPoint(x: 0.5, y: 0.5)
    public static let topLeading = UnitPoint(x: 0, y: 0)
    public static let top = UnitPoint(x: 0.5, y: 0)
    public static let bottom = UnitPoint(x: 0.5, y: 1)
    public static let leading = UnitPoint(x: 0, y: 0.5)
    public static let trailing = UnitPoint(x: 1, y: 0.5)
}
