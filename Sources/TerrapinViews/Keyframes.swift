// Keyframe animation in SwiftUI's style: `keyframeAnimator(initialValue:trigger:content:keyframes:)`
// with `KeyframeTrack`s of `LinearKeyframe`, `CubicKeyframe`, `SpringKeyframe` and
// `MoveKeyframe`, evaluated at the time drawn instead of on a display link.
//
// A track moves one value (a key path of the animated value, or the whole value) through its
// keyframes in order; tracks run side by side, and the timeline lasts as long as the longest.
// Each keyframe moves from where the one before ended (the first from the initial value):
// - `MoveKeyframe`: jumps there at once;
// - `LinearKeyframe`: straight there along its `UnitCurve`;
// - `CubicKeyframe`: along a Catmull–Rom spline through the neighbouring keyframes' values, so a
//   run of cubic keyframes passes through each value smoothly (start and end velocities are
//   accepted and not used);
// - `SpringKeyframe`: as `Animation.spring` would move it, over its duration (or the spring's
//   settling time).
// Played by a trigger, the keyframes start when the trigger changed (found as flights' triggers
// are, Triggers.swift) and run once; before and after, the content shows the initial value, as
// SwiftUI's does when no animation runs. `repeating: true` loops them from the scene's start.

/// A value that can be added, subtracted and scaled: what keyframes interpolate.
public protocol VectorArithmetic: AdditiveArithmetic {
    mutating func scale(by rhs: Double)
    var magnitudeSquared: Double { get }
}

/// A value with a vector form keyframes can interpolate (SwiftUI's `Animatable`).
public protocol Animatable {
    associatedtype AnimatableData: VectorArithmetic
    var animatableData: AnimatableData { get set }
}

extension Double: VectorArithmetic {
    public mutating func scale(by rhs: Double) { self *= rhs }
    public var magnitudeSquared: Double { self * self }
}

extension Double: Animatable {
    public var animatableData: Double {
        get { self }
        set { self = newValue }
    }
}

/// Two animatable parts as one.
public struct AnimatablePair<First: VectorArithmetic, Second: VectorArithmetic>: VectorArithmetic {
    public var first: First
    public var second: Second
    public init(_ first: First, _ second: Second) { self.first = first; self.second = second }
    public static var zero: AnimatablePair { AnimatablePair(.zero, .zero) }
    public static func + (a: AnimatablePair, b: AnimatablePair) -> AnimatablePair { AnimatablePair(a.first + b.first, a.second + b.second) }
    public static func - (a: AnimatablePair, b: AnimatablePair) -> AnimatablePair { AnimatablePair(a.first - b.first, a.second - b.second) }
    public mutating func scale(by rhs: Double) { first.scale(by: rhs); second.scale(by: rhs) }
    public var magnitudeSquared: Double { first.magnitudeSquared + second.magnitudeSquared }
}

/// An easing curve from 0 to 1 (SwiftUI's `UnitCurve`).
public struct UnitCurve: Sendable {
    let animation: Animation
    public static let linear = UnitCurve(animation: .linear(duration: 1))
    public static let easeIn = UnitCurve(animation: .easeIn(duration: 1))
    public static let easeOut = UnitCurve(animation: .easeOut(duration: 1))
    public static let easeInOut = UnitCurve(animation: .easeInOut(duration: 1))
    /// A cubic Bézier from (0, 0) to (1, 1).
    public static func bezier(startControlPoint: UnitPoint, endControlPoint: UnitPoint) -> UnitCurve {
        UnitCurve(animation: Animation(.bezier(startControlPoint.x, startControlPoint.y, endControlPoint.x, endControlPoint.y), duration: 1))
    }
    /// The curve's value at `progress` (0…1).
    public func value(at progress: Double) -> Double { animation.progress(at: min(1, max(0, progress))) }
}

/// A spring (SwiftUI's `Spring`): `duration` is its response, `bounce` 0 (none) to 1.
public struct Spring: Sendable {
    public var duration: Double
    public var bounce: Double
    public init(duration: Double = 0.5, bounce: Double = 0) { self.duration = duration; self.bounce = bounce }
    public static let smooth = Spring(duration: 0.5, bounce: 0)
    public static let snappy = Spring(duration: 0.5, bounce: 0.15)
    public static let bouncy = Spring(duration: 0.5, bounce: 0.3)
    var animation: Animation { .spring(response: max(0.01, duration), dampingFraction: max(0.01, 1 - min(0.99, max(0, bounce)))) }
}

