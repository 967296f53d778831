// `@Environment` and the rest of SwiftUI's Observation-era names: a view reads the environment it
// is built in (`@Environment(\.locale)`, `@Environment(\.dismiss)`), or a model an ancestor put
// there (`.environment(model)` with `@Environment(Model.self)`); `@Bindable` makes bindings to an
// `@Observable` model's properties. As with `ObservableObject`, every render builds the bodies
// anew, so what a handler changes in a model is what the next render draws (a change to a model
// is not animated: only `@State` changes record their time).
import Foundation
import Observation

/// The environment a view was last built in, for its `@Environment` properties: set before its
/// body is built, so that the body and the handlers it makes (run later, at a tap) read it.
final class EnvironmentBox: @unchecked Sendable {
    private let lock = NSLock()
    private var values: EnvironmentValues?

    var environment: EnvironmentValues? {
        get { lock.lock(); defer { lock.unlock() }; return values }
        set { lock.lock(); values = newValue; lock.unlock() }
    }
}

/// A property that reads the environment its view is built in (`@Environment`).
protocol EnvironmentReading {
    var environmentBox: EnvironmentBox { get }
}

/// A value of the environment the view is built in (SwiftUI's `@Environment`): by key path
/// (`@Environment(\.locale) var locale`), or an `@Observable` model an ancestor put there with
/// `.environment(model)` (`@Environment(Trip.self) var trip`, or `Trip?` for one that may be
/// missing). It is the environment of the view's last build (a handler run at a tap reads that
/// one); before any, the default environment's.
@propertyWrapper
public struct Environment<Value>: EnvironmentReading {
    let read: (EnvironmentValues) -> Value
    let environmentBox = EnvironmentBox()

    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { read = { $0[keyPath: keyPath] } }

    /// As in SwiftUI, reading a model no ancestor provides stops the program with a message naming the type.
    public init(_ type: Value.Type) where Value: AnyObject & Observable {
        read = { environment in
            guard let object = environment.objects?.object(Value.self) else {
                fatalError("No Observable object of type \(Value.self) found. A View.environment(_:) for \(Value.self) may be missing as an ancestor of this view.")
            }
            return object
        }
    }

    public init<T: AnyObject & Observable>(_ type: T.Type) where Value == T? {
        read = { $0.objects?.object(T.self) }
    }

    public var wrappedValue: Value { read(environmentBox.environment ?? EnvironmentValues()) }
}

extension View {
    /// Puts an `@Observable` model in the environment of this view and its descendants, where
    /// `@Environment(ItsType.self)` finds it (nil puts nothing).
    public func environment<T: AnyObject & Observable>(_ object: T?) -> ModifiedView<Self> {
        modified(.unsupported("environment(\(T.self))"), environment: { e in
            if let object { e.objects = EnvironmentObjects(object, key: ObjectIdentifier(T.self), parent: e.objects) }
        })
    }
}

/// Bindings to the properties of an `@Observable` model (SwiftUI's `@Bindable`): `@Bindable var
/// trip: Trip` in a view, then `TextField("Name", text: $trip.name)`; or `Bindable(trip).name`.
@propertyWrapper
@dynamicMemberLookup
public struct Bindable<Value> {
    public var wrappedValue: Value

    public init(wrappedValue: Value) where Value: AnyObject & Observable { self.wrappedValue = wrappedValue }
    public init(_ wrappedValue: Value) where Value: AnyObject & Observable { self.wrappedValue = wrappedValue }
    public init(projectedValue: Bindable<Value>) { wrappedValue = projectedValue.wrappedValue }

    public var projectedValue: Bindable<Value> { self }

    public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Subject>) -> Binding<Subject> {
        let object = wrappedValue
        return Binding(get: { object[keyPath: keyPath] }, set: { object[keyPath: keyPath] = $0 })
    }
}

/// What `@Environment(\.dismiss)` gives: called, it pops the screen a navigation container
/// pushed last (elsewhere it does nothing, as a still has no sheet to close).
public struct DismissAction {
    let pop: (() -> Void)?
    public func callAsFunction() { pop?() }
}

/// Light or dark appearance (`@Environment(\.colorScheme)`): Terrapin draws the light one.
public enum ColorScheme: Hashable, Sendable, CaseIterable {
    case light, dark
}

/// Compact or regular width and height (`@Environment(\.horizontalSizeClass)`): nil, as for a
/// view drawn outside a window.
public enum UserInterfaceSizeClass: Hashable, Sendable {
    case compact, regular
}

extension EnvironmentValues {
    /// Pops the navigation container's top screen.
    public var dismiss: DismissAction { DismissAction(pop: navigation?.pop) }
    /// Always `.light`: the system colours Terrapin draws are the light appearance's.
    public var colorScheme: ColorScheme { .light }
    public var horizontalSizeClass: UserInterfaceSizeClass? { nil }
    public var verticalSizeClass: UserInterfaceSizeClass? { nil }
}
