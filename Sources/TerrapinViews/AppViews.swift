// More of the SwiftUI every map app has around its map, as the SDK's sample app writes it:
// button and toggle styles and `tint`, a `Slider` with a step, `ScrollView`, `TimelineView`,
// `onChange(of:)`, `Text` with `specifier:` interpolations, and the navigation containers
// (drawn as their content: a still image has no navigation bar). Each is drawn as iOS draws it
// in light mode, or accepted where a still has nothing to show, as the docs list.
import Foundation
import TerrapinGeometry
import TerrapinTypography

// MARK: - Button and toggle styles, tint

/// How `Button`s are drawn (SwiftUI's button styles, as `.buttonStyle(.bordered)` names them).
public struct ButtonStyle: Sendable, Equatable {
    enum Kind: Sendable, Equatable { case automatic, plain, borderless, bordered, borderedProminent }
    let kind: Kind
    /// The label in the accent colour (`.borderless` is the same).
    public static let automatic = ButtonStyle(kind: .automatic)
    public static let borderless = ButtonStyle(kind: .borderless)
    /// The label in the primary colour, no background.
    public static let plain = ButtonStyle(kind: .plain)
    /// The label in the accent colour on a capsule of it at 15 %.
    public static let bordered = ButtonStyle(kind: .bordered)
    /// A white label on a capsule of the accent colour.
    public static let borderedProminent = ButtonStyle(kind: .borderedProminent)
}

/// How `Toggle`s are drawn: `.switch` (the default) or `.button` (a bordered button, prominent
/// while on).
public struct ToggleStyle: Sendable, Equatable {
    enum Kind: Sendable, Equatable { case automatic, switchStyle, button }
    let kind: Kind
    public static let automatic = ToggleStyle(kind: .automatic)
    public static let `switch` = ToggleStyle(kind: .switchStyle)
    public static let button = ToggleStyle(kind: .button)
}

extension View {
    public func buttonStyle(_ style: ButtonStyle) -> ModifiedView<Self> {
        modified(.unsupported("a button style"), environment: { $0.buttonStyle = style.kind })
    }

    public func toggleStyle(_ style: ToggleStyle) -> ModifiedView<Self> {
        modified(.unsupported("a toggle style"), environment: { $0.toggleStyle = style.kind })
    }

    /// The accent colour of the buttons, toggles and controls inside (nil: the system blue).
    public func tint(_ color: Color?) -> ModifiedView<Self> {
        modified(.unsupported("a tint"), environment: { $0.tint = color })
    }
}

/// A button's label drawn in the environment's button style and tint; a tap runs `action`.
struct StyledButton: View, PrimitiveView {
    let label: AnyView
    let role: ButtonRole?
    let action: () -> Void

    func makeNode(_ environment: EnvironmentValues) throws -> Node {
        let accent = role == .destructive ? Color.red : (environment.tint ?? Color.blue)
        let view: AnyView
        switch environment.buttonStyle {
        case .automatic, .borderless:
            view = AnyView(label.foregroundStyle(accent).contentShape(Rectangle()).onTapGesture(perform: action))
        case .plain:
            view = AnyView(label.foregroundStyle(Color.primary).contentShape(Rectangle()).onTapGesture(perform: action))
        case .bordered:
            view = AnyView(label.foregroundStyle(accent).padding(.horizontal, 12).padding(.vertical, 7)
                .background(accent.opacity(0.15), in: Capsule()).contentShape(Capsule()).onTapGesture(perform: action))
        case .borderedProminent:
            view = AnyView(label.foregroundStyle(Color.white).padding(.horizontal, 12).padding(.vertical, 7)
                .background(accent, in: Capsule()).contentShape(Capsule()).onTapGesture(perform: action))
        }
        return try TerrapinViews.makeNode(view, environment)
    }
}

// MARK: - Slider's step

extension Slider {
    /// A slider whose value moves in steps of `step` from the lower bound (drawn at the step
    /// nearest its value).
    public init(value: Binding<Double>, in bounds: ClosedRange<Double>, step: Double) {
        self.init(value: value, in: bounds)
        self.step = step.isFinite && step > 0 ? step : nil
    }
}

// MARK: - ScrollView

extension Axis {
    /// Axes, as a `ScrollView` scrolls along them.
    public struct Set: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let horizontal = Set(rawValue: 1)
        public static let vertical = Set(rawValue: 2)
    }
}

/// Content larger than its frame, at the start of its scroll: laid out at its ideal size along
/// the scrolling axes, placed at the top-leading corner and clipped to the frame, which takes
/// what it is offered (a still has nothing to scroll; no indicators are drawn).
public struct ScrollView<Content: View>: View {
    let axes: Axis.Set
    let content: Content

