import LatchkeyPlatform

/// Something that happened to the session besides a change of ``AuthState``, such as a password-recovery
/// link that signed the user in (the app should now ask for a new password).
///
/// Events are named by the descriptor (`callback.implicit.events`, an action's `pkce.event`); they carry no
/// token.
public struct AuthEvent: Sendable, Hashable, CustomStringConvertible {
    /// The event's stable name, lower_snake_case (`password_recovery`).
    public var name: String

    /// Creates an event.
    /// - Parameter name: Its stable name.
    public init(_ name: String) {
        self.name = name
    }

    /// A password-recovery link signed the user in: ask for a new password.
    public static let passwordRecovery = AuthEvent("password_recovery")

    /// An action changed the signed-in user (Supabase's `updateUser`, a linked identity).
    public static let userUpdated = AuthEvent("user_updated")

    /// The provider says the signed-in user no longer exists (GoTrue's `user_not_found`); the session was
    /// forgotten.
    public static let userDeleted = AuthEvent("user_deleted")

    /// The name.
    public var description: String { name }
}

/// Hands every event to the subscribers present when it happens.
final class EventBroadcaster: Sendable {
    private let subscribers = Locked(SubscriberList<AuthEvent>())
    /// The ``AuthClient/authStateChanges()`` stream, which gets every event too.
    let changes = ChangeBroadcaster()

    /// A stream of the events from now on, until the subscriber stops.
    func updates() -> AsyncStream<AuthEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: AuthEvent.self, bufferingPolicy: .unbounded)
        let id = subscribers.withLock { $0.add(continuation) }
        continuation.onTermination = { [weak self] _ in
            self?.subscribers.withLock { $0.remove(id) }
        }
        return stream
    }

    /// Tells every subscriber.
    func publish(_ event: AuthEvent) {
        subscribers.withLock { $0.yield(event) }
        changes.event(event)
    }

    deinit {
        subscribers.withLock { $0.finish() }
    }
}

extension AuthClient {
    /// The events from now on (``AuthEvent/passwordRecovery`` after a recovery link), until the caller stops.
    /// - Returns: A stream that never replays earlier events.
    public nonisolated func events() -> AsyncStream<AuthEvent> {
        eventBroadcaster.updates()
    }
}
