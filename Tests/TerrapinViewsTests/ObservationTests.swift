// The observation family as an app around a map uses it: a data loader made once by a view,
// filled in onAppear, passed down as an @ObservedObject and through the environment, changed by
// a binding; each render draws the model as it is.
import Testing
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
