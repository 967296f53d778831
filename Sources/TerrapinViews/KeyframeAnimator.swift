// `keyframeAnimator`: content rebuilt with the keyframes' value at the time drawn (Keyframes.swift).
import TerrapinGeometry

/// A view whose content is built with an animated value (the `keyframeAnimator` modifiers).
public struct KeyframeAnimator<Base: View, Value, Content: View>: View, PrimitiveView {
    enum Play { case trigger(any Equatable), repeating(Bool) }
    let base: Base
    let initialValue: Value
    let play: Play
    let content: (Base, Value) -> Content
    let keyframes: (Value) -> KeyframeTracks<Value>

    func makeNode(_ environment: EnvironmentValues) throws -> Node {
        let timeline = KeyframeTimeline(initialValue: initialValue, tracks: keyframes(initialValue)._tracks)
        switch play {
        case .repeating(let on):
            // Looping from the scene's start; stopped, the timeline's first value.
            let d = timeline.duration
            let t = on && d > 0 ? environment.time.truncatingRemainder(dividingBy: d) : 0
            return try TerrapinViews.makeNode(content(base, timeline.value(time: max(0, t))), environment)
        case .trigger(let trigger):
            // When the trigger changed is known once the stateful view holding it is built: the
            // content is built with the initial value now and again, at first use, with the
            // value of the keyframes then playing (if any). The second build keeps no nested
            // state: it exists only while the keyframes play.
            func slot(_ value: some Equatable) -> TriggerSlot? { environment.trigger(value) }
            let initial = try TerrapinViews.makeNode(content(base, initialValue), environment)
            guard let slot = slot(trigger) else { return initial }
            let time = environment.time
            var playing = environment
            playing.nestedStates = nil
            return LateNode(initial: initial) { [content, base] in
                guard let start = slot.changedAt, time >= start, time - start < timeline.duration else { return nil }
                return try? TerrapinViews.makeNode(content(base, timeline.value(time: time - start)), playing)
            }
        }
    }
}

extension View {
    /// Plays `keyframes` when `trigger` changes: `content` is built with the animated value (the
    /// initial value when none plays). The view itself is `content`'s first argument.
    public func keyframeAnimator<Value, C: View>(initialValue: Value, trigger: some Equatable,
                                                 @ViewBuilder content: @escaping (Self, Value) -> C,
                                                 @KeyframesBuilder<Value> keyframes: @escaping (Value) -> KeyframeTracks<Value>) -> KeyframeAnimator<Self, Value, C> {
        KeyframeAnimator(base: self, initialValue: initialValue, play: .trigger(trigger), content: content, keyframes: keyframes)
    }

    /// Loops `keyframes` from the scene's start while `repeating`; otherwise `content` gets the
    /// value at the timeline's start.
    public func keyframeAnimator<Value, C: View>(initialValue: Value, repeating: Bool = true,
                                                 @ViewBuilder content: @escaping (Self, Value) -> C,
                                                 @KeyframesBuilder<Value> keyframes: @escaping (Value) -> KeyframeTracks<Value>) -> KeyframeAnimator<Self, Value, C> {
        KeyframeAnimator(base: self, initialValue: initialValue, play: .repeating(repeating), content: content, keyframes: keyframes)
    }
}

/// A node standing for `initial` until first used for layout, drawing or taps, when `later`
/// may give another (built once); by then the build that made it, and the settling of its
/// triggers, are done.
final class LateNode: Node {
    private let initial: Node
    private var make: (() -> Node?)?
    private var built: Node?

    init(initial: Node, later: @escaping () -> Node?) {
        self.initial = initial
        make = later
        super.init()
        layoutPriority = initial.layoutPriority
    }

    private var node: Node {
        if let make {
            built = make()
            self.make = nil
        }
        return built ?? initial
    }

