// The SwiftUI-style view world: `View`, `@ViewBuilder`, and the containers that builders make.
//
// A view is a value describing content. Rendering turns the tree into layout nodes
// (`Node`): primitive views (Text, shapes, stacks, modifiers…) make nodes directly; every
// other view is replaced by its `body` until a primitive is reached.

public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
    /// How Terrapin makes the view's layout node (as SwiftUI's `_makeView`): app code neither
    /// calls nor implements it. A requirement, so that each kind of view is told apart by its
    /// conformance, not by casts at run time (see `makeNode`).
    func _makeNode(_ environment: EnvironmentValues) throws -> _ViewNode
}

/// A view's layout node, as `View._makeNode` hands it over.
public struct _ViewNode {
    let node: Node
}

extension View {
    /// A view made of other views: its body's node (and a view drawn by another module, its drawing).
    public func _makeNode(_ environment: EnvironmentValues) throws -> _ViewNode {
        // The body reads `@EnvironmentObject`s from the models the environment holds.
        if let objects = environment.objects, EnvironmentObjects.current !== objects {
            return _ViewNode(node: try EnvironmentObjects.$current.withValue(objects) { try makeAnimatedBody(self, environment) })
        }
        return _ViewNode(node: try makeAnimatedBody(self, environment))
    }
}

extension Never: View {
    public var body: Never { fatalError("Never has no body") }
}

/// Views that make layout nodes themselves. Their `body` is never evaluated.
protocol PrimitiveView: View where Body == Never {
    func makeNode(_ environment: EnvironmentValues) throws -> Node
}

extension PrimitiveView {
    public var body: Never { fatalError("\(Self.self) is a primitive view; it has no body") }

    /// A primitive view makes its node itself.
    public func _makeNode(_ environment: EnvironmentValues) throws -> _ViewNode { _ViewNode(node: try makeNode(environment)) }
}

extension CustomDrawingView {
    /// A view drawn by another module: its drawing, whose own state (a map's open place card)
    /// lives with it as a view's does.
    public func _makeNode(_ environment: EnvironmentValues) throws -> _ViewNode {
        adoptState(persistentBoxes(self), of: Self.self, environment)
        return _ViewNode(node: CustomNode(drawing: try makeDrawing(environment)))
    }
}

/// Builds the node for any view: primitives directly, others through their body. Which kind a
/// view is, its conformance says (`View._makeNode`, chosen where the type conforms): asked at
/// run time instead (a cast of its type, then the view read through a pointer), every level of
/// a view tree copied the whole tree beneath it, and layout spent most of its time in the
/// runtime's value witnesses and conformance look-ups.
func makeNode<V: View>(_ view: V, _ environment: EnvironmentValues) throws -> Node {
    try view._makeNode(environment).node
}

/// A custom view's body, at the environment's time: changes after that time have not happened
/// yet; the latest one before it, if still animating, is built twice (see Animation.swift).
func makeAnimatedBody<V: View>(_ view: V, _ environment: EnvironmentValues) throws -> Node {
    // Made in a body, the view takes the state it had at the last build (Identity.swift); its
    // `@Environment` properties read the environment it is built in (EnvironmentReader.swift).
    let (boxes, readers) = reflectedProperties(view)
    if !readers.isEmpty {
        let kept = environment.keptForHandlers
        for reader in readers { reader.environment = kept }
    }
    return try makeAnimatedBody(view, boxes, environment)
}

