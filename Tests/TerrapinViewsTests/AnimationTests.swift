// Animations at a time: curve values as numbers, and animated views drawn exactly as the same
// views drawn statically with the interpolated values.
import Foundation
import Testing
import TerrapinGeometry
import TerrapinRaster
@testable import TerrapinViews

@Suite struct AnimationCurveTests {
    /// y of the cubic Bézier (0,0)-(x1,y1)-(x2,y2)-(1,1) at x, found by a fine scan (an
    /// independent method from the renderer's bisection).
    func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
        var best = (d: Double.infinity, y: 0.0)
        for i in 0...200_000 {
            let s = Double(i) / 200_000
            let bx = 3 * (1 - s) * (1 - s) * s * x1 + 3 * (1 - s) * s * s * x2 + s * s * s
            if abs(bx - x) < best.d { best = (abs(bx - x), 3 * (1 - s) * (1 - s) * s * y1 + 3 * (1 - s) * s * s * y2 + s * s * s) }
        }
        return best.y
    }

    @Test func timingCurves() {
        for u in [0.1, 0.25, 0.5, 0.8] {
            #expect(abs(Animation.linear(duration: 2).progress(at: 2 * u) - u) < 1e-12)
            #expect(abs(Animation.easeIn(duration: 1).progress(at: u) - bezier(0.42, 0, 1, 1, at: u)) < 1e-4)
            #expect(abs(Animation.easeOut(duration: 1).progress(at: u) - bezier(0, 0, 0.58, 1, at: u)) < 1e-4)
            #expect(abs(Animation.easeInOut(duration: 1).progress(at: u) - bezier(0.42, 0, 0.58, 1, at: u)) < 1e-4)
        }
        #expect(abs(Animation.easeInOut(duration: 1).progress(at: 0.5) - 0.5) < 1e-9)   // symmetric
        #expect(Animation.easeIn(duration: 1).progress(at: -1) == 0 && Animation.easeIn(duration: 1).progress(at: 7) == 1)
    }

    /// The damped oscillator: under-damped overshoots (its first peak at π/ω_d, height
    /// 1 + e^(−ζπ/√(1−ζ²))), critically damped never passes 1.
    @Test func springs() {
        let bouncy = Animation.spring(response: 0.5, dampingFraction: 0.5)
        let w = 2 * Double.pi / 0.5, wd = w * (1 - 0.25).squareRoot()
        let peak = bouncy.progress(at: Double.pi / wd)
        #expect(abs(peak - (1 + exp(-0.5 * Double.pi / (1 - 0.25).squareRoot()))) < 1e-9)
        let critical = Animation.spring(response: 0.5, dampingFraction: 1)
        let samples = (0...100).map { critical.progress(at: Double($0) / 50) }
        #expect(samples.allSatisfy { $0 <= 1 } && zip(samples, samples.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(abs(critical.progress(at: 0.1) - (1 - exp(-w * 0.1) * (1 + w * 0.1))) < 1e-12)
        // Settling time: the envelope at 1/1000.
        #expect(abs(bouncy.duration - log(1000) / (0.5 * w)) < 1e-12)
        let over = Animation.spring(response: 0.5, dampingFraction: 2)
        #expect(over.progress(at: 0.2) > 0 && over.progress(at: 0.2) < critical.progress(at: 0.2))
    }

    @Test func delayRepeatsAndSpeed() {
        let a = Animation.linear(duration: 1).delay(0.5)
        #expect(a.progress(at: 0.5) == 0 && abs(a.progress(at: 1) - 0.5) < 1e-12)
        let forever = Animation.linear(duration: 1).repeatForever()
        #expect(abs(forever.progress(at: 1.25) - 0.75) < 1e-12 && abs(forever.progress(at: 2.25) - 0.25) < 1e-12 && !forever.isFinished(at: 1e6))
        let forward = Animation.linear(duration: 1).repeatForever(autoreverses: false)
        #expect(abs(forward.progress(at: 1.25) - 0.25) < 1e-12)
        let twice = Animation.linear(duration: 1).repeatCount(2)
        #expect(abs(twice.progress(at: 1.5) - 0.5) < 1e-12 && twice.progress(at: 2.5) == 1 && twice.isFinished(at: 2))
        #expect(abs(Animation.linear(duration: 1).speed(2).progress(at: 0.25) - 0.5) < 1e-12)
    }
}

/// A square that triples in size when it appears, under `.animation(_:value:)`.
struct Pulse: View {
    @State var on = false
    let animation: Animation
    var body: some View {
        Color.red.frame(width: 10, height: 10)
            .scaleEffect(on ? 3 : 1)
            .opacity(on ? 0.5 : 1)
            .animation(animation, value: on)
            .onAppear { on = true }
            .frame(width: 40, height: 40)
    }
}

/// A square that a tap moves right, inside `withAnimation`, and recolours.
struct Mover: View {
    @State var right = false
    let animation: Animation?
    var body: some View {
        Color.blue.frame(width: 10, height: 10)
            .foregroundStyle(right ? Color.green : Color.blue)
            .overlay(Circle().frame(width: 4, height: 4))
            .offset(x: right ? 20 : 0)
            .onTapGesture { withAnimation(animation) { right.toggle() } }
            .frame(width: 40, height: 20, alignment: .leading)
    }
}

