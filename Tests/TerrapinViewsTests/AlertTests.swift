// Alerts drawn while presented (a golden), in both SwiftUI forms, and dismissed by a tap on a
// button, which runs its action.
import Testing
import TerrapinGeometry
import TerrapinRaster
import TerrapinTestSupport
@testable import TerrapinViews

struct AlertScreen: View {
    @State var showing = true
    @State var cleared = false
    var body: some View {
        VStack {
            Text(cleared ? "Route cleared" : "Ferry Building → Coit Tower")
        }
        .frame(width: 320, height: 240)
        .background(Color(red: 0.86, green: 0.93, blue: 0.86))
        .alert(isPresented: $showing) {
            Alert(title: Text("Clear the route?"), message: Text("The stops you added are removed from the map."),
                  primaryButton: .cancel(), secondaryButton: .destructive(Text("Clear"), action: { cleared = true }))
        }
    }
}

struct NewStyleAlert: View {
    @State var showing = true
    var body: some View {
        Color.white.frame(width: 300, height: 200)
            .alert("Location unavailable", isPresented: $showing) {
                Button("Settings", role: .destructive) {}
                Button("OK") {}
            } message: {
                Text("Turn on Location Services to see where you are.")
            }
    }
}

struct RouteDialog: View {
    @State var showing = true
    @State var chosen = "none"
    var body: some View {
        Text("Chosen: \(chosen)").frame(width: 320, height: 400).background(Color(red: 0.86, green: 0.91, blue: 0.96))
            .confirmationDialog("Share the route", isPresented: $showing, titleVisibility: .visible) {
                Button("Copy Link") { chosen = "link" }
                Button("Export GPX") { chosen = "gpx" }
                Button("Delete Route", role: .destructive) { chosen = "deleted" }
            } message: {
                Text("Ferry Building to Coit Tower, 2.1 km")
            }
    }
}

struct Demo: Identifiable {
    let id: Int
    let name: String
}

struct DemoList: View {
    let demos = [Demo(id: 1, name: "Basic map"), Demo(id: 2, name: "Markers"), Demo(id: 3, name: "Polylines")]
    var body: some View {
        VStack(spacing: 0) {
            List(demos) { demo in Text(demo.name) }
            List {
                Text("Settings")
                ForEach(["Camera", "Terrain"], id: \.self) { Text($0) }
            }
        }
        .frame(width: 240)
        .background(Color(white: 0.95))
    }
}

@Suite struct AlertTests {
    @Test func aListDrawsARowForEachElement() throws {
        let layout = try ViewRenderer.layout(DemoList())
        #expect(layout.labels == ["Basic map", "Markers", "Polylines", "Settings", "Camera", "Terrain"])
        // Six rows of 44 pt with hairlines between the rows of each list.
        let rows: Double = 6 * 44 + 4 * 0.5
        #expect(layout.size.height == rows, "\(layout)")
        Golden.check(try ViewRenderer.render(DemoList(), scale: 2), "views/controls/list")
    }

    @Test func aConfirmationDialogIsDrawnAtTheFootAndATapChoosesAndDismisses() throws {
        Golden.check(try ViewRenderer.render(RouteDialog(), scale: 2), "views/alerts/confirmation-dialog")
        let dialog = RouteDialog()
        let layout = try ViewRenderer.layout(dialog)
        #expect(layout.labels == ["Chosen: none", "Share the route", "Ferry Building to Coit Tower, 2.1 km", "Copy Link", "Export GPX", "Delete Route", "Cancel"], "\(layout)")
        // "Export GPX" is the second row: anywhere across the row takes the tap.
        let hit = try ViewRenderer.tap(dialog, at: Point(40, 400 - 8 - 57 - 8 - 57 - 0.5 - 28))
        #expect(hit != nil, "\(layout)")
        #expect(try ViewRenderer.layout(dialog).labels == ["Chosen: gpx"])
    }

    @Test func aPresentedAlertIsDrawnOverTheView() throws {
        Golden.check(try ViewRenderer.render(AlertScreen(), scale: 2), "views/alerts/alert-two-buttons")
        Golden.check(try ViewRenderer.render(NewStyleAlert(), scale: 2), "views/alerts/alert-actions-message")
    }

    @Test func aTapOnAButtonRunsItsActionAndDismisses() throws {
        let screen = AlertScreen()
        let layout = try ViewRenderer.layout(screen)
        #expect(layout.labels == ["Ferry Building → Coit Tower", "Clear the route?", "The stops you added are removed from the map.", "Cancel", "Clear"], "\(layout)")
        // The card is 270 pt wide in the middle; "Clear" is its right half's button, at the bottom.
        let hit = try ViewRenderer.tap(screen, at: Point(228, 166))
        #expect(hit?.label == "Clear", "\(layout)")
        #expect(try ViewRenderer.layout(screen).labels == ["Route cleared"])
        let dismissed = NewStyleAlert()
        _ = try ViewRenderer.tap(dismissed, at: Point(218, 145))
        #expect(try ViewRenderer.layout(dismissed).labels.isEmpty)
    }
}