private func makeAnimatedBody<V: View>(_ view: V, _ boxes: [PersistentBox], _ environment: EnvironmentValues) throws -> Node {
    adoptState(boxes, of: V.self, environment)
    let owner = boxes.first
    // Its `@State` boxes, from the same reflection, in declaration order.
    let all = boxes.compactMap { $0 as? StateChangeRecord }
    guard !all.isEmpty else { return try makeNode(view.body, environment.buildingBody(of: owner)) }
    // A stateful view keeps the triggers its body meets and its onAppear actions (Triggers.swift).
    var environment = environment
    var log: TriggerLog? = nil
    if environment.triggerProbe == nil {
        log = TriggerLog(parent: environment.triggerLog)
        environment.triggerLog = log
        environment.appearance = AppearanceScope(owner: all[0])
    }
    let records = all.filter { $0.lastChange != nil }
    let t = environment.time
    let future = records.filter { $0.lastChange!.time > t }
    future.forEach { $0.swapWithPrevious() }
    defer { future.forEach { $0.swapWithPrevious() } }
    let node = try makeChangedBody(view, records.filter { $0.lastChange!.time <= t }, environment, owner: owner)
    if let log {
        settleTriggers(log, records: records, time: t, environment: environment) { e in _ = try makeNode(view.body, e.buildingBody(of: owner)) }
    }
    return node
}

/// The body of a view whose state changed at or before the time drawn (`past`): the latest
/// change, if still animating, is built twice (see Animation.swift).
private func makeChangedBody<V: View>(_ view: V, _ past: [StateChangeRecord], _ environment: EnvironmentValues,
                                      owner: PersistentBox?) throws -> Node {
    let t = environment.time
    let environment = environment.buildingBody(of: owner)
    // The latest change at or before t, and every state that changed with it.
    guard environment.animationPass == nil, let latest = past.map({ $0.lastChange!.time }).max() else {
        return try makeNode(view.body, environment)
    }
    let changed = past.filter { $0.lastChange!.time == latest }
    // Once its animations have come to rest the change needs one build (the same pixels: at
    // the ends of an animation the values are exactly the new ones).
    if changed.allSatisfy({ ($0.settledAfter ?? .infinity) <= t }) { return try makeNode(view.body, environment) }
    let animation = changed.compactMap { $0.lastChange!.animation }.first
    let pass = AnimationPass(changedAt: latest, time: t, animation: animation)
    var e = environment
    e.animationPass = pass
    changed.forEach { $0.swapWithPrevious() }
    _ = try? makeNode(view.body, e.buildingBody(of: owner))
    changed.forEach { $0.swapWithPrevious() }
    pass.recording = false
    let node = try makeNode(view.body, e.buildingBody(of: owner))
    for record in changed { record.settledAfter = pass.settledAfter }
    return node
}

/// The children a view contributes to a container (a tuple, group or ForEach gives several).
func makeChildren<V: View>(_ view: V, _ environment: EnvironmentValues) throws -> [Node] {
    let node = try makeNode(view, environment)
    if let list = node as? ListNode { return list.children }
    return [node]
}

@resultBuilder
public enum ViewBuilder {
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<repeat each Content> {
        TupleView(repeat each content)
    }
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildOptional<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<T: View, F: View>(first: T) -> ConditionalContent<T, F> { ConditionalContent(storage: .first(first)) }
    public static func buildEither<T: View, F: View>(second: F) -> ConditionalContent<T, F> { ConditionalContent(storage: .second(second)) }
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { AnyView(content) }
}

public struct EmptyView: View, PrimitiveView {
    public init() {}
    func makeNode(_ environment: EnvironmentValues) throws -> Node { ListNode(children: []) }
}

public struct TupleView<each Content: View>: View, PrimitiveView {
    /// The elements, kept behind one reference. A value whose stored property is a tuple of a
    /// pack asks the Swift runtime for that tuple's type at each copy and destroy of the value
    /// (a lock-free table lookup, each time): a tenth of laying out 10,000 markers went there, as
    /// view trees are copied into their modifiers, stacks and nodes. The reference is copied by
    /// a retain; the elements never change, so the view is still a value.
    final class Storage {
        let content: (repeat each Content)
        init(_ content: repeat each Content) { self.content = (repeat each content) }
    }
    let storage: Storage
    public init(_ content: repeat each Content) { storage = Storage(repeat each content) }

    func makeNode(_ environment: EnvironmentValues) throws -> Node {
        var children: [Node] = []
        // Each element passed where it is (iterating the pack copied every element's tree).
        func add<V: View>(_ view: V) throws { children += try makeChildren(view, environment) }
        repeat try add(each storage.content)
        return ListNode(children: children)
    }
}

