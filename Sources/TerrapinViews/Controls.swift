// The SwiftUI controls app code puts beside and inside map content, drawn as static pictures in
// the system's light look (a still image has nothing to press): `Button` (its action runs on a
// tap), `Label`, `Toggle`, `Slider`, `Picker` (menu and segmented styles), `List`. `.alert` is drawn
// when presented (Alerts.swift); `.sheet` is accepted and not drawn.
import TerrapinGeometry

/// What a button does, as SwiftUI marks it: a destructive button's label is red.
public enum ButtonRole: Sendable, Equatable {
    case destructive, cancel
}

/// SwiftUI's default button: its label in the accent blue (red when destructive); a tap runs
/// `action`.
public struct Button<Label: View>: View {
    let action: () -> Void
    let label: Label
    let role: ButtonRole?

    public init(action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
        self.init(role: nil, action: action, label: label)
    }

    public init(role: ButtonRole?, action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
        self.action = action
        self.label = label()
        self.role = role
    }

    /// Drawn in the environment's `buttonStyle` and `tint` (AppViews.swift).
    public var body: some View { StyledButton(label: AnyView(label), role: role, action: action) }
}

/// A button's parts, for the alerts and dialogs that lay their buttons out themselves.
protocol ButtonParts {
    var partsLabel: AnyView { get }
    var partsAction: () -> Void { get }
    var partsRole: ButtonRole? { get }
}

extension Button: ButtonParts {
    var partsLabel: AnyView { AnyView(label) }
    var partsAction: () -> Void { action }
    var partsRole: ButtonRole? { role }
}

extension Button where Label == Text {
    public init(_ title: String, action: @escaping () -> Void) {
        self.init(action: action) { Text(title) }
    }

    public init(_ title: String, role: ButtonRole?, action: @escaping () -> Void) {
        self.init(role: role, action: action) { Text(title) }
    }
}

/// An icon and a title side by side (SwiftUI's `Label`).
public struct Label<Title: View, Icon: View>: View {
    let title: Title
    let icon: Icon

    public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {
        self.title = title()
        self.icon = icon()
    }

    public var body: some View { HStack(spacing: 6) { icon; title } }
}

extension Label where Title == Text, Icon == Image {
    public init(_ title: String, systemImage name: String) {
        self.init(title: { Text(title) }, icon: { Image(systemName: name) })
    }
}

/// A switch with its title: green with the knob right when on, grey when off (51 × 31 pt).
public struct Toggle<Title: View>: View {
    let title: Title
    let isOn: Binding<Bool>

    public init(isOn: Binding<Bool>, @ViewBuilder label: () -> Title) {
        self.isOn = isOn
        title = label()
    }

    public var body: some View { StyledToggle(title: AnyView(title), isOn: isOn) }
}

/// A toggle drawn in the environment's `toggleStyle`: a switch, or a button (prominent while on).
struct StyledToggle: View, PrimitiveView {
    let title: AnyView
    let isOn: Binding<Bool>

    func makeNode(_ environment: EnvironmentValues) throws -> Node {
        if environment.toggleStyle == .button {
            var e = environment
            e.buttonStyle = isOn.wrappedValue ? .borderedProminent : .bordered
            let isOn = self.isOn
            return try TerrapinViews.makeNode(StyledButton(label: title, role: nil, action: { isOn.wrappedValue.toggle() }), e)
        }
        return try TerrapinViews.makeNode(switchBody, environment)
    }

    var switchBody: some View {
        let on = isOn.wrappedValue
        return HStack {
            title
            Spacer()
            ZStack(alignment: on ? .trailing : .leading) {
                Capsule().fill(on ? Color(hex: "#34C759")! : Color(hex: "#E9E9EB")!).frame(width: 51, height: 31)
                Circle().fill(Color.white).frame(width: 27, height: 27).padding(2).shadow(color: Color(white: 0, opacity: 0.2), radius: 1, x: 0, y: 1)
            }
            .onTapGesture { isOn.wrappedValue.toggle() }
        }
    }
}

extension Toggle where Title == Text {
    public init(_ title: String, isOn: Binding<Bool>) { self.init(isOn: isOn) { Text(title) } }
}

/// A track filled in the accent blue up to the value, with a white 28-pt knob, as wide as it is
/// offered (the track's shapes take the proposal; `.frame(width:)` sets it).
public struct Slider: View {
    let value: Binding<Double>
    let bounds: ClosedRange<Double>
    /// The step the value moves in (`init(value:in:step:)`), or nil.
    var step: Double?

    public init(value: Binding<Double>, in bounds: ClosedRange<Double> = 0...1) {
        (self.value, self.bounds) = (value, bounds)
    }

    /// The part of the track up to `fraction`, 4 pt high, centred vertically.
    struct Track: Shape {
        let fraction: Double
        func path(in r: Rect) -> Path {
            PathBuilder.capsule(Rect(x: r.minX, y: r.midY - 2, width: max(4, r.width * fraction), height: 4))
        }
    }