/// One keyframe, as tracks hold them.
public struct KeyframeSegment<Value: Animatable> {
    enum Kind { case move, linear(UnitCurve), cubic, spring(Spring) }
    let kind: Kind
    let to: Value
    /// Seconds (0 for a move).
    let duration: Double
}

/// What a track holds: its keyframes, in order.
public protocol KeyframeTrackContent<Value> {
    associatedtype Value: Animatable
    var _segments: [KeyframeSegment<Value>] { get }
}

public struct MoveKeyframe<Value: Animatable>: KeyframeTrackContent {
    public let _segments: [KeyframeSegment<Value>]
    public init(_ to: Value) { _segments = [KeyframeSegment(kind: .move, to: to, duration: 0)] }
}

public struct LinearKeyframe<Value: Animatable>: KeyframeTrackContent {
    public let _segments: [KeyframeSegment<Value>]
    public init(_ to: Value, duration: Double, timingCurve: UnitCurve = .linear) {
        _segments = [KeyframeSegment(kind: .linear(timingCurve), to: to, duration: KeyframeTimeline<Value>.seconds(duration))]
    }
}

public struct CubicKeyframe<Value: Animatable>: KeyframeTrackContent {
    public let _segments: [KeyframeSegment<Value>]
    public init(_ to: Value, duration: Double, startVelocity: Value? = nil, endVelocity: Value? = nil) {
        _segments = [KeyframeSegment(kind: .cubic, to: to, duration: KeyframeTimeline<Value>.seconds(duration))]
    }
}

public struct SpringKeyframe<Value: Animatable>: KeyframeTrackContent {
    public let _segments: [KeyframeSegment<Value>]
    public init(_ to: Value, duration: Double? = nil, spring: Spring = Spring(), startVelocity: Value? = nil) {
        let seconds = duration ?? spring.animation.duration
        _segments = [KeyframeSegment(kind: .spring(spring), to: to, duration: KeyframeTimeline<Value>.seconds(seconds))]
    }
}

/// Collects a track's keyframes: blocks, `if`, `if`/`else` and `for`.
@resultBuilder
public enum KeyframeTrackContentBuilder<Value: Animatable>: ListBuilder {
    public typealias Element = KeyframeSegment<Value>
    public static func buildExpression<K: KeyframeTrackContent>(_ keyframe: K) -> [KeyframeSegment<Value>] where K.Value == Value { keyframe._segments }
}

/// Keyframes for a value of type `Value`: one or more tracks.
public protocol Keyframes<Value> {
    associatedtype Value
    /// Each track: how long it runs, and its value at a time written into the animated value
    /// (which starts as the initial value).
    var _tracks: [(duration: Double, apply: (inout Value, Double) -> Void)] { get }
}

/// One property's keyframes (`KeyframeTrack(\.scale) { … }`), or the whole value's
/// (`KeyframeTrack { … }`).
public struct KeyframeTrack<Root, TrackValue: Animatable>: Keyframes {
    public typealias Value = Root
    let keyPath: WritableKeyPath<Root, TrackValue>
    let segments: [KeyframeSegment<TrackValue>]

    public init(_ keyPath: WritableKeyPath<Root, TrackValue>, @KeyframeTrackContentBuilder<TrackValue> content: () -> [KeyframeSegment<TrackValue>]) {
        self.keyPath = keyPath
        segments = content()
    }

    public init(@KeyframeTrackContentBuilder<TrackValue> content: () -> [KeyframeSegment<TrackValue>]) where Root == TrackValue {
        keyPath = \.self
        segments = content()
    }

    public var _tracks: [(duration: Double, apply: (inout Root, Double) -> Void)] {
        let keyPath = keyPath, segments = segments
        let duration = segments.reduce(0) { $0 + $1.duration }
        return [(duration, { root, t in root[keyPath: keyPath] = KeyframeTimeline<TrackValue>.evaluate(segments, from: root[keyPath: keyPath], at: t) })]
    }
}

/// The tracks a keyframes builder collected.
public struct KeyframeTracks<Value>: Keyframes {
    public let _tracks: [(duration: Double, apply: (inout Value, Double) -> Void)]
}

