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
                Button("Settings", role: .destructive) { showing = false }
                Button("OK") { showing = false }
            } message: {
                Text("Turn on Location Services to see where you are.")
            }
    }
}

@Suite struct AlertTests {
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
