// Animations in SwiftUI's style, evaluated at a time instead of on a display link.
//
// A `@State` change remembers when it happened (a tap's time, or 0 for `onAppear`) and the
// `withAnimation` it happened in. Building a view whose state changed, Terrapin builds its body
// twice: once with the values before the change, recording every animatable value in order
// (opacity, scale, offset, rotation, foreground colour, and the values `.animation(_:value:)`
// watches), then with the values after, each animatable value moved from its recorded start by
// the animation's progress at (time − change). The animation is the innermost
// `.animation(_:value:)` whose value changed, else the change's `withAnimation`, else none (the
// new value at once). Before its time a change has not happened yet.
//
// Progress (documented formulas; u = elapsed / duration after delay and speed):
// - linear, easeIn, easeOut, easeInOut: the cubic Béziers of CSS and SwiftUI, (0,0)–(1,1)
//   with control points (0,0 1,1), (0.42,0 1,1), (0,0 0.58,1), (0.42,0 0.58,1).
// - spring(response: R, dampingFraction: ζ): a unit step of a damped oscillator with
//   ω = 2π / R: 1 − e^(−ζωt)(cos ω_d t + ζω/ω_d sin ω_d t), ω_d = ω√(1 − ζ²) (ζ < 1; it
//   overshoots), 1 − e^(−ωt)(1 + ωt) (ζ = 1), the overdamped sum of two exponentials (ζ > 1).
//   Its "duration" (for repeats) is the time its envelope falls to 1/1000: ln 1000 / (ζω).
// - repeatCount(n, autoreverses:) and repeatForever: cycles of the duration, every other one
//   backwards when autoreversing; after the last the value is the target.
#if canImport(Glibc)
import Glibc
#endif

public struct Animation: Equatable, Sendable {
    public enum Curve: Equatable, Sendable {
        /// A cubic Bézier from (0, 0) to (1, 1) with these control points.
        case bezier(Double, Double, Double, Double)
        case spring(response: Double, dampingFraction: Double)
    }
    public let curve: Curve
    /// Seconds of one run (a spring's: its settling time).
    public let duration: Double
    public internal(set) var delay = 0.0
    public internal(set) var speed = 1.0
    /// Runs in all (nil: once; `Int.max`: forever), and whether every other one runs backwards.
    public internal(set) var repeats: Int?
    public internal(set) var autoreverses = false

    init(_ curve: Curve, duration: Double) {
        self.curve = curve
        self.duration = max(1e-9, duration.isFinite ? duration : 0.35)
    }

    public static func linear(duration: Double) -> Animation { Animation(.bezier(0, 0, 1, 1), duration: duration) }
    public static func easeIn(duration: Double) -> Animation { Animation(.bezier(0.42, 0, 1, 1), duration: duration) }
    public static func easeOut(duration: Double) -> Animation { Animation(.bezier(0, 0, 0.58, 1), duration: duration) }
    public static func easeInOut(duration: Double) -> Animation { Animation(.bezier(0.42, 0, 0.58, 1), duration: duration) }
    public static var linear: Animation { .linear(duration: 0.35) }
    public static var easeIn: Animation { .easeIn(duration: 0.35) }
    public static var easeOut: Animation { .easeOut(duration: 0.35) }
    public static var easeInOut: Animation { .easeInOut(duration: 0.35) }
    /// Terrapin's default: ease in and out over 0.35 s.
    public static var `default`: Animation { .easeInOut }

    public static func spring(response: Double = 0.55, dampingFraction: Double = 0.825) -> Animation {
        let r = max(0.01, response), z = max(0.01, dampingFraction)
        return Animation(.spring(response: r, dampingFraction: z), duration: log(1000) / (z * 2 * Double.pi / r))
    }
    public static var spring: Animation { .spring() }

    public func delay(_ seconds: Double) -> Animation { var a = self; a.delay = seconds; return a }
    public func speed(_ factor: Double) -> Animation { var a = self; a.speed = factor > 0 ? factor : 1; return a }
    public func repeatCount(_ count: Int, autoreverses: Bool = true) -> Animation {
        var a = self; a.repeats = max(1, count); a.autoreverses = autoreverses; return a
    }
    public func repeatForever(autoreverses: Bool = true) -> Animation {
        var a = self; a.repeats = Int.max; a.autoreverses = autoreverses; return a
    }

    /// How far from the old value to the new one, `elapsed` seconds after the change: 0 before
    /// it starts, 1 when done (a spring may pass 1 on the way).
    public func progress(at elapsed: Double) -> Double {
        let e = (elapsed - delay) * speed
        guard e > 0 else { return 0 }
        let runs = e / duration
        guard let repeats else { return runs >= 1 ? 1 : value(runs) }
        if repeats != Int.max, runs >= Double(repeats) { return 1 }
        let cycle = runs.rounded(.down), u = runs - cycle
        let backwards = autoreverses && Int(cycle.truncatingRemainder(dividingBy: 2)) == 1
        return value(backwards ? 1 - u : u)
    }

    /// Whether the animation has come to rest `elapsed` seconds after the change.
    public func isFinished(at elapsed: Double) -> Bool {
        guard repeats != Int.max else { return false }
        return (elapsed - delay) * speed >= duration * Double(repeats ?? 1)
    }

