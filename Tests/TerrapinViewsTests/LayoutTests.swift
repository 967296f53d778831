// Layout as numbers, each case after SwiftUI's documented behaviour.
import Testing
import TerrapinGeometry
import TerrapinRaster
import TerrapinTypography
@testable import TerrapinViews

func layout<V: View>(_ view: V, _ proposal: ProposedSize = .unspecified) throws -> ViewLayout { try ViewRenderer.layout(view, proposal: proposal) }
func frame(_ l: ViewLayout, _ name: String) -> Rect? { l.frames.first { $0.name == name }?.frame }

/// "Hi" in the default font (body, 17 pt DejaVu Sans), measured by the text engine itself.
let hi = try! TextLayout.make("Hi", font: .style(.body))

@Suite struct ViewLayoutTests {
    @Test func paddingThenBackgroundVersusBackgroundThenPadding() throws {
        // Padding first: the background fills the padded area.
        let a = try layout(Text("Hi").padding(10).background(Color.red))
        #expect(a.size == Size(width: hi.width + 20, height: hi.height + 20))
        #expect(frame(a, "Color(#FF3B30FF)") == Rect(x: 0, y: 0, width: hi.width + 20, height: hi.height + 20))
        #expect(frame(a, "Text(\"Hi\")") == Rect(x: 10, y: 10, width: hi.width, height: hi.height))
        // Background first: it covers only the text; the padding is outside it.
        let b = try layout(Text("Hi").background(Color.red).padding(10))
        #expect(b.size == a.size)
        #expect(frame(b, "Color(#FF3B30FF)") == Rect(x: 10, y: 10, width: hi.width, height: hi.height))
    }

    @Test func paddingForms() throws {
        #expect(try layout(Color.red.frame(width: 10, height: 10).padding()).size == Size(width: 42, height: 42), "default padding is 16")
        #expect(try layout(Color.red.frame(width: 10, height: 10).padding(.horizontal, 12)).size == Size(width: 34, height: 10))
        #expect(try layout(Color.red.frame(width: 10, height: 10).padding([.top, .leading], 5)).frames[0].frame == Rect(x: 5, y: 5, width: 10, height: 10))
        #expect(try layout(Color.red.frame(width: 10, height: 10).padding(EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4))).size == Size(width: 16, height: 14))
    }

    @Test func frameAlignment() throws {
        let centred = try layout(Text("Hi").frame(width: 100, height: 50))
        #expect(centred.size == Size(width: 100, height: 50))
        #expect(frame(centred, "Text(\"Hi\")") == Rect(x: (100 - hi.width) / 2, y: (50 - hi.height) / 2, width: hi.width, height: hi.height))
        let topLeading = try layout(Text("Hi").frame(width: 100, height: 50, alignment: .topLeading))
        #expect(frame(topLeading, "Text(\"Hi\")")?.minX == 0 && frame(topLeading, "Text(\"Hi\")")?.minY == 0)
        let bottomTrailing = try layout(Text("Hi").frame(width: 100, height: 50, alignment: .bottomTrailing))
        #expect(frame(bottomTrailing, "Text(\"Hi\")") == Rect(x: 100 - hi.width, y: 50 - hi.height, width: hi.width, height: hi.height))
        // Only a width: the height is the content's.
        #expect(try layout(Text("Hi").frame(width: 100)).size == Size(width: 100, height: hi.height))
    }

    @Test func flexibleFrames() throws {
        // maxWidth: .infinity takes the whole proposal; the content stays its size, centred.
        let wide = try layout(Text("Hi").frame(maxWidth: .infinity), ProposedSize(width: 300, height: 100))
        #expect(wide.size == Size(width: 300, height: hi.height))
        #expect(frame(wide, "Text(\"Hi\")")?.minX == (300 - hi.width) / 2)
        // minWidth grows a small view; ideal width applies when nothing is proposed.
        #expect(try layout(Text("Hi").frame(minWidth: 100)).size.width == 100)
        #expect(try layout(Color.red.frame(idealWidth: 40, idealHeight: 20)).size == Size(width: 40, height: 20))
        // maxWidth narrower than the text makes it wrap.
        let narrow = try layout(Text("Empire State Building").frame(maxWidth: 80), ProposedSize(width: 300, height: 300))
        #expect(narrow.size.width == 80 && narrow.size.height > hi.height * 1.5)
    }

