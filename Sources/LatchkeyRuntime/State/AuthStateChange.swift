import LatchkeyPlatform

/// One change of a client's authentication, with the session after it: supabase-swift's `(event, session)` of
/// `onAuthStateChange` and `authStateChanges`.
public struct AuthStateChange: Sendable, Hashable {
    /// What happened: ``AuthEvent/initialSession``, ``AuthEvent/signedIn``, ``AuthEvent/signedOut``,
    /// ``AuthEvent/tokenRefreshed``, or one of the client's events (``AuthEvent/userUpdated``,
    /// ``AuthEvent/passwordRecovery``, ``AuthEvent/userDeleted``, …).
    public var event: AuthEvent
    /// The session after the change; `nil` when nobody is signed in.
    ///
    /// - Important: Its tokens are secrets, as those of `observeTokens()`.
    public var session: Session?

    /// Creates a change.
    /// - Parameters:
    ///   - event: What happened.
    ///   - session: The session after it.
    public init(event: AuthEvent, session: Session?) {
        self.event = event
        self.session = session
    }
}

extension AuthEvent {
    /// The first change a subscriber gets, once the stored session was read: the session then, or `nil`.
    public static let initialSession = AuthEvent("initial_session")
    /// A session began (a sign-in of any kind, or another user's session replaced the current one).
    public static let signedIn = AuthEvent("signed_in")
    /// The session ended (a sign-out, or the provider ended it).
    public static let signedOut = AuthEvent("signed_out")
    /// The same user's tokens were refreshed.
    public static let tokenRefreshed = AuthEvent("token_refreshed")
}

/// Turns the client's token changes and events into ``AuthStateChange``s, in the order they happen: both are
/// handed over synchronously where the client publishes them.
final class ChangeBroadcaster: Sendable {
    private struct Storage {
        var session: Session?
        var settled = false
        var subscribers = SubscriberList<AuthStateChange>()
    }

    private let storage = Locked(Storage())

    /// The changes from now on: ``AuthEvent/initialSession`` first (once the stored session was read), then
    /// every change, until the subscriber stops.
    func updates() -> AsyncStream<AuthStateChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: AuthStateChange.self, bufferingPolicy: .unbounded)
        let id = storage.withLock { storage in
            if storage.settled { continuation.yield(AuthStateChange(event: .initialSession, session: storage.session)) }
            return storage.subscribers.add(continuation)
        }
        continuation.onTermination = { [weak self] _ in
            self?.storage.withLock { $0.subscribers.remove(id) }
        }
        return stream
    }

    /// The session's tokens changed (or were read from the store, the first time).
    func tokens(_ session: Session?) {
        storage.withLock { storage in
            let previous = storage.session
            storage.session = session
            guard storage.settled else {
                storage.settled = true
                storage.subscribers.yield(AuthStateChange(event: .initialSession, session: session))
                return
            }
            let event: AuthEvent?
            switch (previous, session) {
            case (nil, nil): event = nil
            case (nil, .some): event = .signedIn
            case (.some, nil): event = .signedOut
            case (.some(let old), .some(let new)):
                if old.user?.id != new.user?.id {
                    event = .signedIn
                } else {
                    event = old.accessToken == new.accessToken ? nil : .tokenRefreshed
                }
            }
            if let event { storage.subscribers.yield(AuthStateChange(event: event, session: session)) }
        }
    }

    /// An event of ``AuthClient/events()`` happened.
    func event(_ event: AuthEvent) {
        storage.withLock { storage in
            storage.subscribers.yield(AuthStateChange(event: event, session: storage.session))
        }
    }

    deinit {
        storage.withLock { $0.subscribers.finish() }
    }
}

extension AuthClient {
    /// The changes of this client's authentication, each with the session after it (supabase-swift's
    /// `authStateChanges` and `onAuthStateChange`): ``AuthEvent/initialSession`` first, once the stored session
    /// was read (call ``restore()``; a client that signs in before it ever read the store reports that first
    /// session as the initial one), then ``AuthEvent/signedIn``, ``AuthEvent/signedOut``,
    /// ``AuthEvent/tokenRefreshed`` and every event of ``events()`` (``AuthEvent/userUpdated``,
    /// ``AuthEvent/passwordRecovery``, ``AuthEvent/userDeleted``), in the order they happen.
    ///
    /// ``stateUpdates()`` and ``observeTokens()`` stay as they are; this stream is the two together with the
    /// events, for code ported from supabase-swift.
    /// - Returns: A stream that ends when the subscriber stops iterating or the client goes away.
    public nonisolated func authStateChanges() -> AsyncStream<AuthStateChange> {
        changeBroadcaster.updates()
    }
}
