// The SwiftUI around a map, round two (AppViews.swift): layouts as numbers, looks as goldens.
import Foundation
import Testing
import TerrapinGeometry
@testable import TerrapinViews

@Suite struct AppViewsTests {
    /// A horizontal scroll view takes the width offered, whatever its content's; its content
    /// starts at its leading edge and is cut at its trailing one.
    @Test func aScrollViewTakesTheWidthOffered() throws {
        let view = VStack {
            Text("Above")
            ScrollView(.horizontal, showsIndicators: false) {
                HStack(spacing: 8) { ForEach(0..<12, id: \.self) { i in Text("Item \(i)") } }
            }
        }.frame(width: 300)
        let layout = try ViewRenderer.layout(view)
        #expect(layout.size.width == 300)
        let first = try #require(layout.frames.first { $0.name.contains("Item 0") }).frame
        #expect(first.minX == 0)
        let above = try #require(layout.frames.first { $0.name.contains("Above") }).frame
        #expect(abs(above.midX - 150) < 0.01, "the stack stays 300 wide: \(above)")
    }

    /// `Text("\(x, specifier:)")` formats as printf does; other interpolations as `String(describing:)`.
    @Test func textWithSpecifiers() throws {
        let speed = 12.345, count = 3
        #expect(try ViewRenderer.layout(Text("Speed: \(speed, specifier: "%.1f") m/s, \(count) stops")).labels == ["Speed: 12.3 m/s, 3 stops"])
        #expect(try ViewRenderer.layout(Text("\(7, specifier: "%03d")°")).labels == ["007°"])
    }

    /// A timeline's date is the scene's start plus the time drawn; paused, the start.
    @Test func aTimelinesDateIsTheTimeDrawn() throws {
        func label(_ paused: Bool, _ t: Double) throws -> String {
            try ViewRenderer.layout(TimelineView(.animation(paused: paused)) { context in
                Text("\(context.date.timeIntervalSince(TimelineView<Text>.startDate), specifier: "%.2f")")
            }, time: t).labels.joined()
        }
        #expect(try label(false, 2.5) == "2.50")
        #expect(try label(true, 2.5) == "0.00")
        #expect(TimelineView<Text>.startDate == Date(timeIntervalSince1970: 1_767_225_600))
    }

    /// `onChange(of:)` runs when the value differs from the last build's, with the old and new
    /// values; not at the first build unless `initial`; never twice for one change.
    @Test func onChangeRunsOnceForEachChange() throws {
        final class Log: @unchecked Sendable { var lines: [String] = [] }
        struct Watcher: View {
            @State var count = 0
            let log: Log
            var body: some View {
                TimelineView(.animation) { context in
                    Text("\(count)")
                        .onChange(of: Int(context.date.timeIntervalSince(TimelineView<Text>.startDate))) { old, new in
                            log.lines.append("\(old)→\(new)")
                            count += 1
                        }
                        .onChange(of: count, initial: true) { _, new in log.lines.append("count \(new)") }
                }
            }
        }
        let log = Log()
        let view = Watcher(log: log)
        _ = try ViewRenderer.layout(view, time: 0)
        #expect(log.lines == ["count 0"])
        _ = try ViewRenderer.layout(view, time: 1)
        // The second second: the clock watcher runs and counts; the count watcher sees it at the
        // build the change causes.
        #expect(log.lines == ["count 0", "0→1", "count 1"])
        _ = try ViewRenderer.layout(view, time: 1.5)
        #expect(log.lines.count == 3, "no change, no call: \(log.lines)")
        #expect(view.count == 1)
    }

    /// A segmented picker's too-long labels stay on one line, cut with an ellipsis (they had
    /// wrapped mid-word: "Trailin" over "g").
    @Test func segmentLabelsStayOnOneLine() throws {
        struct Narrow: View {
            @State var choice = 0
            var body: some View {
                Picker("Position", selection: $choice) {
                    Text("Trailing edge").tag(0)
                    Text("Leading edge").tag(1)
                    Text("Top").tag(2)
                }
                .pickerStyle(.segmented)
                .frame(width: 180)
            }
        }
        let frames = try ViewRenderer.layout(Narrow()).frames.filter { $0.name.hasPrefix("Text") }
        #expect(frames.count == 3)
        for f in frames { #expect(f.frame.height < 20, "\(f.name) takes \(f.frame.height) pt: more than one line") }
    }

    /// Button styles and a tint, toggles as buttons, a slider with a step.
    @Test func buttonAndToggleStyles() {
        struct Styles: View {
            @State var on = true
            @State var off = false
            @State var value = 0.43
            var body: some View {
                VStack(alignment: .leading, spacing: 12) {
                    Button("Automatic") {}
                    Button("Bordered") {}.buttonStyle(.bordered)
                    Button("Prominent") {}.buttonStyle(.borderedProminent)
                    Button("Red tint") {}.buttonStyle(.bordered).tint(.red)
                    Button("Plain") {}.buttonStyle(.plain)
                    HStack {
                        Toggle("On", isOn: $on).toggleStyle(.button)
                        Toggle("Off", isOn: $off).toggleStyle(.button)
                    }
                    Slider(value: $value, in: 0...1, step: 0.25).frame(width: 200)
                    NavigationLink(destination: Text("Next")) { Text("A row that navigates") }.frame(width: 260)
                }
                .padding()
            }
        }
        golden(Styles(), "views/controls/button-and-toggle-styles")
    }
}
