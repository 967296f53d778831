// View identity across builds: state in a view made inside another view's `body` lives as long
// as the view, as in SwiftUI.
//
// A view value made inside a body is new at every build, and so are its `@State` and
// `@StateObject` boxes. Each stateful view therefore keeps, on its own first box, the boxes of
// the stateful views its body made at the last build, in build order (`NestedStates`); when the
// body is built again, the view met at the same place — the same index in that order, of the
// same type — takes over the boxes' values and history (`adopt`), and its fresh boxes become the
// ones kept: they are the boxes the new build's handlers captured. Identity is by order among a
// body's stateful views: a view that appears or goes away earlier in the same body moves the
// later ones' places (SwiftUI's structural identity would keep them; the type check keeps such a
// shift from handing one kind of view another's state). A view held in a stored property, not
// made in a body, keeps its own boxes and adopts from itself.
//
// The root value passed to `ViewRenderer` keeps its own state (a tap changes it, the next render
// shows it), and through it the state of every view made below it. A root with no state of its
// own keeps its descendants' state for one layout (its repeated builds), not from one call to the
// next: give such a root a `@State`, or tap and render a view that holds one.
import TerrapinIO

/// A box of a view's state that the same view built again takes over.
protocol PersistentBox: AnyObject {
    /// Takes `other`'s value and history (`other` is a box of the same property of the same
    /// kind of view, from the build before).
    func adopt(_ other: AnyObject)
    /// The states of the views this view's body made, at its last build.
    var nested: NestedStates? { get set }
}

/// A property wrapper whose box lives with the view (`@State`, `@StateObject`).
protocol PersistentProperty {
    var persistentBox: PersistentBox { get }
}

/// The boxes of the stateful views one body made, in build order.
final class NestedStates {
    var entries: [(type: ObjectIdentifier, boxes: [PersistentBox])] = []
}

/// The body being built: whose `NestedStates` its stateful views are kept in, and how many have
/// been met (one scope per evaluation of a body).
final class NestedStateScope {
    let owner: PersistentBox
    var next = 0
    init(owner: PersistentBox) { self.owner = owner }
}

/// The view's `@State` and `@StateObject` boxes, in declaration order.
func persistentBoxes<V>(_ view: V) -> [PersistentBox] {
    reflectedProperties(view).boxes
}

/// `persistentBoxes`, and the boxes of the view's `@Environment` properties, from one reflection.
/// A view type whose stored properties hold neither (found by reflecting its first instance; a
/// property wrapper is a stored property's declared type, so every instance of the type has the
/// same) is not reflected again: a reflection costs more than the rest of a small view's layout.
/// A type with an optional stored property is always reflected (its wrapper may be nil in one
/// instance and not in the next).
func reflectedProperties<V>(_ view: V) -> (boxes: [PersistentBox], readers: [EnvironmentBox]) {
    let type = ObjectIdentifier(Swift.type(of: view))
    if plainViewTypes.withLock({ $0.contains(type) }) { return ([], []) }
    var boxes: [PersistentBox] = [], readers: [EnvironmentBox] = []
    var optional = false
    for child in Mirror(reflecting: view).children {
        if let p = child.value as? PersistentProperty {
            boxes.append(p.persistentBox)
        } else if let r = child.value as? EnvironmentReading {
            readers.append(r.environmentBox)
        } else if Mirror(reflecting: child.value).displayStyle == .optional {
            optional = true
        }
    }
    if boxes.isEmpty, readers.isEmpty, !optional { plainViewTypes.withLock { _ = $0.insert(type) } }
    return (boxes, readers)
}

/// View types known to hold no state and read no environment through their stored properties.
private let plainViewTypes = Locked<Set<ObjectIdentifier>>([])

/// Gives `boxes`, a stateful view's boxes met while a body is built (`environment`'s scope),
/// the state the view at that place had at the last build, and keeps them for the next. A probe
/// build (which runs no handler) takes the state and keeps nothing: the boxes kept are those of
/// the build whose handlers a tap will run.
func adoptState<V>(_ boxes: [PersistentBox], of view: V.Type, _ environment: EnvironmentValues) {
    guard let scope = environment.nestedStates, !boxes.isEmpty else { return }
    let k = scope.next
    scope.next += 1
    let store: NestedStates
    if let kept = scope.owner.nested { store = kept } else { store = NestedStates(); scope.owner.nested = store }
    let type = ObjectIdentifier(V.self)
    if k < store.entries.count {
        let old = store.entries[k]
        if old.type == type, old.boxes.count == boxes.count {
            for (box, before) in zip(boxes, old.boxes) where box !== before { box.adopt(before) }
        }
        if environment.triggerProbe == nil { store.entries[k] = (type, boxes) }
    } else if k == store.entries.count, environment.triggerProbe == nil {
        store.entries.append((type, boxes))
    }
}

/// Where a layout keeps the states of stateful views its root (when it holds no state of its own)
/// makes, for the length of one layout: its builds after `onAppear` or a completion changed state.
final class RootStates: PersistentBox {
    var nested: NestedStates?
    func adopt(_ other: AnyObject) {}
}

extension EnvironmentValues {
    /// The environment for building the body of a view whose first box is `owner`: the stateful
    /// views it makes are kept there.
    func buildingBody(of owner: PersistentBox?) -> EnvironmentValues {
        guard let owner else { return self }
        var e = self
        e.nestedStates = NestedStateScope(owner: owner)
        return e
    }
}
