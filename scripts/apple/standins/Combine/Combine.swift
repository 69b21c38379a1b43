// Stand-in for Combine: what `ObservableObject` models need (iOS 13, macOS 10.15). Publisher is declared with
// its associated types only (no subscription machinery).

/// Declares that a type can transmit a sequence of values over time.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Publisher<Output, Failure> {
    associatedtype Output
    associatedtype Failure: Error
}

/// A publisher that publishes changes from observable objects.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
final public class ObservableObjectPublisher: Publisher {
    public typealias Output = Void
    public typealias Failure = Never
    /// Creates an observable object publisher.
    public init() {}
    /// Sends the changed value to the downstream subscriber.
    final public func send() { fatalError("stand-in") }
}

/// A type of object with a publisher that emits before the object has changed.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol ObservableObject: AnyObject {
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never
    /// A publisher that emits before the object has changed.
    var objectWillChange: ObjectWillChangePublisher { get }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// A publisher that emits before the object has changed.
    public var objectWillChange: ObservableObjectPublisher { fatalError("stand-in") }
}

/// A type that publishes a property marked with an attribute.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
@propertyWrapper
public struct Published<Value> {
    /// Creates the published instance with an initial wrapped value.
    public init(wrappedValue: Value) { fatalError("stand-in") }
    /// Creates the published instance with an initial value.
    public init(initialValue: Value) { fatalError("stand-in") }

    /// A publisher for properties marked with the `@Published` attribute.
    public struct Publisher: Combine.Publisher {
        public typealias Output = Value
        public typealias Failure = Never
    }

    /// The property for which this instance exposes a publisher.
    public var projectedValue: Published<Value>.Publisher {
        mutating get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }

    /// Only a class's property can be published: the value is reached through the enclosing instance.
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }

    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf, wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}