    public init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content) {
        self.axes = axes
        self.content = content()
    }

    public var body: some View {
        content
            .fixedSize(horizontal: axes.contains(.horizontal), vertical: axes.contains(.vertical))
            // As wide (tall) as offered along the scroll, however large the content.
            .frame(minWidth: axes.contains(.horizontal) ? 0 : nil, maxWidth: axes.contains(.horizontal) ? .infinity : nil,
                   minHeight: axes.contains(.vertical) ? 0 : nil, maxHeight: axes.contains(.vertical) ? .infinity : nil, alignment: .topLeading)
            .clipped()
    }
}

// MARK: - Navigation

/// The screens a navigation container has pushed (a tap on a `NavigationLink` pushes its
/// destination; the back button pops it).
final class NavigationPath {
    let push: (AnyView) -> Void
    /// Pops the top screen, if any (`@Environment(\.dismiss)`).
    let pop: () -> Void
    init(push: @escaping (AnyView) -> Void, pop: @escaping () -> Void = {}) {
        (self.push, self.pop) = (push, pop)
    }
}

/// A navigation container's screen: the top pushed view under a bar with a back button, or the
/// root content, from the top of the screen. (No title is drawn: `.navigationTitle` is accepted.)
struct NavigationScreen: View {
    let root: AnyView
    let stack: Binding<[AnyView]>

    var body: some View {
        let pushed = stack.wrappedValue
        // The path goes into the pushed screens' environment, which the stack keeps.
        let stack = self.stack.holdingStateWeakly(fallback: [])
        let push = NavigationPath(push: { view in stack.wrappedValue.append(view) },
                                  pop: { if !stack.wrappedValue.isEmpty { stack.wrappedValue.removeLast() } })
        return Group {
            if let top = pushed.last {
                VStack(spacing: 0) {
                    HStack(spacing: 4) {
                        Image(systemName: "chevron.left").font(.body.bold())
                        Text("Back")
                    }
                    .foregroundStyle(Color.blue)
                    .padding(.horizontal, 12)
                    .frame(maxWidth: .infinity, minHeight: 44, alignment: .leading)
                    .contentShape(Rectangle())
                    .onTapGesture { push.pop() }
                    top
                }
            } else {
                root
            }
        }
        .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .top)
        .environmentNavigation(push)
    }
}

extension View {
    func environmentNavigation(_ path: NavigationPath) -> ModifiedView<Self> {
        modified(.unsupported("a navigation path"), environment: { $0.navigation = path })
    }
}

/// SwiftUI's navigation containers: the root content, or the screen a link pushed under a back
/// bar; the stack of pushed screens is the container's state.
public struct NavigationView<Content: View>: View {
    let content: Content
    @State var stack: [AnyView] = []
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    public var body: some View { NavigationScreen(root: AnyView(content), stack: $stack) }
}

public struct NavigationStack<Content: View>: View {
    let content: Content
    @State var stack: [AnyView] = []
    public init(@ViewBuilder root: () -> Content) { content = root() }
    public var body: some View { NavigationScreen(root: AnyView(content), stack: $stack) }
}

/// A row that pushes `destination` when tapped (inside a navigation container): its label with
/// a grey chevron at the trailing edge.
public struct NavigationLink<Label: View, Destination: View>: View, PrimitiveView {
    let label: Label
    let destination: Destination
    public init(destination: Destination, @ViewBuilder label: () -> Label) {
        self.destination = destination
        self.label = label()
    }

    public init(@ViewBuilder destination: () -> Destination, @ViewBuilder label: () -> Label) {
        self.init(destination: destination(), label: label)
    }

    func makeNode(_ environment: EnvironmentValues) throws -> Node {
        let row = HStack {
            label
            Spacer()
            Image(systemName: "chevron.right").font(.footnote.bold()).foregroundStyle(Color(hex: "#C4C4C7")!)
        }
        guard let path = environment.navigation else { return try TerrapinViews.makeNode(row, environment) }
        let destination = AnyView(self.destination)
        return try TerrapinViews.makeNode(row.contentShape(Rectangle()).onTapGesture { path.push(destination) }, environment)
    }
}

extension NavigationLink where Label == Text {
    public init(_ title: String, destination: Destination) { self.init(destination: destination) { Text(title) } }
    public init(_ title: String, @ViewBuilder destination: () -> Destination) { self.init(destination: destination()) { Text(title) } }
}

/// How a navigation bar shows its title (accepted: no bar is drawn).
public enum NavigationBarItemTitleDisplayMode: Sendable { case automatic, inline, large }

extension View {
    /// Accepted: the title of a navigation bar, which a still of the screen's content does not draw.
    public func navigationTitle(_ title: String) -> Self { self }
    public func navigationBarTitleDisplayMode(_ mode: NavigationBarItemTitleDisplayMode) -> Self { self }
    /// Accepted: what a text does past its line limit is drawn as a cut at its end.
    public func truncationMode(_ mode: Text.TruncationMode) -> Self { self }
}

