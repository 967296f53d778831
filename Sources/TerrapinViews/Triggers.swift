// Triggers: values a view watches so that something starts when they change (the SDK's camera
// flights: `flyCameraTo(_:duration:trigger:completion:)`), and `onAppear` run once per view.
//
// A view holding `@State` is built with a `TriggerLog`: every trigger met while its body is
// built (in tree order, child views included) registers a `TriggerSlot`. After the build the
// view looks for when each trigger last changed: for each time its state changed (latest
// first) it builds its body again — a probe build, with no side effects and no map laid out —
// with the state as it was just before that time, and notes the first time at which the
// trigger read differently. That is the time the trigger changed: a tap at T, `onAppear` at 0.
// A trigger that never changed has started nothing. When the time drawn is past the end of
// what the trigger started, its completion runs once, at that end time (so the state it sets
// changes then, and the view is built again to show it).
//
// Identity across builds is the view's state boxes: they live as long as the view value, so
// "once" (an `onAppear`, a completion) is remembered in them.

/// A watched value met while a view was built, and when it last changed (nil: never).
public final class TriggerSlot {
    let value: any Equatable
    /// Seconds from the scene's start when the trigger last changed; nil if it never did.
    public internal(set) var changedAt: Double?
    /// When what it started ends (asked once `changedAt` is known; nil: it has no end).
    public var end: (() -> Double)?
    /// Runs once when the time drawn reaches `end`.
    public var completion: (() -> Void)?
    /// The state change that set `changedAt`, which remembers that the completion ran.
    fileprivate var changedBy: StateChangeRecord?

    init(_ value: any Equatable) { self.value = value }

    fileprivate func differs(from other: any Equatable) -> Bool { !Self.equal(value, other) }

    private static func equal<A: Equatable>(_ a: A, _ b: any Equatable) -> Bool {
        guard let b = b as? A else { return false }
        return a == b
    }
}

/// The triggers met while one stateful view's body was built, in order.
final class TriggerLog {
    var slots: [TriggerSlot] = []
    let parent: TriggerLog?
    init(parent: TriggerLog?) { self.parent = parent }

    func register(_ slot: TriggerSlot) {
        var log: TriggerLog? = self
        while let l = log { l.slots.append(slot); log = l.parent }
    }
}

/// The values a probe build met, in order.
final class TriggerProbe {
    var values: [any Equatable] = []
}

/// Which `onAppear` actions of a stateful view's body have run (counted in build order).
final class AppearanceScope {
    let owner: StateChangeRecord
    var next = 0
    /// The same count for `onChange` watchers.
    var nextChange = 0
    init(owner: StateChangeRecord) { self.owner = owner }
}

extension EnvironmentValues {
    /// Registers `value` as a trigger of the view being built: the slot says when it last
    /// changed once the view's build is done (before anything is drawn). nil during a probe
    /// build or the first of an animation's two builds (which only count).
    public func trigger(_ value: some Equatable) -> TriggerSlot? {
        if let probe = triggerProbe { probe.values.append(value); return nil }
        if let pass = animationPass, pass.recording { return nil }
        let slot = TriggerSlot(value)
        triggerLog?.register(slot)
        return slot
    }

    /// Whether this build only looks for when triggers changed: build nothing costly, change nothing.
    public var isProbing: Bool { triggerProbe != nil }
}

/// Finds when each trigger of `log` changed, among the state changes of `records` (each with
/// a change at or before the time drawn), by probe builds of `body`; then runs the completions
/// whose end has come.
func settleTriggers(_ log: TriggerLog, records: [StateChangeRecord], time: Double,
                    environment: EnvironmentValues, body: (EnvironmentValues) throws -> Void) {
    guard !log.slots.isEmpty else { return }
    let changes = records.filter { $0.lastChange.map { $0.time <= time } ?? false }
    let times = Set(changes.map { $0.lastChange!.time }).sorted(by: >)
    var unresolved = Set(log.slots.indices)
    for changeTime in times where !unresolved.isEmpty {
        // The state just before `changeTime`: every change since then undone.
        let undone = changes.filter { $0.lastChange!.time >= changeTime }
        undone.forEach { $0.swapWithPrevious() }
        let probe = TriggerProbe()
        var e = environment
        e.triggerProbe = probe
        e.triggerLog = nil
        e.animationPass = nil
        try? body(e)
        undone.forEach { $0.swapWithPrevious() }
        let by = changes.first { $0.lastChange!.time == changeTime }
        for i in unresolved.sorted() {
            let slot = log.slots[i]
            // A trigger the earlier state did not reach at all counts as changed.
            guard i >= probe.values.count || slot.differs(from: probe.values[i]) else { continue }
            if slot.changedAt.map({ changeTime > $0 }) ?? true { slot.changedAt = changeTime; slot.changedBy = by }
            unresolved.remove(i)
        }
    }
    for (i, slot) in log.slots.enumerated() {
        guard slot.changedAt != nil, let by = slot.changedBy, let end = slot.end?(), end <= time,
              let completion = slot.completion, !by.completedTriggers.contains(i) else { continue }
        by.completedTriggers.insert(i)
        Transaction.$time.withValue(end) { Transaction.$animation.withValue(nil) { completion() } }
    }
}
