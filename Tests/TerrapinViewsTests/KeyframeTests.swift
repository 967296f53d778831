// Keyframes evaluated at a time: each kind of keyframe as numbers, tracks side by side, and an
// animator played by a trigger (content rebuilt with the value, the initial one outside the run).
import Testing
import TerrapinGeometry
@testable import TerrapinViews

private struct Values { var scale = 1.0; var offset = 0.0 }

@Suite struct KeyframeTests {
    @Test func eachKindOfKeyframe() {
        let timeline = KeyframeTimeline(initialValue: Values()) {
            KeyframeTrack(\Values.scale) {
                LinearKeyframe(2.0, duration: 1)          // 1 → 2 over 0…1
                MoveKeyframe(5.0)                         // jumps to 5 at 1
                LinearKeyframe(3.0, duration: 2, timingCurve: .easeIn)
            }
            KeyframeTrack(\Values.offset) {
                SpringKeyframe(10.0, duration: 4, spring: .smooth)
            }
        }
        #expect(timeline.duration == 4)
        #expect(timeline.value(time: -1).scale == 1 && timeline.value(time: 0).scale == 1)
        #expect(timeline.value(time: 0.5).scale == 1.5)
        #expect(timeline.value(time: 1).scale == 5)
        // Ease-in: slow at first (CSS's 0.42,0 1,1 at u = 0.5 is 0.3153).
        #expect(abs(timeline.value(time: 2).scale - (5 - 2 * 0.3153)) < 1e-3)
        #expect(timeline.value(time: 3).scale == 3 && timeline.value(time: 9).scale == 3)
        // The spring as Animation.spring(response: 0.5, dampingFraction: 1) moves a value.
        let spring = Animation.spring(response: 0.5, dampingFraction: 1)
        #expect(abs(timeline.value(time: 0.25).offset - 10 * spring.progress(at: 0.25)) < 1e-9)
        #expect(abs(timeline.value(time: 4).offset - 10) < 1e-3)
    }

    /// Cubic keyframes pass through every value, and between them follow the Catmull–Rom curve
    /// (not a straight line: a hold at 10 between a rise and a fall bulges to 11.25).
    @Test func cubicKeyframesPassThroughTheirValues() {
        let timeline = KeyframeTimeline(initialValue: 0.0) {
            KeyframeTrack {
                CubicKeyframe(10.0, duration: 1)
                CubicKeyframe(10.0, duration: 1)
                CubicKeyframe(0.0, duration: 1)
            }
        }
        #expect(timeline.value(time: 1) == 10 && timeline.value(time: 2) == 10 && timeline.value(time: 3) == 0)
        // p0 = 0, p1 = 0, p2 = 10, p3 = 10 at u = 0.5: weights −1/16, 9/16, 9/16, −1/16, so 5.
        #expect(abs(timeline.value(time: 0.5) - 5) < 1e-12)
        // p0 = 0, p1 = 10, p2 = 10, p3 = 0 at u = 0.5: 9/16 × 10 + 9/16 × 10 = 11.25.
        #expect(abs(timeline.value(time: 1.5) - 11.25) < 1e-12)
        // A keyframe in a loop, as apps build them from data.
        let steps = [2.0, 4.0, 8.0]
        let built = KeyframeTimeline(initialValue: 0.0) {
            KeyframeTrack { for s in steps { LinearKeyframe(s, duration: 1) } }
        }
        #expect(built.duration == 3 && built.value(time: 2.5) == 6)
    }