/// Collects tracks (a keyframe on its own is a track of the whole value).
@resultBuilder
public enum KeyframesBuilder<Value>: ListBuilder {
    /// One track: how long it runs, and how it writes the value at a time.
    public typealias Element = (duration: Double, apply: (inout Value, Double) -> Void)
    public static func buildExpression<K: Keyframes>(_ keyframes: K) -> [Element] where K.Value == Value { keyframes._tracks }
    public static func buildExpression<K: KeyframeTrackContent>(_ keyframe: K) -> [Element] where K.Value == Value {
        KeyframeTrack<Value, Value>(keyPath: \.self, segments: keyframe._segments)._tracks
    }
    public static func buildFinalResult(_ tracks: [Element]) -> KeyframeTracks<Value> { KeyframeTracks(_tracks: tracks) }
}

extension KeyframeTrack {
    init(keyPath: WritableKeyPath<Root, TrackValue>, segments: [KeyframeSegment<TrackValue>]) {
        (self.keyPath, self.segments) = (keyPath, segments)
    }
}

/// Keyframes evaluated at any time (SwiftUI's `KeyframeTimeline`).
public struct KeyframeTimeline<Value> {
    let initialValue: Value
    let tracks: [(duration: Double, apply: (inout Value, Double) -> Void)]
    /// Seconds: the longest track's.
    public let duration: Double

    public init(initialValue: Value, @KeyframesBuilder<Value> content: () -> KeyframeTracks<Value>) {
        self.init(initialValue: initialValue, tracks: content()._tracks)
    }

    init(initialValue: Value, tracks: [(duration: Double, apply: (inout Value, Double) -> Void)]) {
        self.initialValue = initialValue
        self.tracks = tracks
        duration = tracks.map(\.duration).max() ?? 0
    }

    /// The value `time` seconds into the keyframes (before 0: the initial value; past the end:
    /// each track's last value).
    public func value(time: Double) -> Value {
        var value = initialValue
        for track in tracks { track.apply(&value, time.isFinite ? time : 0) }
        return value
    }

    /// A keyframe's duration as given: finite and not negative (else 0).
    static func seconds(_ d: Double) -> Double { d.isFinite ? max(0, d) : 0 }
}

extension KeyframeTimeline where Value: Animatable {
    /// One track's value at `t`, its first keyframe starting from `start`.
    static func evaluate(_ segments: [KeyframeSegment<Value>], from start: Value, at t: Double) -> Value {
        guard !segments.isEmpty, t > 0 else { return start }
        // The value each keyframe starts from: the one before's target.
        var begin = 0.0
        for (i, s) in segments.enumerated() {
            let end = begin + s.duration
            let last = i == segments.count - 1
            if t < end || (last && t <= end) {
                let from = i == 0 ? start : segments[i - 1].to
                let u = s.duration > 0 ? (t - begin) / s.duration : 1
                switch s.kind {
                case .move: return s.to
                case .linear(let curve): return mix(from, s.to, curve.value(at: u))
                case .spring(let spring): return mix(from, s.to, spring.animation.progress(at: t - begin))
                case .cubic:
                    // Catmull–Rom through the neighbours: the value before `from` (the start, at
                    // the first keyframes) and the next cubic keyframe's target (or this one's).
                    let before = i >= 2 ? segments[i - 2].to : start
                    let after = !last && { if case .cubic = segments[i + 1].kind { true } else { false } }() ? segments[i + 1].to : s.to
                    return catmullRom(before, from, s.to, after, u)
                }
            }
            begin = end
        }
        return segments[segments.count - 1].to
    }

    /// `a` moved a fraction `f` of the way to `b`.
    static func mix(_ a: Value, _ b: Value, _ f: Double) -> Value {
        var d = b.animatableData - a.animatableData
        d.scale(by: f)
        var out = a
        out.animatableData = a.animatableData + d
        return out
    }

    /// The uniform Catmull–Rom spline between `p1` and `p2` at `u` (its weights sum to one).
    static func catmullRom(_ p0: Value, _ p1: Value, _ p2: Value, _ p3: Value, _ u: Double) -> Value {
        let u2 = u * u, u3 = u2 * u
        let weights = [0.5 * (-u3 + 2 * u2 - u), 0.5 * (3 * u3 - 5 * u2 + 2), 0.5 * (-3 * u3 + 4 * u2 + u), 0.5 * (u3 - u2)]
        // Relative to p1, so the weights need not be applied to absolute values.
        var sum = Value.AnimatableData.zero
        for (p, w) in zip([p0, p1, p2, p3], weights) {
            var d = p.animatableData - p1.animatableData
            d.scale(by: w)
            sum += d
        }
        var out = p1
        out.animatableData = p1.animatableData + sum
        return out
    }
}
