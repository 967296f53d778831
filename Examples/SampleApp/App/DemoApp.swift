import Terrapin

/// The app's entry, as an iOS app writes it. Run headless it draws the demo list into a PNG:
/// `DemoApp --output demos.png`.
@main
struct DemoApp: App {
    var body: some Scene {
        WindowGroup {
            DemoList()
                .onAppear {
                    Map.apiKey = "offline"
                    DemoData.tiles = DemoData.tiles ?? "Fixtures/tiles/monaco-omt.pmtiles"
                }
        }
    }
}