    @Test func stacksSpacingAndAlignment() throws {
        let h = try layout(HStack(spacing: 5) { Color.red.frame(width: 20, height: 20); Color.blue.frame(width: 30, height: 10) })
        #expect(h.size == Size(width: 55, height: 20))
        #expect(h.frames.map(\.frame) == [Rect(x: 0, y: 0, width: 20, height: 20), Rect(x: 25, y: 5, width: 30, height: 10)])
        let top = try layout(HStack(alignment: .top, spacing: 0) { Color.red.frame(width: 20, height: 20); Color.blue.frame(width: 30, height: 10) })
        #expect(top.frames[1].frame.minY == 0)
        let v = try layout(VStack(alignment: .leading) { Color.red.frame(width: 20, height: 20); Color.blue.frame(width: 30, height: 10) })
        #expect(v.size == Size(width: 30, height: 38), "default spacing 8")
        #expect(v.frames.map(\.frame) == [Rect(x: 0, y: 0, width: 20, height: 20), Rect(x: 0, y: 28, width: 30, height: 10)])
        let z = try layout(ZStack(alignment: .bottomTrailing) { Color.red.frame(width: 40, height: 40); Color.blue.frame(width: 10, height: 10) })
        #expect(z.frames[1].frame == Rect(x: 30, y: 30, width: 10, height: 10))
    }

    @Test func spacersTakeWhatIsLeft() throws {
        let l = try layout(HStack { Color.red.frame(width: 20, height: 10); Spacer(); Color.blue.frame(width: 30, height: 10) }, ProposedSize(width: 200, height: 50))
        #expect(l.size.width == 200)
        #expect(l.frames[2] == ("Color(#007AFFFF)", Rect(x: 170, y: 20, width: 30, height: 10)) || l.frames.last?.frame.maxX == 200)
        #expect(l.frames.last?.frame.maxX == 200)
        // Ideal size: the spacer's minimum (8), no stack spacing next to it.
        #expect(try layout(HStack { Color.red.frame(width: 20, height: 10); Spacer(); Color.blue.frame(width: 30, height: 10) }).size.width == 58)
    }

    @Test func layoutPriorityIsOfferedSpaceFirst() throws {
        let long = "Ferry Building Marketplace"
        let full = try TextLayout.make(long, font: .style(.body)).width
        let l = try layout(HStack(spacing: 0) { Text("Pier 1 Terminal"); Text(long).layoutPriority(1) }, ProposedSize(width: full + 30, height: 200))
        #expect(frame(l, "Text(\"\(long)\")")?.width == full, "the prioritised text keeps one line")
        #expect((frame(l, "Text(\"Pier 1 Terminal\")")?.width ?? 99) <= 30)
    }

    @Test func fixedSizeUsesTheIdealSize() throws {
        let text = "Empire State Building"
        let ideal = try TextLayout.make(text, font: .style(.body)).width
        let wrapped = try layout(Text(text).frame(width: 60))
        #expect(frame(wrapped, "Text(\"\(text)\")")!.width <= 60)
        let fixed = try layout(Text(text).fixedSize().frame(width: 60))
        #expect(frame(fixed, "Text(\"\(text)\")")!.width == ideal, "fixedSize overflows the frame instead of wrapping")
    }

    @Test func offsetMovesDrawingNotLayout() throws {
        let l = try layout(HStack(spacing: 0) { Color.red.frame(width: 10, height: 10).offset(x: 5, y: -3); Color.blue.frame(width: 10, height: 10) })
        #expect(l.size == Size(width: 20, height: 10))
        #expect(l.frames.map(\.frame) == [Rect(x: 5, y: -3, width: 10, height: 10), Rect(x: 10, y: 0, width: 10, height: 10)])
    }

    @Test func pinsAndImages() throws {
        #expect(try layout(Pin()).size == Size(width: 26, height: 37))
        #expect(try layout(Pin(configuration: .init(scale: 2))).size == Size(width: 52, height: 74))
        #expect(try layout(Image(systemName: "star.fill")).size == Size(width: 17 * 1.2, height: 17 * 1.2), "1.2 em of the body font")
        #expect(try layout(Image(systemName: "star.fill").font(.system(size: 10))).size == Size(width: 12, height: 12))
        #expect(try layout(Image(systemName: "star.fill").resizable().frame(width: 48, height: 30)).frames[0].frame.size == Size(width: 48, height: 30))
        #expect(try layout(Image(systemName: "star.fill").resizable().scaledToFit().frame(width: 100, height: 50)).frames[0].frame == Rect(x: 25, y: 0, width: 50, height: 50))
        #expect(try layout(Image(systemName: "star.fill").resizable().scaledToFill().frame(width: 100, height: 50)).frames[0].frame == Rect(x: 0, y: -25, width: 100, height: 100))
    }

