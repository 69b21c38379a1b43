import Observation

/// The authentication state for SwiftUI (or any Observation user), kept on the main actor.
///
/// The model follows ``AuthClient/stateUpdates()`` for as long as it lives.
@MainActor
@Observable
public final class AuthModel {
    /// The current state.
    public private(set) var state: AuthState

    @ObservationIgnored private let subscription: Subscription

    /// Creates a model that mirrors a client's state.
    /// - Parameter client: The client.
    public init(client: AuthClient) {
        state = client.state
        subscription = Subscription()
        let updates = client.stateUpdates()
        subscription.task = Task { @MainActor [weak self] in
            for await state in updates {
                guard let self else { return }
                self.state = state
            }
        }
    }

    /// The signed-in user, if any.
    public var user: User? { state.user }

    /// Whether someone is signed in.
    public var isSignedIn: Bool { state.isSignedIn }

    /// Cancels the task that follows the stream when the model goes away.
    private final class Subscription {
        var task: Task<Void, Never>?
        deinit { task?.cancel() }
    }
}
