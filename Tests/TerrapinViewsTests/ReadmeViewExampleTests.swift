// The view example of docs/views.md, kept compiling and working.
import Testing
import TerrapinGeometry
import TerrapinPNG
@testable import TerrapinViews

struct FerryPin: View {
    @State private var taps = 0
    var tapCount: Int { taps }
    var body: some View {
        VStack(spacing: 4) {
            Text("Ferry Building").padding(.horizontal, 12).padding(.vertical, 6)
                .background(Color.white).clipShape(Capsule())
            Pin(configuration: .init(backgroundColor: .black) {
                Image(systemName: "ferry.fill").resizable().scaledToFit().padding(2).foregroundStyle(.white)
            })
            .onTapGesture { taps += 1 }
        }
    }
}

@Suite struct ReadmeViewExampleTests {
    @Test func example() throws {
        let view = FerryPin()
        let png = try ViewRenderer.renderPNG(view, scale: 2)
        #expect(try PNGDecoder.info(png).width == Int((try ViewRenderer.layout(view).size.width * 2).rounded(.up)))
        let size = try ViewRenderer.layout(view).size
        // The pin's head, centre bottom of the stack.
        #expect(try ViewRenderer.tap(view, at: Point(size.width / 2, size.height - 25)) != nil)
        #expect(view.tapCount == 1)
        #expect(try ViewRenderer.layout(view).description.contains("Pin "))
    }
}