@Suite struct ViewAnimationTests {
    func still(scale: Double, opacity: Double) throws -> Pixmap {
        try ViewRenderer.render(Color.red.frame(width: 10, height: 10).scaleEffect(scale).opacity(opacity).frame(width: 40, height: 40))
    }

    /// onAppear starts a repeating animation at time 0: each frame is the still square at the
    /// animation's progress.
    @Test func onAppearStartsARepeatingAnimation() throws {
        let animation = Animation.easeInOut(duration: 1).repeatForever()
        let pulse = Pulse(animation: animation)
        for t in [0, 0.25, 0.5, 1, 1.5, 2.75] {
            let p = animation.progress(at: t)
            #expect(try ViewRenderer.render(pulse, time: t) == still(scale: 1 + 2 * p, opacity: 1 - 0.5 * p), "t = \(t)")
        }
        // The middle differs from both ends.
        #expect(try ViewRenderer.render(pulse, time: 0.5) != ViewRenderer.render(pulse, time: 0))
        #expect(try ViewRenderer.render(pulse, time: 0.5) != ViewRenderer.render(pulse, time: 1))
    }

    /// A tap at 3 s inside withAnimation: before 3 s the square has not moved, between 3 and 5
    /// it moves (and turns green) along the ease-in curve, after 5 it rests.
    @Test func aTapStartsItsAnimationAtItsTime() throws {
        let animation = Animation.easeIn(duration: 2)
        let mover = Mover(animation: animation)
        _ = try ViewRenderer.tap(mover, at: Point(5, 10), time: 3)
        #expect(mover.right)
        func still(_ p: Double) throws -> Pixmap {
            let c = Color.blue.rgba, g = Color.green.rgba, f = Float(p)
            let mix = Color(RGBAColor(red: c.red + (g.red - c.red) * f, green: c.green + (g.green - c.green) * f, blue: c.blue + (g.blue - c.blue) * f, alpha: 1))
            return try ViewRenderer.render(Color.blue.frame(width: 10, height: 10).foregroundStyle(mix).overlay(Circle().frame(width: 4, height: 4))
                .offset(x: 20 * p).frame(width: 40, height: 20, alignment: .leading))
        }
        for t in [2.0, 3, 3.5, 4, 4.9, 5, 8] {
            let p = t < 3 ? 0 : animation.progress(at: t - 3)
            #expect(try ViewRenderer.render(mover, time: t) == still(p), "t = \(t)")
        }
    }

    /// Once an animation has come to rest the view is built once; its pixels are the same as
    /// those of a view never drawn mid-animation (built twice at the same time).
    @Test func aSettledAnimationDrawsTheSameEitherWay() throws {
        let animation = Animation.easeIn(duration: 2)
        let seen = Mover(animation: animation), fresh = Mover(animation: animation)
        _ = try ViewRenderer.tap(seen, at: Point(5, 10), time: 3)
        _ = try ViewRenderer.tap(fresh, at: Point(5, 10), time: 3)
        _ = try ViewRenderer.render(seen, time: 4)   // learns that it settles at 5 s
        #expect(try ViewRenderer.render(seen, time: 6) == ViewRenderer.render(fresh, time: 6))
        #expect(try ViewRenderer.render(seen, time: 4.5) == ViewRenderer.render(fresh, time: 4.5))
    }

    /// Without withAnimation or .animation, a change shows at once.
    @Test func changesWithoutAnAnimationSnap() throws {
        let mover = Mover(animation: nil)
        _ = try ViewRenderer.tap(mover, at: Point(5, 10), time: 1)
        let moved = try ViewRenderer.render(Color.blue.frame(width: 10, height: 10).foregroundStyle(Color.green).overlay(Circle().frame(width: 4, height: 4))
            .offset(x: 20).frame(width: 40, height: 20, alignment: .leading))
        #expect(try ViewRenderer.render(mover, time: 1.01) == moved)
        #expect(try ViewRenderer.render(mover, time: 0.99) != moved)
    }
}

/// A bar that turns a quarter when it appears, twice, autoreversing.
struct Turner: View {
    @State var turned = false
    var body: some View {
        Color.orange.frame(width: 24, height: 6)
            .rotationEffect(.degrees(turned ? 90 : 0))
            .animation(.linear(duration: 1).repeatCount(2), value: turned)
            .onAppear { turned = true }
            .frame(width: 30, height: 30)
    }
}

@Suite struct RotationAnimationTests {
    /// Rotation moves too; after its two runs (there and back) it rests at the target.
    @Test func rotationRepeatsThenRests() throws {
        let turner = Turner()
        let animation = Animation.linear(duration: 1).repeatCount(2)
        for t in [0.0, 0.3, 1.0, 1.6, 2.5] {
            let p = animation.progress(at: t)
            let still = try ViewRenderer.render(Color.orange.frame(width: 24, height: 6).rotationEffect(.degrees(90 * p)).frame(width: 30, height: 30))
            #expect(try ViewRenderer.render(turner, time: t) == still, "t = \(t)")
        }
        #expect(animation.progress(at: 2.5) == 1 && abs(animation.progress(at: 1.6) - 0.4) < 1e-12)
    }
}
