// Stand-in for SwiftUI: the view modifiers Latchkey's documentation and apps use. Apple declares them
// `nonisolated` (callable while building a body anywhere); each returns `some View`.

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension View {
    /// Adds a condition that controls whether users can interact with this view.
    nonisolated public func disabled(_ disabled: Bool) -> some View { _modified() }

    /// Sets the environment value of the specified key path to the given value.
    nonisolated public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View
    { _modified() }

    /// Supplies an observable object to a view's hierarchy.
    nonisolated public func environmentObject<T: ObservableObject>(_ object: T) -> some View { _modified() }

    /// Places an observable object in the view's environment.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    nonisolated public func environment<T: AnyObject & Observable>(_ object: T?) -> some View { _modified() }

    /// Adds an asynchronous task to perform before this view appears.
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    nonisolated public func task(
        priority: TaskPriority = .userInitiated, @_inheritActorContext _ action: @escaping @Sendable () async -> Void
    ) -> some View { _modified() }

    /// Adds a task to perform before this view appears or when a specified value changes.
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    nonisolated public func task<T: Equatable>(
        id value: T, priority: TaskPriority = .userInitiated,
        @_inheritActorContext _ action: @escaping @Sendable () async -> Void
    ) -> some View { _modified() }

    /// Registers a handler to invoke in response to a URL that your app receives.
    @available(macOS 11.0, iOS 14.0, tvOS 14.0, watchOS 7.0, *)
    nonisolated public func onOpenURL(perform action: @escaping (URL) -> Void) -> some View { _modified() }

    /// Adds an action to perform before this view appears.
    nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View { _modified() }

    /// Presents an alert when a given condition is true, using a localized string key for the title.
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    nonisolated public func alert<A: View>(
        _ titleKey: LocalizedStringKey, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A
    ) -> some View { _modified() }

    /// Presents an alert when a given condition is true, using a string variable as a title.
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    nonisolated public func alert<S: StringProtocol, A: View>(
        _ title: S, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A
    ) -> some View { _modified() }

    /// Presents an alert with a message when a given condition is true.
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    nonisolated public func alert<A: View, M: View>(
        _ titleKey: LocalizedStringKey, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A,
        @ViewBuilder message: () -> M
    ) -> some View { _modified() }

    /// Presents an alert with a message when a given condition is true, using a string variable as a title.
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
    nonisolated public func alert<S: StringProtocol, A: View, M: View>(
        _ title: S, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A, @ViewBuilder message: () -> M
    ) -> some View { _modified() }
}