    /// The knob, its centre `fraction` of the way between the track's ends (inset by its radius).
    struct Knob: Shape {
        let fraction: Double
        func path(in r: Rect) -> Path {
            let radius = min(14, r.height / 2)
            return PathBuilder.circle(center: Point(r.minX + radius + (r.width - 2 * radius) * fraction, r.midY), radius: radius)
        }
    }

    public var body: some View {
        let span = bounds.upperBound - bounds.lowerBound
        let v = step.map { s in bounds.lowerBound + ((value.wrappedValue - bounds.lowerBound) / s).rounded() * s } ?? value.wrappedValue
        let f = span > 0 ? max(0, min(1, (v - bounds.lowerBound) / span)) : 0
        return ZStack {
            Track(fraction: 1).fill(Color(hex: "#E9E9EB")!)
            Track(fraction: f).fill(Color.blue)
            Knob(fraction: f).fill(Color.white).shadow(color: Color(white: 0, opacity: 0.25), radius: 2, x: 0, y: 1)
        }
        .frame(height: 28)
    }
}

/// A choice among tagged options (SwiftUI's `Picker`), drawn in its style (`.pickerStyle(_:)`):
/// - `.menu` (the default, as in a popover or a stack): the selected option's title in the
///   accent blue with up-and-down chevrons; a tap chooses the next option (a menu would open).
/// - `.segmented`: the options side by side in equal segments on a light grey track (32 pt
///   high, 13-pt text), the selected one on a white raised segment, hairline separators between
///   the others; a tap on a segment selects its option.
/// Options are the content's views with `.tag(_:)` (a `ForEach` over values tags each with its
/// id, as SwiftUI does, when given no tag); an option whose tag is not of the selection's type
/// never shows as selected.
public struct Picker<Title: View, SelectionValue: Hashable, Content: View>: View, PrimitiveView {
    let title: Title
    let selection: Binding<SelectionValue>
    let content: Content

    public init(selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content, @ViewBuilder label: () -> Title) {
        self.selection = selection
        self.content = content()
        title = label()
    }

    func makeNode(_ environment: EnvironmentValues) throws -> Node {
        var outside = environment
        outside.tagsOptions = false
        /// The options as drawn in `look`, each tagged (a ForEach's by its id).
        func options(_ look: (inout EnvironmentValues) -> Void) throws -> [Node] {
            var e = environment
            e.tagsOptions = true
            look(&e)
            return try makeChildren(content, e)
        }
        func select(_ tags: [AnyHashable?]) -> (Int) -> Void {
            { i in if let value = tags[i]?.base as? SelectionValue { selection.wrappedValue = value } }
        }
        func selected(_ tags: [AnyHashable?]) -> Int? { tags.firstIndex { $0 == AnyHashable(selection.wrappedValue) } }
        switch environment.pickerStyle {
        case .segmented:
            // One line each, cut with an ellipsis when a segment is too narrow (as iOS does).
            let plain = try options { $0.font = .footnote; $0.lineLimit = 1 }
            let strong = try options { $0.font = .footnote; $0.fontWeight = .semibold; $0.lineLimit = 1 }
            let tags = plain.map { ($0 as? TagNode)?.tag }
            let chosen = selected(tags), choose = select(tags)
            let segments = tags.indices.map { i in
                let label = NodeView(node: i == chosen ? strong[i] : plain[i]).lineLimit(1).padding(.horizontal, 8)
                    .frame(maxWidth: .infinity, maxHeight: .infinity)
                return AnyView(ZStack {
                    if i == chosen {
                        RoundedRectangle(cornerRadius: 7).fill(Color.white).padding(2)
                            .shadow(color: Color(white: 0, opacity: 0.12), radius: 4, x: 0, y: 3)
                    } else if i > 0, i - 1 != chosen {
                        Rectangle().fill(Color(white: 0.56, opacity: 0.3)).frame(width: 1, height: 12).frame(maxWidth: .infinity, alignment: .leading)
                    }
                    label
                }.contentShape(Rectangle()).onTapGesture { choose(i) })
            }
            return try TerrapinViews.makeNode(ZStack {
                RoundedRectangle(cornerRadius: 9).fill(Color(red: 118 / 255, green: 118 / 255, blue: 128 / 255, opacity: 0.12))
                HStack(spacing: 0) { ForEach(segments.indices, id: \.self) { segments[$0] } }
            }.frame(height: 32), outside)
        case .menu:
            let blue = try options { $0.foregroundColor = .blue }
            let tags = blue.map { ($0 as? TagNode)?.tag }
            let chosen = selected(tags), choose = select(tags)
            let next = tags.isEmpty ? nil : ((chosen ?? -1) + 1) % tags.count
            return try TerrapinViews.makeNode(HStack(spacing: 5) {
                if let chosen { NodeView(node: blue[chosen]) }
                UpDownChevrons().stroke(Color.blue, lineWidth: 1.6).frame(width: 8, height: 13)
            }.contentShape(Rectangle()).onTapGesture { if let next { choose(next) } }, outside)
        }
    }
}

