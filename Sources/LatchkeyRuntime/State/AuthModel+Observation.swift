import Observation

#if canImport(Combine)
    import Combine
#endif

// The only platform-specific part of ``AuthModel``: how SwiftUI hears of its changes. The model's logic calls
// `observe` in each observed getter and `change` in each setter; `ModelChangeNotifier` does the rest.

@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
extension AuthModel: Observable {}

#if canImport(Combine)
    extension AuthModel: ObservableObject {
        /// Sends before every change of ``state``, ``isSigningIn`` or ``lastError``.
        public nonisolated var objectWillChange: ObservableObjectPublisher { notifier.objectWillChange }
    }
#endif

extension AuthModel {
    /// Tells Observation, where the OS has it, that a property was read.
    func observe<Member>(_ keyPath: KeyPath<AuthModel, Member>) {
        if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, *) {
            notifier.access(self, keyPath: keyPath)
        }
    }

    /// Sets a property's storage when the value differs, announcing the change.
    func change<Member: Equatable>(
        _ keyPath: KeyPath<AuthModel, Member>, _ storage: ReferenceWritableKeyPath<AuthModel, Member>,
        to value: Member
    ) {
        if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, *) {
            notifier.update(self, keyPath: keyPath, storage: storage, to: value)
        } else {
            notifier.updateWithoutObservation(keyPath: keyPath, storage: storage, of: self, to: value)
        }
    }
}
