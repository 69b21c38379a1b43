// Stand-in for SwiftUI: the environment and the property wrappers that hold a view's data.

/// An interface for a stored variable that updates an external property of a view.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol DynamicProperty {}

/// A key for accessing values in the environment.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol EnvironmentKey {
    associatedtype Value
    static var defaultValue: Self.Value { get }
}

/// A collection of environment values propagated through a view hierarchy.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct EnvironmentValues: CustomStringConvertible {
    public init() {}
    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    public var description: String { fatalError("stand-in") }
}

/// A property wrapper that reads a value from a view's environment.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@frozen @propertyWrapper
public struct Environment<Value>: DynamicProperty {
    /// Creates an environment property to read the specified key path.
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
    /// The current value of the environment property.
    public var wrappedValue: Value { fatalError("stand-in") }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension Environment where Value: AnyObject & Observable {
    /// Creates an environment property to read an observable object from the environment.
    public init(_ objectType: Value.Type) {}
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension Environment {
    /// Creates an environment property to read an observable object from the environment, returning nil if no
    /// corresponding object has been set in the current view's environment.
    public init<T: AnyObject & Observable>(_ objectType: T.Type) where Value == T? {}
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Environment: Sendable where Value: Sendable {}

/// A property wrapper type that can read and write a value that SwiftUI manages.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@frozen @propertyWrapper
public struct State<Value>: DynamicProperty {
    public init(wrappedValue value: Value) {}
    public init(initialValue value: Value) {}
    public var wrappedValue: Value {
        get { fatalError("stand-in") }
        nonmutating set { fatalError("stand-in") }
    }
    public var projectedValue: Binding<Value> { fatalError("stand-in") }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension State where Value: ExpressibleByNilLiteral {
    public init() {}
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension State: Sendable where Value: Sendable {}

/// A property wrapper type that can read and write a value owned by a source of truth.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@frozen @propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) { fatalError("stand-in") }
    public static func constant(_ value: Value) -> Binding<Value> { fatalError("stand-in") }
    public var wrappedValue: Value {
        get { fatalError("stand-in") }
        nonmutating set { fatalError("stand-in") }
    }
    public var projectedValue: Binding<Value> { self }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        fatalError("stand-in")
    }
}

/// A property wrapper type that instantiates an observable object.
@available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
@MainActor @preconcurrency @frozen @propertyWrapper
public struct StateObject<ObjectType: ObservableObject>: DynamicProperty {
    public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) {}
    public var wrappedValue: ObjectType { fatalError("stand-in") }
    public var projectedValue: ObservedObject<ObjectType>.Wrapper { fatalError("stand-in") }
}

/// A property wrapper type that subscribes to an observable object and invalidates a view whenever the
/// observable object changes.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@MainActor @preconcurrency @frozen @propertyWrapper
public struct ObservedObject<ObjectType: ObservableObject>: DynamicProperty {
    /// A wrapper of the underlying observable object that can create bindings to its properties.
    @dynamicMemberLookup @frozen
    public struct Wrapper {
        public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>)
            -> Binding<Subject>
        { fatalError("stand-in") }
    }

    public init(wrappedValue: ObjectType) {}
    public init(initialValue: ObjectType) {}
    public var wrappedValue: ObjectType { fatalError("stand-in") }
    public var projectedValue: ObservedObject<ObjectType>.Wrapper { fatalError("stand-in") }
}

/// A property wrapper type for an observable object that a parent or ancestor view supplies.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@MainActor @preconcurrency @frozen @propertyWrapper
public struct EnvironmentObject<ObjectType: ObservableObject>: DynamicProperty {
    public init() {}
    public var wrappedValue: ObjectType { fatalError("stand-in") }
    public var projectedValue: EnvironmentObject<ObjectType>.Wrapper { fatalError("stand-in") }

    /// A wrapper of the underlying environment object that can create bindings to its properties.
    @dynamicMemberLookup @frozen
    public struct Wrapper {
        public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>)
            -> Binding<Subject>
        { fatalError("stand-in") }
    }
}

/// A property wrapper type that supports creating bindings to the mutable properties of observable objects.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@dynamicMemberLookup @propertyWrapper
public struct Bindable<Value> {
    @usableFromInline var _object: Value
    public var wrappedValue: Value {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
    public var projectedValue: Bindable<Value> { self }
    public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Subject>) -> Binding<Subject>
    where Value: AnyObject { fatalError("stand-in") }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension Bindable where Value: AnyObject & Observable {
    public init(wrappedValue: Value) { fatalError("stand-in") }
    public init(_ wrappedValue: Value) { fatalError("stand-in") }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension Bindable: Sendable where Value: Sendable {}