extension Picker where Title == Text {
    public init(_ title: String, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content) {
        self.init(selection: selection, content: content) { Text(title) }
    }
}

/// How a `Picker` is drawn.
public struct PickerStyle: Equatable, Sendable {
    enum Kind: Equatable, Sendable { case menu, segmented }
    let kind: Kind
    public static let menu = PickerStyle(kind: .menu)
    public static let segmented = PickerStyle(kind: .segmented)
    /// Drawn as `.menu` (a still image shows the chosen option).
    public static let automatic = PickerStyle(kind: .menu)
    /// Drawn as `.menu`.
    public static let wheel = PickerStyle(kind: .menu)
    /// Drawn as `.menu`.
    public static let inline = PickerStyle(kind: .menu)
}

/// The menu picker's ⌃⌄ mark.
struct UpDownChevrons: Shape {
    func path(in r: Rect) -> Path {
        var b = PathBuilder()
        let w = r.width / 2, h = r.height * 0.22
        b.move(to: Point(r.midX - w, r.minY + r.height * 0.38)); b.line(to: Point(r.midX, r.minY + r.height * 0.38 - h)); b.line(to: Point(r.midX + w, r.minY + r.height * 0.38))
        b.move(to: Point(r.midX - w, r.minY + r.height * 0.62)); b.line(to: Point(r.midX, r.minY + r.height * 0.62 + h)); b.line(to: Point(r.midX + w, r.minY + r.height * 0.62))
        return b.build()
    }
}

/// A node already made, as a view (so a control can lay out its options' nodes).
struct NodeView: View, PrimitiveView {
    let node: Node
    func makeNode(_ environment: EnvironmentValues) throws -> Node { node }
}

/// A view with `.tag(_:)`: laid out and drawn as its child.
final class TagNode: WrapperNode {
    let tag: AnyHashable
    init(child: Node, tag: AnyHashable) {
        self.tag = tag
        super.init(child: child)
    }
}

extension View {
    /// The value a `Picker` option stands for.
    public func tag<V: Hashable>(_ tag: V) -> ModifiedView<Self> {
        modified(.dropped("a tag (it matters only inside a Picker)"), wrap: { child, _ in TagNode(child: child, tag: AnyHashable(tag)) })
    }

    /// How the `Picker`s inside are drawn.
    public func pickerStyle(_ style: PickerStyle) -> ModifiedView<Self> {
        modified(.unsupported("a picker style"), environment: { $0.pickerStyle = style.kind })
    }

    /// Accepted; a sheet is a modal on top of the app, not part of a map image.
    public func sheet<Content: View>(isPresented: Binding<Bool>, @ViewBuilder content: () -> Content) -> Self { self }
}

/// SwiftUI's `List` as an iPhone draws a plain list: its rows one under another, each at least
/// 44 pt high in body type with 16-pt margins, hairlines between them inset by 16 pt, on white.
/// (A still has nothing to scroll: every row is drawn.) A `ForEach` inside gives a row for each
/// element; other views are a row each.
public struct List<Content: View>: View {
    let content: Content

    public init(@ViewBuilder content: () -> Content) { self.content = content() }

    public var body: some View {
        let rows = listRows(content)
        return VStack(spacing: 0) {
            ForEach(0..<rows.count, id: \.self) { i in
                AnyView(rows[i]).font(.body).frame(maxWidth: .infinity, minHeight: 44, alignment: .leading).padding(.horizontal, 16)
                if i < rows.count - 1 { Rectangle().fill(Color.hairline).frame(height: 0.5).padding(.leading, 16) }
            }
        }
        .background(Color.white)
    }
}

extension List {
    public init<Data: RandomAccessCollection, ID: Hashable, RowContent: View>(_ data: Data, id: KeyPath<Data.Element, ID>,
                                                                               @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent)
    where Content == ForEach<Data, ID, RowContent> {
        content = ForEach(data, id: id, content: rowContent)
    }

    public init<Data: RandomAccessCollection, RowContent: View>(_ data: Data, @ViewBuilder rowContent: @escaping (Data.Element) -> RowContent)
    where Data.Element: Identifiable, Content == ForEach<Data, Data.Element.ID, RowContent> {
        content = ForEach(data, id: \.id, content: rowContent)
    }
}

extension ForEach: ViewElements where Content: View {
    var elements: [any View] { data.map { content($0) } }
}

/// A list's rows: the elements of its content, each `ForEach` (and tuple) among them opened up.
func listRows<V: View>(_ view: V, depth: Int = 0) -> [any View] {
    var rows: [any View] = []
    for element in viewElements(view) {
        if depth < 8, let inner = element as? ViewElements {
            for e in inner.elements { rows += listRows(e, depth: depth + 1) }
        } else {
            rows.append(element)
        }
    }
    return rows
}