extension Text {
    public enum TruncationMode: Sendable { case head, middle, tail }
}

extension Font {
    /// A monospaced version of the font (DejaVu Sans Mono).
    public func monospaced() -> Font {
        var spec = self.spec
        spec.request.family = FontDesign.monospaced.family
        return Font(spec)
    }
    /// Digits of one width: DejaVu's digits already are, so the font is unchanged.
    public func monospacedDigit() -> Font { self }
}

// MARK: - TimelineView

/// When a `TimelineView` redraws. A still is drawn at one time: every schedule gives that time.
public struct TimelineSchedule: Sendable {
    let paused: Bool
    /// Every frame (`paused`: holds still).
    public static func animation(minimumInterval: Double? = nil, paused: Bool = false) -> TimelineSchedule { TimelineSchedule(paused: paused) }
    public static var animation: TimelineSchedule { TimelineSchedule(paused: false) }
    public static func periodic(from startDate: Date, by interval: Double) -> TimelineSchedule { TimelineSchedule(paused: false) }
    public static var everyMinute: TimelineSchedule { TimelineSchedule(paused: false) }
}

/// What a `TimelineView`'s content is built with: the date drawn.
public struct TimelineViewDefaultContext: Sendable {
    public let date: Date
    public enum Cadence: Sendable, Comparable { case live, seconds, minutes }
    public let cadence: Cadence
}

/// Content built with the date it is drawn at: the scene's start (`TimelineView.startDate`) plus
/// the time drawn (`ViewRenderer.render(_:time:)`, `terrapin frames`), so frames are the same
/// on every run. (App code that calls `Date()` reads the wall clock; that is not Terrapin's.)
public struct TimelineView<Content: View>: View, PrimitiveView {
    /// (Not nested in the generic type: a closure's parameter could not then infer `Content`.)
    public typealias Context = TimelineViewDefaultContext
    /// The date at a scene's time 0: 1 January 2026, 00:00 UTC.
    public static var startDate: Date { Date(timeIntervalSince1970: 1_767_225_600) }

    let schedule: TimelineSchedule
    let content: (Context) -> Content

    public init(_ schedule: TimelineSchedule, @ViewBuilder content: @escaping (Context) -> Content) {
        (self.schedule, self.content) = (schedule, content)
    }

    func makeNode(_ environment: EnvironmentValues) throws -> Node {
        // A paused timeline stays at the scene's start.
        let date = Self.startDate.addingTimeInterval(schedule.paused ? 0 : environment.time)
        return try TerrapinViews.makeNode(content(Context(date: date, cadence: .live)), environment)
    }
}

// MARK: - onChange(of:)

extension View {
    /// Runs `action(old, new)` when `value` differs from what it was at the view's last build
    /// (and once at the first build when `initial`); kept, like `onAppear`'s "once", in the state
    /// of the stateful view being built.
    public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping (V, V) -> Void) -> ModifiedView<Self> {
        modified(.dropped("an onChange action (code cannot be written as data)"), environment: { env in
            // Not in a probe build, nor in the first of a changed view's two builds (which only
            // records); what the action changes happens at the time drawn.
            guard env.animationPass?.recording != true, env.triggerProbe == nil, let scope = env.appearance else { return }
            let k = scope.nextChange
            scope.nextChange += 1
            let before = scope.owner.watched[k]
            scope.owner.watched[k] = value
            let old: V
            if let before { old = before as? V ?? value } else {
                guard initial else { return }
                old = value
            }
            guard before == nil || old != value else { return }
            Transaction.$time.withValue(env.time) { Transaction.$animation.withValue(nil) { action(old, value) } }
        })
    }

    /// The older form: `action(new)`.
    public func onChange<V: Equatable>(of value: V, perform action: @escaping (V) -> Void) -> ModifiedView<Self> {
        onChange(of: value) { _, new in action(new) }
    }
}

// MARK: - Text with format specifiers

/// A text's content written as an interpolation (SwiftUI's `LocalizedStringKey`; Terrapin does
/// not localise): `Text("\(speed, specifier: "%.0f") mph")`.
public struct LocalizedStringKey: ExpressibleByStringInterpolation, Sendable {
    public let text: String

    public init(stringLiteral value: String) { text = value }
    public init(stringInterpolation: StringInterpolation) { text = stringInterpolation.text }

    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""
        public init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity) }
        public mutating func appendLiteral(_ literal: String) { text += literal }
        public mutating func appendInterpolation<T>(_ value: T) { text += String(describing: value) }
        /// A number in a printf format (`"%.1f"`, `"%d"`, …).
        public mutating func appendInterpolation<T: CVarArg>(_ value: T, specifier: String) { text += String(format: specifier, value) }
    }
}

extension Text {
    public init(_ key: LocalizedStringKey) { self.init(key.text) }
}