    /// Played by a trigger: the initial value until the trigger changes (a tap at 1 s), the
    /// keyframes' value while they play, the initial value again after.
    @Test func anAnimatorPlaysWhenItsTriggerChanges() throws {
        struct Bouncer: View {
            @State var go = false
            var body: some View {
                Text("x").onTapGesture { go.toggle() }
                    .keyframeAnimator(initialValue: 0.0, trigger: go) { view, value in
                        VStack { view; Text("value \(Int(value))") }
                    } keyframes: { _ in
                        LinearKeyframe(100.0, duration: 2)
                    }
            }
        }
        let view = Bouncer()
        func label(at t: Double) throws -> String { try ViewRenderer.layout(view, time: t).labels.last ?? "" }
        #expect(try label(at: 0) == "value 0")
        let x = try #require(try ViewRenderer.layout(view).frames.first { $0.name.contains("\"x\"") }).frame
        let tapped = try ViewRenderer.tap(view, at: Point(x.midX, x.midY), time: 1)
        #expect(tapped != nil)
        #expect(try label(at: 0.5) == "value 0", "before the tap nothing plays")
        #expect(try label(at: 2) == "value 50")
        #expect(try label(at: 2.5) == "value 75")
        #expect(try label(at: 3.5) == "value 0", "after the run, the initial value")
    }

    @Test func aRepeatingAnimatorLoopsFromTheStart() throws {
        let view = Text("x").keyframeAnimator(initialValue: 0.0) { _, value in Text("v \(Int(value))") } keyframes: { _ in
            LinearKeyframe(10.0, duration: 1)
        }
        #expect(try ViewRenderer.layout(view, time: 0.5).labels == ["v 5"])
        #expect(try ViewRenderer.layout(view, time: 2.5).labels == ["v 5"])
        let stopped = Text("x").keyframeAnimator(initialValue: 7.0, repeating: false) { _, value in Text("v \(Int(value))") } keyframes: { _ in
            LinearKeyframe(10.0, duration: 1)
        }
        #expect(try ViewRenderer.layout(stopped, time: 0.5).labels == ["v 7"])
    }
}

/// `phaseAnimator`: the view moved from phase to phase by each phase's animation (the view's
/// opacity, read as the grey of a black square over white), looping or once per trigger.
@Suite struct PhaseAnimatorTests {
    /// The grey a black square drawn at `opacity` leaves on white, at `time`.
    func grey<V: View>(_ view: V, at time: Double) throws -> Int {
        let pixmap = try ViewRenderer.render(view, scale: 1, background: .white, time: time)
        return Int(pixmap[5, 5].red)
    }

    @Test func loopingThroughThePhases() throws {
        let view = Rectangle().fill(Color.black).frame(width: 10, height: 10)
            .phaseAnimator([0.0, 1.0]) { square, opacity in square.opacity(opacity) } animation: { _ in .linear(duration: 1) }
        #expect(try grey(view, at: 0) == 255)        // phase 0: clear
        #expect(abs(try grey(view, at: 0.5) - 128) <= 1)  // half-way to opaque
        #expect(try grey(view, at: 1) == 0)          // phase 1: black, then back
        #expect(abs(try grey(view, at: 1.25) - 64) <= 1)
        #expect(abs(try grey(view, at: 2.5) - 128) <= 1, "the second loop is the first")
    }

    @Test func oncePerTrigger() throws {
        struct Flash: View {
            @State var flashes = 0
            var body: some View {
                Rectangle().fill(Color.black).frame(width: 10, height: 10)
                    .phaseAnimator([0.0, 1.0], trigger: flashes) { square, opacity in square.opacity(opacity) } animation: { phase in
                        phase == 1 ? .linear(duration: 1) : .linear(duration: 2)
                    }
                    .onTapGesture { flashes += 1 }
            }
        }
        let view = Flash()
        #expect(try grey(view, at: 5) == 255)
        try ViewRenderer.tap(view, at: Point(5, 5), time: 10)
        #expect(try grey(view, at: 9) == 255, "before the tap: the first phase")
        #expect(abs(try grey(view, at: 10.5) - 128) <= 1)
        #expect(abs(try grey(view, at: 12) - 128) <= 1, "back over 2 s, half-way")
        #expect(try grey(view, at: 13.5) == 255, "done: the first phase")
    }
}