    @Test func unknownSymbolsAndFontsFailWithHelp() {
        do {
            _ = try layout(Image(systemName: "ferryboat"))
            Issue.record("rendered an unknown symbol")
        } catch {
            #expect("\(error)" == "no symbol named 'ferryboat'; closest: ferry, ferry.fill, ferry.circle (the full list is in docs/views.md)")
        }
        #expect(throws: TypographyError.self) { try layout(Text("x").font(.custom("Helvetica Neue", size: 12))) }
    }

    @Test func builderForms() throws {
        let show = true, hide = false
        let l = try layout(VStack(spacing: 0) {
            if show { Color.red.frame(width: 1, height: 1) }
            if hide { Color.blue.frame(width: 1, height: 1) } else { Color.green.frame(width: 2, height: 2) }
            ForEach(0..<3) { i in Color.black.frame(width: Double(i + 3), height: 1) }
            Group { Color.white.frame(width: 9, height: 1); EmptyView() }
            AnyView(Color.gray.frame(width: 10, height: 1))
        })
        #expect(l.frames.map(\.frame.width) == [1, 2, 3, 4, 5, 9, 10])
    }
}

extension Rect {
    var size: Size { Size(width: width, height: height) }
}

@Suite struct StateAndTapTests {
    struct Counter: View {
        @State var count = 0
        @State var isOpen = false
        var body: some View {
            VStack(spacing: 0) {
                Text("count \(count)").onTapGesture { count += 1 }
                Color.red.frame(width: 40, height: 40).clipShape(Circle()).onTapGesture { isOpen.toggle() }.accessibilityLabel("toggle")
                if isOpen { Text("open") }
            }
        }
    }

    @Test func tapsChangeStateForTheNextRender() throws {
        let view = Counter()
        #expect(try ViewRenderer.tap(view, at: Point(10, 5)) == ViewTap(label: "count 0"))
        #expect(view.count == 1)
        let before = try layout(view)
        #expect(!before.labels.contains("open"))
        // The circle's centre toggles; its clipped-off corner does not.
        #expect(try ViewRenderer.tap(view, at: Point(before.size.width / 2 - 19, before.size.height - 1)) == nil)
        #expect(try ViewRenderer.tap(view, at: Point(before.size.width / 2, before.size.height - 20)) == ViewTap(label: "toggle"))
        let after = try layout(view)
        #expect(after.labels.contains("open") && after.labels.contains("count 1"))
    }

    @Test func bindings() {
        struct Box: View {
            @State var on = false
            var body: some View { Toggleish(isOn: $on) }
        }
        struct Toggleish: View {
            @Binding var isOn: Bool
            var body: some View { Color.red.onTapGesture { isOn.toggle() } }
        }
        let box = Box()
        _ = try? ViewRenderer.tap(box, at: Point(1, 1))
        #expect(box.on)
        let constant = Binding.constant(3)
        constant.wrappedValue = 4
        #expect(constant.wrappedValue == 3)
    }
}

/// Regression: wrapper nodes passed their own rect to the child's tap shape, so the padding
/// around a pin took taps meant for the map beneath.
@Suite struct WrapperHitRectTests {
    @Test func paddedPinTapMissesThePadding() throws {
        let view = Pin().padding(20).onTapGesture {}.accessibilityLabel("pin")
        let size = try layout(view).size
        #expect(size == Size(width: 66, height: 77))
        // 15 pt left of the drawn pin (which spans x 20…46), at the height of its head.
        #expect(try ViewRenderer.tap(view, at: Point(5, 33)) == nil)
        #expect(try ViewRenderer.tap(view, at: Point(33, 33)) == ViewTap(label: "pin"))
    }

    @Test func offsetAndFrameMoveTheTapShapeWithTheDrawing() throws {
        let offset = Color.red.frame(width: 10, height: 10).offset(x: 30, y: 0).frame(width: 60, height: 10, alignment: .leading).onTapGesture {}.accessibilityLabel("moved")
        #expect(try ViewRenderer.tap(offset, at: Point(5, 5)) == nil)
        #expect(try ViewRenderer.tap(offset, at: Point(35, 5)) == ViewTap(label: "moved"))
        let framed = Circle().fill(Color.red).frame(width: 10, height: 10).frame(width: 50, height: 50).onTapGesture {}.accessibilityLabel("dot")
        #expect(try ViewRenderer.tap(framed, at: Point(3, 3)) == nil)
        #expect(try ViewRenderer.tap(framed, at: Point(25, 25)) == ViewTap(label: "dot"))
    }
}
