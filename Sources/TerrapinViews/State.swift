// @State and Binding that work outside SwiftUI: the value lives in a reference-typed box
// created with the view value, so a handler that mutates it (a tap) is seen by the next render
// of the same view value.

/// Whether a state change sets the value it has (then it is no change: onAppear runs at every
/// build, and would otherwise build the view again and again).
func isSameValue<Value>(_ old: Value, _ new: Value) -> Bool {
    if let a = old as? AnyHashable, let b = new as? AnyHashable { return a == b }
    return false
}

@propertyWrapper
public struct State<Value>: PersistentProperty {
    /// The value, and the one before its last change with when and how it changed (for
    /// animations, see Animation.swift).
    final class Box: StateChangeRecord, PersistentBox {
        var value: Value
        var nested: NestedStates?
        var previous: Value?
        var lastChange: (time: Double, animation: Animation?)?
        var settledAfter: Double?
        var completedTriggers: Set<Int> = []
        var appeared: Set<Int> = []
        var watched: [Int: Any] = [:]
        init(_ value: Value) { self.value = value }

        func set(_ newValue: Value) {
            // Setting the value it has is no change (onAppear runs at every build).
            if isSameValue(value, newValue) { return }
            previous = value
            value = newValue
            lastChange = (Transaction.time, Transaction.animation)
            settledAfter = nil
            completedTriggers = []
            Transaction.changes?.count += 1
        }

        var previousValue: Any? { previous }

        func adopt(_ other: AnyObject) {
            guard let other = other as? Box else { return }
            value = other.value
            previous = other.previous
            lastChange = other.lastChange
            settledAfter = other.settledAfter
            completedTriggers = other.completedTriggers
            appeared = other.appeared
            watched = other.watched
            nested = other.nested
        }

        func swapWithPrevious() {
            guard let p = previous else { return }
            previous = value
            value = p
        }
    }
    let box: Box

    public init(wrappedValue: Value) { box = Box(wrappedValue) }
    public init(initialValue: Value) { box = Box(initialValue) }

    public var wrappedValue: Value {
        get { box.value }
        nonmutating set { box.set(newValue) }
    }

    public var projectedValue: Binding<Value> {
        let box = self.box
        var binding = Binding(get: { box.value }, set: { box.set($0) })
        binding.record = box
        return binding
    }

    var persistentBox: PersistentBox { box }
}

@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    private let getter: () -> Value
    private let setter: (Value) -> Void
    /// The state it reads and writes, when made from one (for when and how it last changed).
    var record: StateChangeRecord?

    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        getter = get
        setter = set
    }

    public static func constant(_ value: Value) -> Binding { Binding(get: { value }, set: { _ in }) }

    /// The same binding, holding its `@State`'s box weakly, for closures the state's own value
    /// keeps: a navigation stack's pushed screens keep, in their environment, the closures that
    /// push and pop them, and held strongly the box and its screens would keep each other alive
    /// (LeakSanitizer found the cycle). Once the box is gone it reads `fallback` and writes
    /// nothing, and it has no `lastChange` (that would hold the box). A binding not made from a
    /// `@State` is returned as it is.
    func holdingStateWeakly(fallback: Value) -> Binding {
        guard let box = record as? State<Value>.Box else { return self }
        return Binding(get: { [weak box] in box?.value ?? fallback }, set: { [weak box] in box?.set($0) })
    }

    public var wrappedValue: Value {
        get { getter() }
        nonmutating set { setter(newValue) }
    }

    public var projectedValue: Binding<Value> { self }

    /// When the value last changed (seconds from the scene's start) and the `withAnimation` it
    /// changed in; nil when it never changed or does not come from a `@State`.
    public var lastChange: (time: Double, animation: Animation?)? { record?.lastChange }

    /// The value as it was at `time`: before a change made later than that, the old value.
    public func value(at time: Double) -> Value {
        if let record, let change = record.lastChange, change.time > time, let old = record.previousValue as? Value { return old }
        return wrappedValue
    }

    public subscript<T>(dynamicMember keyPath: WritableKeyPath<Value, T>) -> Binding<T> {
        Binding<T>(get: { self.wrappedValue[keyPath: keyPath] }, set: { var v = self.wrappedValue; v[keyPath: keyPath] = $0; self.wrappedValue = v })
    }
}