    override func collectShapes(in rect: Rect, _ out: inout [(node: ShapeNode, rect: Rect)]) -> Bool { node.collectShapes(in: rect, &out) }
    /// Asked while the parent is built (a stack sorts out its spacers), before the trigger's time
    /// is known: the initial content's answer.
    override var isSpacer: Bool { initial.isSpacer }
    override func sizeThatFits(_ proposal: ProposedSize) -> Size { node.sizeThatFits(proposal) }
    override func draw(in rect: Rect, _ context: DrawContext) { node.draw(in: rect, context) }
    override func hitTest(_ point: Point, in rect: Rect) -> TapTarget? { node.hitTest(point, in: rect) }
    override func contains(_ point: Point, in rect: Rect) -> Bool { node.contains(point, in: rect) }
    override func accessibilityLabels() -> [String] { node.accessibilityLabels() }
    override func children(in rect: Rect) -> [(Node, Rect)] { [(node, rect)] }
    override func baseline(in size: Size, last: Bool) -> Double? { node.baseline(in: size, last: last) }
}

/// A view stepped through phases (the `phaseAnimator` modifiers): from each phase to the next
/// with `animation(next)` — the view built for both phases, its animatable values moved between
/// them as a state change inside `withAnimation` moves them (Animation.swift) — and from the last
/// back to the first. Looping from the scene's start, or once from when `trigger` changed (then
/// resting at the first phase). A transition with no animation is a jump.
public struct PhaseAnimator<Base: View, Phase: Equatable, Content: View>: View, PrimitiveView {
    let base: Base
    let phases: [Phase]
    let trigger: (any Equatable)?
    let content: (Base, Phase) -> Content
    let animation: (Phase) -> Animation?

    func makeNode(_ environment: EnvironmentValues) throws -> Node {
        guard !phases.isEmpty else { return try TerrapinViews.makeNode(EmptyView(), environment) }
        guard let trigger else { return try node(at: environment.time, looping: true, environment) }
        func slot(_ value: some Equatable) -> TriggerSlot? { environment.trigger(value) }
        let initial = try TerrapinViews.makeNode(content(base, phases[0]), environment)
        guard let slot = slot(trigger) else { return initial }
        let time = environment.time
        var playing = environment
        playing.nestedStates = nil
        return LateNode(initial: initial) {
            guard let start = slot.changedAt, time >= start else { return nil }
            return try? node(at: time - start, looping: false, playing)
        }
    }

    /// The seconds each move takes: into phase 1, 2, …, then back into phase 0.
    var moves: [Double] {
        (1...phases.count).map { k in animation(phases[k % phases.count]).map { $0.delay + $0.duration / $0.speed } ?? 0 }
    }

    /// The view `t` seconds into the phases.
    func node(at t: Double, looping: Bool, _ environment: EnvironmentValues) throws -> Node {
        let moves = self.moves, cycle = moves.reduce(0, +)
        var u = t
        if looping {
            guard cycle > 0, cycle.isFinite else { return try TerrapinViews.makeNode(content(base, phases[0]), environment) }
            u = t.truncatingRemainder(dividingBy: cycle)
        }
        var start = 0.0
        for (k, d) in moves.enumerated() where d > 0 {
            if u < start + d, let move = animation(phases[(k + 1) % phases.count]) {
                // The first build records the phase moved from; the second moves to the next.
                let pass = AnimationPass(changedAt: start, time: u, animation: move)
                var e = environment
                e.animationPass = pass
                _ = try? TerrapinViews.makeNode(content(base, phases[k]), e)
                pass.recording = false
                return try TerrapinViews.makeNode(content(base, phases[(k + 1) % phases.count]), e)
            }
            start += d
        }
        return try TerrapinViews.makeNode(content(base, phases[0]), environment)
    }
}

extension View {
    /// Steps through `phases` over and over from the scene's start.
    public func phaseAnimator<Phase: Equatable, C: View>(_ phases: some Sequence<Phase>, @ViewBuilder content: @escaping (Self, Phase) -> C,
                                                         animation: @escaping (Phase) -> Animation? = { _ in .default }) -> PhaseAnimator<Self, Phase, C> {
        PhaseAnimator(base: self, phases: Array(phases), trigger: nil, content: content, animation: animation)
    }

    /// Steps through `phases` once each time `trigger` changes, then rests at the first.
    public func phaseAnimator<Phase: Equatable, C: View>(_ phases: some Sequence<Phase>, trigger: some Equatable,
                                                         @ViewBuilder content: @escaping (Self, Phase) -> C,
                                                         animation: @escaping (Phase) -> Animation? = { _ in .default }) -> PhaseAnimator<Self, Phase, C> {
        PhaseAnimator(base: self, phases: Array(phases), trigger: trigger, content: content, animation: animation)
    }
}
