// The observation family as an app around a map uses it: a data loader made once by a view,
// filled in onAppear, passed down as an @ObservedObject and through the environment, changed by
// a binding; each render draws the model as it is.
import Foundation
import Observation
import Testing
import TerrapinGeometry
@testable import TerrapinViews

final class PlaceLoader: ObservableObject {
    @Published var places: [String] = []
    @Published var selected = 0
    var loads = 0
    func load() {
        loads += 1
        places = ["Ferry Building", "Coit Tower", "Pier 39"]
        objectWillChange.send()
    }
}

struct PlaceList: View {
    @ObservedObject var loader: PlaceLoader
    var body: some View {
        VStack(alignment: .leading) {
            ForEach(loader.places, id: \.self) { Text($0) }
            PlaceCount()
        }
    }
}

struct PlaceCount: View {
    @EnvironmentObject var loader: PlaceLoader
    var body: some View { Text("\(loader.places.count) places, #\(loader.selected)") }
}

struct PlacesScreen: View {
    @StateObject var loader = PlaceLoader()
    var body: some View {
        PlaceList(loader: loader)
            .environmentObject(loader)
            .onAppear { loader.load() }
    }
}

@Suite struct ObservationTests {
    @Test func aLoaderFilledOnAppearIsDrawnByItsViews() throws {
        let screen = PlacesScreen()
        let layout = try ViewRenderer.layout(screen)
        #expect(layout.labels == ["Ferry Building", "Coit Tower", "Pier 39", "3 places, #0"], "\(layout)")
        // Made once for the view value, whatever the number of builds.
        #expect(screen.loader === screen.loader)
        // A binding through the projected value changes the model; the next layout draws it.
        let selection = screen.$loader.selected
        selection.wrappedValue = 2
        #expect(try ViewRenderer.layout(screen).labels.last == "3 places, #2")
        #expect(screen.loader.$places.output.count == 3)
    }
}

// MARK: - The Observation era: @Observable, @Environment, @Bindable

@Observable final class Trip {
    var stops = ["Port Hercule"]
    var title = "Harbour walk"
}

/// Reads the model from the environment (`.environment(trip)`), and the locale.
struct TripSummary: View {
    @Environment(Trip.self) var trip
    @Environment(\.locale) var locale
    @Environment(\.colorScheme) var scheme
    var body: some View { Text("\(trip.title): \(trip.stops.count) stops, \(locale?.identifier ?? "-"), \(scheme == .light ? "light" : "dark")") }
}

/// A handler that reads the environment's model when it runs, at a tap after the build.
struct TripClearer: View {
    @Environment(Trip.self) var trip
    var body: some View { Text("Clear").onTapGesture { trip.stops.removeAll() } }
}

/// A view given the model with `@Bindable`: its binding renames the trip; a button adds a stop.
struct TripEditor: View {
    @Bindable var trip: Trip
    var body: some View {
        VStack {
            Toggle("Long title", isOn: Binding(get: { trip.title.count > 12 }, set: { trip.title = $0 ? "Harbour and palace walk" : "Walk" }))
            Text("Add stop").onTapGesture { trip.stops.append("Stop \(trip.stops.count + 1)") }
            TripSummary()
            TripClearer()
        }
    }
}

struct TripScreen: View {
    @State var trip = Trip()
    var body: some View { TripEditor(trip: trip).environment(trip).environment(\.locale, Locale(identifier: "fr_MC")) }
}

/// An optional model: nil when no ancestor put one.
struct MaybeTrip: View {
    @Environment(Trip.self) var trip: Trip?
    var body: some View { Text(trip.map { "\($0.stops.count) stops" } ?? "no trip") }
}

/// A pushed screen that closes itself with `@Environment(\.dismiss)`.
struct Detail: View {
    @Environment(\.dismiss) var dismiss
    var body: some View { Text("Close detail").onTapGesture { dismiss() } }
}

struct DetailList: View {
    @State var unused = 0
    var body: some View { NavigationStack { NavigationLink("Open detail") { Detail() } } }
}

