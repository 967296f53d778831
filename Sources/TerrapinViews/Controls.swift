// The SwiftUI controls app code puts beside and inside map content, drawn as static pictures in
// the system's light look (a still image has nothing to press): `Button` (its action runs on a
// tap), `Label`, `Toggle`, `Slider`. `.alert` and `.sheet` are accepted and not drawn.
import TerrapinGeometry

/// SwiftUI's default button: its label in the accent blue; a tap runs `action`.
public struct Button<Label: View>: View {
    let action: () -> Void
    let label: Label

    public init(action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
        self.action = action
        self.label = label()
    }

    public var body: some View {
        label.foregroundStyle(Color.blue).contentShape(Rectangle()).onTapGesture(perform: action)
    }
}

extension Button where Label == Text {
    public init(_ title: String, action: @escaping () -> Void) {
        self.init(action: action) { Text(title) }
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

    public var body: some View {
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

    public init(value: Binding<Double>, in bounds: ClosedRange<Double> = 0...1) {
        self.value = value
        self.bounds = bounds
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
        let f = span > 0 ? max(0, min(1, (value.wrappedValue - bounds.lowerBound) / span)) : 0
        return ZStack {
            Track(fraction: 1).fill(Color(hex: "#E9E9EB")!)
            Track(fraction: f).fill(Color.blue)
            Knob(fraction: f).fill(Color.white).shadow(color: Color(white: 0, opacity: 0.25), radius: 2, x: 0, y: 1)
        }
        .frame(height: 28)
    }
}

extension View {
    /// Accepted; an alert is a modal on top of the app, not part of a map image.
    public func alert<Actions: View>(_ title: String, isPresented: Binding<Bool>, @ViewBuilder actions: () -> Actions) -> Self { self }
    /// Accepted; a sheet is a modal on top of the app, not part of a map image.
    public func sheet<Content: View>(isPresented: Binding<Bool>, @ViewBuilder content: () -> Content) -> Self { self }
}