/// A view builder's elements one by one (the buttons of an alert's actions, say).
protocol ViewElements {
    var elements: [any View] { get }
}

extension TupleView: ViewElements {
    var elements: [any View] {
        var out: [any View] = []
        for view in repeat each storage.content { out.append(view) }
        return out
    }
}

/// `view`'s elements: a tuple's, none for EmptyView, else the view itself.
func viewElements<V: View>(_ view: V) -> [any View] {
    if let tuple = view as? ViewElements { return tuple.elements }
    if view is EmptyView { return [] }
    return [view]
}

public struct ConditionalContent<TrueContent: View, FalseContent: View>: View, PrimitiveView {
    enum Storage {
        case first(TrueContent)
        case second(FalseContent)
    }
    let storage: Storage

    func makeNode(_ environment: EnvironmentValues) throws -> Node {
        switch storage {
        case .first(let view): ListNode(children: try makeChildren(view, environment))
        case .second(let view): ListNode(children: try makeChildren(view, environment))
        }
    }
}

extension Optional: View where Wrapped: View {
    public typealias Body = Never
}

extension Optional: PrimitiveView where Wrapped: View {
    func makeNode(_ environment: EnvironmentValues) throws -> Node {
        switch self {
        case .some(let view): ListNode(children: try TerrapinViews.makeChildren(view, environment))
        case .none: ListNode(children: [])
        }
    }
}

/// Several views as one, without a layout of their own.
public struct Group<Content: View>: View, PrimitiveView {
    let content: Content
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    func makeNode(_ environment: EnvironmentValues) throws -> Node { ListNode(children: try makeChildren(content, environment)) }
}

/// A type-erased view.
public struct AnyView: View, PrimitiveView {
    /// One reference to the wrapped view (an AnyView is a word: markers by the hundred
    /// thousand copy it).
    private let storage: AnyViewStorage
    public init<V: View>(_ view: V) { storage = AnyViewBox(view) }
    func makeNode(_ environment: EnvironmentValues) throws -> Node { try storage.makeNode(environment) }
    func describeContent(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] { try storage.describe(&notes) }
}

class AnyViewStorage {
    func makeNode(_ environment: EnvironmentValues) throws -> Node { fatalError("abstract") }
    func describe(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] { fatalError("abstract") }
}

final class AnyViewBox<V: View>: AnyViewStorage {
    let view: V
    init(_ view: V) { self.view = view }
    override func makeNode(_ environment: EnvironmentValues) throws -> Node { try TerrapinViews.makeNode(view, environment) }
    override func describe(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] { try ViewSpec.describeAll(view, &notes) }
}

/// Views (or map content) for each element of a collection or range.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {
    public let data: Data
    public let content: (Data.Element) -> Content
    let id: KeyPath<Data.Element, ID>

    public init(_ data: Data, id: KeyPath<Data.Element, ID>, elements content: @escaping (Data.Element) -> Content) {
        (self.data, self.content, self.id) = (data, content, id)
    }
}

extension ForEach: View, PrimitiveView where Content: View {
    public typealias Body = Never

    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.init(data, id: id, elements: content)
    }

    func makeNode(_ environment: EnvironmentValues) throws -> Node {
        var children: [Node] = []
        for element in data {
            var made = try makeChildren(content(element), environment)
            // Inside a Picker an option with no tag of its own is tagged with its id (as SwiftUI).
            if environment.tagsOptions, made.count == 1, !(made[0] is TagNode) { made[0] = TagNode(child: made[0], tag: AnyHashable(element[keyPath: id])) }
            children += made
        }
        return ListNode(children: children)
    }
}

extension ForEach where Content: View, Data.Element: Identifiable, ID == Data.Element.ID {
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.init(data, id: \.id, content: content)
    }
}

extension ForEach where Content: View, Data == Range<Int>, ID == Int {
    public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) {
        self.init(data, id: \.self, content: content)
    }
}