/// A pushed screen holding an object, to see when it is freed.
final class PushedToken {}
struct TokenDetail: View {
    @Environment(\.dismiss) var dismiss
    let token: PushedToken
    var body: some View { Text("Close detail").onTapGesture { dismiss() } }
}
struct TokenList: View {
    @State var unused = 0
    let token: PushedToken
    var body: some View { NavigationStack { NavigationLink("Open detail") { TokenDetail(token: token) } } }
}

extension ObservationTests {
    /// The pushed screen's `@Environment` keeps the closure that pops it, and the stack's state
    /// keeps the screen: neither may keep the other alive once the view is gone (LeakSanitizer
    /// found the cycle under `make sanitize`).
    @Test func aPushedScreenIsFreedWithItsStack() throws {
        weak var freed: PushedToken?
        try {
            let token = PushedToken()
            freed = token
            let list = TokenList(token: token)
            let open = try #require(try ViewRenderer.layout(list).frames.first { $0.name.contains("Open detail") }).frame
            try ViewRenderer.tap(list, at: Point(open.midX, open.midY))
            #expect(try ViewRenderer.layout(list).labels.contains("Close detail"))
        }()
        #expect(freed == nil)
    }

    @Test func anObservableModelThroughTheEnvironmentAndBindable() throws {
        let screen = TripScreen()
        func summary() throws -> String? { try ViewRenderer.layout(screen).labels.first { $0.contains("stops") } }
        #expect(try summary() == "Harbour walk: 1 stops, fr_MC, light")
        let add = try #require(try ViewRenderer.layout(screen).frames.first { $0.name.contains("Add stop") }).frame
        try ViewRenderer.tap(screen, at: Point(add.midX, add.midY))
        try ViewRenderer.tap(screen, at: Point(add.midX, add.midY))
        #expect(try summary() == "Harbour walk: 3 stops, fr_MC, light")
        // `$trip.title` through `@Bindable`, as a TextField would write it.
        let editor = TripEditor(trip: screen.trip)
        editor.$trip.title.wrappedValue = "Palace"
        #expect(screen.trip.title == "Palace")
        #expect(Bindable(screen.trip).stops.wrappedValue.count == 3)
        #expect(try summary() == "Palace: 3 stops, fr_MC, light")
        let clear = try #require(try ViewRenderer.layout(screen).frames.first { $0.name.contains("Clear") }).frame
        try ViewRenderer.tap(screen, at: Point(clear.midX, clear.midY))
        #expect(try summary() == "Palace: 0 stops, fr_MC, light")
    }

    @Test func anOptionalModelMayBeMissing() throws {
        #expect(try ViewRenderer.layout(MaybeTrip()).labels == ["no trip"])
        let trip = Trip()
        #expect(try ViewRenderer.layout(MaybeTrip().environment(trip)).labels == ["1 stops"])
        // Outside a body, an @Environment is the default environment's.
        #expect(TripSummary().locale == nil)
    }

    @Test func dismissPopsThePushedScreen() throws {
        let list = DetailList()
        let open = try #require(try ViewRenderer.layout(list).frames.first { $0.name.contains("Open detail") }).frame
        try ViewRenderer.tap(list, at: Point(open.midX, open.midY))
        let close = try #require(try ViewRenderer.layout(list).frames.first { $0.name.contains("Close detail") }, "pushed").frame
        try ViewRenderer.tap(list, at: Point(close.midX, close.midY))
        #expect(try ViewRenderer.layout(list).labels.contains("Open detail"))
    }
}

// docs/views.md's example, run.
@Observable final class Walk {
    var stops = ["Port Hercule"]
}

struct StopCount: View {
    @Environment(Walk.self) private var walk
    var body: some View { Text("\(walk.stops.count) stops").onTapGesture { walk.stops.append("Palace") } }
}

struct WalkCard: View {
    @State private var walk = Walk()
    var body: some View { StopCount().environment(walk) }
}

extension ObservationTests {
    @Test func theDocsWalkExample() throws {
        let card = WalkCard()
        try ViewRenderer.tap(card, at: Point(10, 8))
        #expect(try ViewRenderer.layout(card).labels == ["2 stops"])
    }
}