    /// The curve at u in 0…1 of one run.
    func value(_ u: Double) -> Double {
        switch curve {
        case .bezier(let x1, let y1, let x2, let y2):
            if x1 == y1 && x2 == y2 { return u }
            // Solve x(s) = u for s by bisection (x is monotonic for 0 ≤ x1, x2 ≤ 1), then y(s).
            func bez(_ s: Double, _ p1: Double, _ p2: Double) -> Double { 3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s }
            var lo = 0.0, hi = 1.0
            for _ in 0..<60 {
                let mid = (lo + hi) / 2
                if bez(mid, x1, x2) < u { lo = mid } else { hi = mid }
            }
            return bez((lo + hi) / 2, y1, y2)
        case .spring(let response, let zeta):
            let t = u * duration, w = 2 * Double.pi / response
            if zeta < 1 {
                let wd = w * (1 - zeta * zeta).squareRoot()
                return 1 - exp(-zeta * w * t) * (cos(wd * t) + zeta * w / wd * sin(wd * t))
            }
            if zeta == 1 { return 1 - exp(-w * t) * (1 + w * t) }
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -w * (zeta - root), r2 = -w * (zeta + root)
            return 1 - (r2 * exp(r1 * t) - r1 * exp(r2 * t)) / (r2 - r1)
        }
    }
}

/// The circumstances of a state change: when it happens and how it animates.
public enum Transaction {
    @TaskLocal public static var animation: Animation?
    /// Seconds from the scene's start (a tap's time; 0 for `onAppear`).
    @TaskLocal public static var time: Double = 0
    /// Counts state changes, so a render can see that `onAppear` changed something.
    @TaskLocal static var changes: ChangeCounter?
}

/// (Used by one build on one thread at a time.)
final class ChangeCounter: @unchecked Sendable { var count = 0 }

/// Runs `body` (typically a state change) so that what it changes animates with `animation`.
@discardableResult
public func withAnimation<Result>(_ animation: Animation? = .default, _ body: () throws -> Result) rethrows -> Result {
    try Transaction.$animation.withValue(animation) { try body() }
}

/// A value an animation can move: a number, a colour, or a watched value it only compares.
enum AnimatableValue {
    case number(Double)
    case color(Color)
    case watched(AnyHashable)
}

/// The two builds of a view whose state changed (see the top of this file).
final class AnimationPass {
    var recording = true
    var values: [AnimatableValue] = []
    var index = 0
    /// When the change happened, the time drawn, and the change's `withAnimation`.
    let changedAt: Double, time: Double
    let transactionAnimation: Animation?

    init(changedAt: Double, time: Double, animation: Animation?) {
        self.changedAt = changedAt
        self.time = time
        transactionAnimation = animation
    }

    func next() -> AnimatableValue? {
        guard index < values.count else { return nil }
        index += 1
        return values[index - 1]
    }

    /// Every animation a value moved by (to know when they all come to rest).
    var used: [Animation] = []

    func progress(_ scoped: Animation?) -> Double? {
        guard let animation = scoped ?? transactionAnimation else { return nil }
        used.append(animation)
        return animation.progress(at: time - changedAt)
    }

    /// From when on the change animates nothing: its time if no value moved, the end of the
    /// longest animation otherwise, never while one repeats forever.
    var settledAfter: Double {
        var end = changedAt
        for a in used {
            guard a.repeats != Int.max else { return .infinity }
            end = max(end, changedAt + a.delay + a.duration * Double(a.repeats ?? 1) / a.speed)
        }
        return end
    }
}

extension EnvironmentValues {
    /// `value` as this build shows it: recorded in the first build, moved from the recorded
    /// start in the second.
    func animated(_ value: Double) -> Double {
        guard let pass = animationPass else { return value }
        if pass.recording { pass.values.append(.number(value)); return value }
        guard case .number(let from)? = pass.next(), let p = pass.progress(animation) else { return value }
        // At the ends exactly the values themselves (a settled view is then built once, alike).
        return p == 1 ? value : p == 0 ? from : from + (value - from) * p
    }

    func animated(_ value: Color?) -> Color? {
        guard let pass = animationPass, let value else { return value }
        if pass.recording { pass.values.append(.color(value)); return value }
        guard case .color(let from)? = pass.next(), let p = pass.progress(animation) else { return value }
        if p == 1 { return value }
        if p == 0 { return from }
        let f = Float(p), a = from.rgba, b = value.rgba
        return Color(RGBAColor(red: a.red + (b.red - a.red) * f, green: a.green + (b.green - a.green) * f,
                               blue: a.blue + (b.blue - a.blue) * f, alpha: a.alpha + (b.alpha - a.alpha) * f))
    }

    /// Whether a value `.animation(_:value:)` watches changed between the two builds.
    func watchedValueChanged(_ value: AnyHashable) -> Bool {
        guard let pass = animationPass else { return false }
        if pass.recording { pass.values.append(.watched(value)); return false }
        guard case .watched(let before)? = pass.next() else { return false }
        return before != value
    }
}

protocol StateChangeRecord: AnyObject {
    /// When the last change happened and in which `withAnimation`; nil if never changed.
    var lastChange: (time: Double, animation: Animation?)? { get }
    /// Swaps the value and the one before the last change (twice restores it).
    func swapWithPrevious()
    /// From when on the last change animates nothing (learnt by the first build that animated
    /// it); nil until then.
    var settledAfter: Double? { get set }
    /// The value before the last change.
    var previousValue: Any? { get }
    /// The triggers (by their index in the view's build) whose completion ran since the last
    /// change; emptied by a change.
    var completedTriggers: Set<Int> { get set }
    /// The `onAppear` actions (by their order in the view's build) that have run.
    var appeared: Set<Int> { get set }
    /// The values `onChange(of:)` watchers (by their order in the view's build) saw last.
    var watched: [Int: Any] { get set }
}


import TerrapinRaster
