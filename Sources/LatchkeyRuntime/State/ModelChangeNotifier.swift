import Observation

#if canImport(Combine)
    import Combine
#endif

/// The change notifications of a main-actor model that SwiftUI observes both ways: Combine's
/// `objectWillChange` (`@StateObject`, `@ObservedObject`, on every supported OS) and Observation (`@State`,
/// `@Bindable`, plain reads in a view's body, where the OS has it: iOS 17, macOS 14, tvOS 17, watchOS 10, and
/// everywhere on Linux).
///
/// A model keeps one notifier, calls ``access(_:keyPath:)`` in each observed property's getter and
/// ``update(_:keyPath:storage:to:)`` (or ``updateWithoutObservation(keyPath:storage:of:to:)`` where the OS has
/// no Observation) in its setter, conforms to `ObservableObject` with ``objectWillChange``, and to `Observable`
/// in an extension available where Observation is. ``AuthModel`` is one such model.
///
/// A change is announced once, before it happens, and only when the value differs: an assignment of the
/// current value notifies nobody.
@MainActor
public final class ModelChangeNotifier {
    #if canImport(Combine)
        private nonisolated let publisher = PublisherBox()

        /// The publisher that `ObservableObject` requires; it sends before every change.
        public nonisolated var objectWillChange: ObservableObjectPublisher { publisher.value }
    #endif

    /// Holds an `ObservationRegistrar` where Observation is available, `nil` before.
    private let observation: AnyObject?

    /// Called with the property's key path before every change (tests, and any glue without Combine).
    package var willChange: ((AnyKeyPath) -> Void)?

    /// Creates a notifier.
    public init() {
        if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, *) {
            observation = RegistrarBox()
        } else {
            observation = nil
        }
    }

    /// Records that an observed property was read, so that Observation tracks it.
    /// - Parameters:
    ///   - model: The model.
    ///   - keyPath: The property that was read.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
    public func access<Model: Observable, Member>(_ model: Model, keyPath: KeyPath<Model, Member>) {
        registrar?.access(model, keyPath: keyPath)
    }

    /// Sets a property's storage to `value` when it differs, announcing the change first (Combine) and around
    /// it (Observation).
    /// - Parameters:
    ///   - model: The model.
    ///   - keyPath: The observed property.
    ///   - storage: The stored property behind it.
    ///   - value: The new value.
    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
    public func update<Model: Observable, Member: Equatable>(
        _ model: Model, keyPath: KeyPath<Model, Member>, storage: ReferenceWritableKeyPath<Model, Member>,
        to value: Member
    ) {
        guard model[keyPath: storage] != value else { return }
        announce(keyPath)
        if let registrar {
            registrar.withMutation(of: model, keyPath: keyPath) { model[keyPath: storage] = value }
        } else {
            model[keyPath: storage] = value
        }
    }

    /// Sets a property's storage to `value` when it differs, announcing the change first (Combine): the setter
    /// where the OS has no Observation.
    /// - Parameters:
    ///   - keyPath: The observed property.
    ///   - storage: The stored property behind it.
    ///   - model: The model.
    ///   - value: The new value.
    public func updateWithoutObservation<Model: AnyObject, Member: Equatable>(
        keyPath: KeyPath<Model, Member>, storage: ReferenceWritableKeyPath<Model, Member>, of model: Model,
        to value: Member
    ) {
        guard model[keyPath: storage] != value else { return }
        announce(keyPath)
        model[keyPath: storage] = value
    }

    private func announce(_ keyPath: AnyKeyPath) {
        #if canImport(Combine)
            publisher.value.send()
        #endif
        willChange?(keyPath)
    }

    @available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
    private var registrar: ObservationRegistrar? {
        guard let observation else { return nil }
        return unsafeDowncast(observation, to: RegistrarBox.self).registrar
    }
}

/// The registrar in a box: a stored property cannot have a type newer than its class.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
private final class RegistrarBox {
    let registrar = ObservationRegistrar()
}

#if canImport(Combine)
    /// The Combine publisher, readable from any isolation as `ObservableObject` requires: the reference never
    /// changes, and `ObservableObjectPublisher` locks its own subscribers.
    private final class PublisherBox: @unchecked Sendable {
        let value = ObservableObjectPublisher()
    }
#endif
