// SwiftUI's observation family for reference-typed models, as a Linux app around a map needs
// it: a data loader (`ObservableObject` with `@Published` properties) made once by a view
// (`@StateObject`), passed down (`@ObservedObject`) or through the environment
// (`.environmentObject(_:)` and `@EnvironmentObject`). Views read the model when their body is
// built, so a change a handler makes (a tap, `onAppear`, a task) is what the next render draws:
// every render builds the bodies anew. There is no Combine on Linux: `objectWillChange` and a
// `@Published` property's publisher exist so code that names them compiles; nothing subscribes.
// (`@Observable` classes from the toolchain's Observation module work as they are: hold them in
// `@State`, or pass them down.)

/// A class whose changes views draw (SwiftUI's `ObservableObject`).
public protocol ObservableObject: AnyObject {
    var objectWillChange: ObservableObjectPublisher { get }
}

extension ObservableObject {
    public var objectWillChange: ObservableObjectPublisher { ObservableObjectPublisher() }
}

/// What `objectWillChange` gives: `send()` is accepted (the next render draws the change).
public final class ObservableObjectPublisher: Sendable {
    public init() {}
    public func send() {}
}

/// A property of an `ObservableObject` that views draw (SwiftUI's `@Published`).
@propertyWrapper
public struct Published<Value> {
    var value: Value
    public init(wrappedValue: Value) { value = wrappedValue }
    public init(initialValue: Value) { value = initialValue }

    /// A change made while a view is built (in `onAppear`, say) builds it again, as a `@State`
    /// change does; setting the value it has is no change (onAppear runs at every build).
    public var wrappedValue: Value {
        get { value }
        set {
            if isSameValue(value, newValue) { return }
            value = newValue
            Transaction.changes?.count += 1
        }
    }

    /// `$property`: the current value (Combine's publisher, which Linux lacks, would stream it).
    public var projectedValue: Publisher { Publisher(output: wrappedValue) }

    public struct Publisher {
        public let output: Value
    }
}

/// A model a view makes once and keeps for the life of the view value (SwiftUI's `@StateObject`):
/// made on first use, from the initial expression, and kept with the view like `@State`.
@propertyWrapper
public struct StateObject<ObjectType: ObservableObject>: PersistentProperty {
    final class Box: PersistentBox {
        var object: ObjectType?
        let make: () -> ObjectType
        var nested: NestedStates?
        init(_ make: @escaping () -> ObjectType) { self.make = make }

        /// The model made at an earlier build is kept (a view made in a body makes it once).
        func adopt(_ other: AnyObject) {
            guard let other = other as? Box else { return }
            object = other.object ?? object
            nested = other.nested
        }
    }
    let box: Box
    var persistentBox: PersistentBox { box }

    public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) { box = Box(thunk) }

    public var wrappedValue: ObjectType {
        if let object = box.object { return object }
        let made = box.make()
        box.object = made
        return made
    }

    /// `$model.property`: a binding to a property of the model.
    public var projectedValue: ObservedObject<ObjectType>.Wrapper { ObservedObject<ObjectType>.Wrapper(object: wrappedValue) }
}

/// A model a view is given (SwiftUI's `@ObservedObject`).
@propertyWrapper
public struct ObservedObject<ObjectType: ObservableObject> {
    /// Bindings to the model's properties: `$model.selection`.
    @dynamicMemberLookup
    public struct Wrapper {
        let object: ObjectType
        public subscript<T>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, T>) -> Binding<T> {
            let object = self.object
            return Binding(get: { object[keyPath: keyPath] }, set: { object[keyPath: keyPath] = $0 })
        }
    }

    public var wrappedValue: ObjectType
    public init(wrappedValue: ObjectType) { self.wrappedValue = wrappedValue }
    public init(initialValue: ObjectType) { self.wrappedValue = initialValue }
    public var projectedValue: Wrapper { Wrapper(object: wrappedValue) }
}

/// A model an ancestor put in the environment with `.environmentObject(_:)` (SwiftUI's
/// `@EnvironmentObject`), found by its type when the view's body is built. As in SwiftUI, reading
/// one no ancestor provides stops the program with a message naming the type.
@propertyWrapper
public struct EnvironmentObject<ObjectType: ObservableObject> {
    public init() {}

    public var wrappedValue: ObjectType {
        guard let object = EnvironmentObjects.current?.object(ObjectType.self) else {
            fatalError("No ObservableObject of type \(ObjectType.self) found. A View.environmentObject(_:) for \(ObjectType.self) may be missing as an ancestor of this view.")
        }
        return object
    }

    public var projectedValue: ObservedObject<ObjectType>.Wrapper { ObservedObject<ObjectType>.Wrapper(object: wrappedValue) }
}

/// The models the environment holds, innermost first (immutable: a modifier adds a link).
final class EnvironmentObjects: @unchecked Sendable {
    let key: ObjectIdentifier
    let value: AnyObject
    let parent: EnvironmentObjects?

    init(_ value: AnyObject, key: ObjectIdentifier, parent: EnvironmentObjects?) {
        (self.value, self.key, self.parent) = (value, key, parent)
    }

    func object<T>(_ type: T.Type) -> T? {
        var link: EnvironmentObjects? = self
        while let l = link {
            if l.key == ObjectIdentifier(type) { return l.value as? T }
            link = l.parent
        }
        return nil
    }

    /// The models of the view whose body is being built.
    @TaskLocal static var current: EnvironmentObjects?
}

extension View {
    /// Puts `object` in the environment of this view and its descendants, where
    /// `@EnvironmentObject var name: ItsType` finds it.
    public func environmentObject<T: ObservableObject>(_ object: T) -> ModifiedView<Self> {
        modified(.unsupported("environmentObject(\(T.self))"), environment: { $0.objects = EnvironmentObjects(object, key: ObjectIdentifier(T.self), parent: $0.objects) })
    }
}
