// State in a view made inside another view's body lives as long as the view (Identity.swift).
// Before, such a view's `@State` restarted at every build: taps inside it were lost, and its
// `onAppear` ran at every build.
import Testing
import TerrapinGeometry
@testable import TerrapinViews

/// A counter made inside its parent's body, its `onAppear` counted from outside.
private struct Counter: View {
    @State var taps = 0
    let appeared: Tally
    var body: some View {
        Text("taps \(taps)")
            .onTapGesture { taps += 1 }
            .onAppear { appeared.count += 1 }
    }
}

private final class Tally: @unchecked Sendable { var count = 0 }

private final class Loader: ObservableObject {
    @Published var rows = 0
    let made: Tally
    init(made: Tally) { self.made = made; made.count += 1 }
}

/// A view holding a `@StateObject`, made inside a body: its model is made once.
private struct Rows: View {
    @StateObject var loader: Loader
    init(made: Tally) { _loader = StateObject(wrappedValue: Loader(made: made)) }
    var body: some View { Text("rows \(loader.rows)").onTapGesture { loader.rows += 10 } }
}

private struct Screen: View {
    /// The root's own state: what keeps its descendants' state from one render to the next.
    @State var title = "Title"
    let appeared = Tally()
    let made = Tally()
    var body: some View {
        VStack {
            Text(title)
            Counter(appeared: appeared)
            Rows(made: made)
            // A second counter of the same kind keeps its own count.
            HStack { Counter(appeared: appeared) }
        }
    }
}

/// A view whose `onAppear` changes its state (as a flight's trigger is toggled): the change
/// builds the view again.
private struct Starter: View {
    @State var started = false
    let appeared: Tally
    var body: some View {
        Text(started ? "started" : "waiting").onAppear { started = true; appeared.count += 1 }
    }
}

/// A root with no state of its own, a counter inside.
private struct Bare: View {
    let appeared = Tally()
    var body: some View { VStack { Text("Demo"); Counter(appeared: appeared) } }
}

/// A root with no state of its own.
private struct Plain: View {
    let appeared = Tally()
    var body: some View { VStack { Starter(appeared: appeared) } }
}

@Suite struct NestedStateTests {
    /// Under a root holding no state, a nested view's state lasts the layout: its `onAppear`
    /// runs once however many builds the layout takes.
    @Test func underAStatelessRootOnAppearRunsOncePerLayout() throws {
        let plain = Plain()
        let labels = try ViewRenderer.layout(plain).labels
        #expect(labels == ["started"])
        #expect(plain.appeared.count == 1)
    }

    @Test func stateInANestedViewLivesAcrossBuilds() throws {
        let screen = Screen()
        let layout = try ViewRenderer.layout(screen)
        let first = try #require(layout.frames.first { $0.name.contains("taps 0") })
        // Tap the first counter twice: each tap is a new build, the count survives them.
        for _ in 0..<2 {
            let hit = try ViewRenderer.tap(screen, at: Point(first.frame.midX, first.frame.midY))
            #expect(hit != nil)
        }
        let labels = try ViewRenderer.layout(screen).labels
        #expect(labels.contains("taps 2"), "\(labels)")
        #expect(labels.contains("taps 0"), "the second counter keeps its own state: \(labels)")
        // Each counter appeared once, however many builds there were.
        #expect(screen.appeared.count == 2)
    }

    /// A root with no state of its own, held by a `ViewHost`: its descendants' state lasts
    /// from one tap or render to the next, and `onAppear` runs once for the host's life. The
    /// same root rendered alone keeps it for one layout only.
    @Test func aHostKeepsTheStateUnderAStatelessRoot() throws {
        let host = ViewHost(Bare())
        let first = try #require(try host.layout().frames.first { $0.name.contains("taps 0") })
        for _ in 0..<2 { #expect(try host.tap(at: Point(first.frame.midX, first.frame.midY)) != nil) }
        #expect(try host.layout().labels.contains("taps 2"))
        _ = try host.render()
        #expect(try host.layout().labels.contains("taps 2"))
        #expect(host.content.appeared.count == 1)
        // Alone: each call is a new layout, and the tap's change is gone by the next.
        let bare = Bare()
        try ViewRenderer.tap(bare, at: Point(first.frame.midX, first.frame.midY))
        #expect(try ViewRenderer.layout(bare).labels.contains("taps 0"))
        #expect(bare.appeared.count == 2)
    }

    @Test func aStateObjectInANestedViewIsMadeOnce() throws {
        let screen = Screen()
        let frame = try #require(try ViewRenderer.layout(screen).frames.first { $0.name.contains("rows 0") }).frame
        try ViewRenderer.tap(screen, at: Point(frame.midX, frame.midY))
        let labels = try ViewRenderer.layout(screen).labels
        #expect(labels.contains("rows 10"), "\(labels)")
        // Built many times (layouts, a tap), the model was made once: a later build's view
        // takes the model kept, and its initial expression never runs.
        #expect(try ViewRenderer.layout(screen).labels.contains("rows 10"))
        #expect(screen.made.count == 1)
    }
}

/// A view type found to hold no state is not reflected again; one with `@State`, `@Environment`
/// or an optional stored property is reflected every time.
@Suite struct ReflectionCacheTests {
    struct Plain: View {
        let name: String
        var body: some View { Text(name) }
    }
    struct Stateful: View {
        @State var count = 0
        @Environment(\.font) var font
        var body: some View { Text("\(count)") }
    }
    struct MaybeStateful: View {
        let inner: State<Int>?
        var body: some View { Text("x") }
    }

    @Test func stateIsFoundInEveryInstance() {
        #expect(reflectedProperties(Plain(name: "a")).boxes.isEmpty && reflectedProperties(Plain(name: "b")).readers.isEmpty)
        for _ in 0..<2 {
            let found = reflectedProperties(Stateful())
            #expect(found.boxes.count == 1 && found.readers.count == 1)
        }
        #expect(reflectedProperties(MaybeStateful(inner: nil)).boxes.isEmpty)
        #expect(reflectedProperties(MaybeStateful(inner: State(initialValue: 1))).boxes.count == 1)
    }
}
