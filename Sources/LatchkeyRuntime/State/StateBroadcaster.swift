import Synchronization

/// Holds the current ``AuthState`` and hands every change to any number of subscribers.
final class StateBroadcaster: Sendable {
    private struct Storage {
        var current: AuthState
        var subscribers: [Int: AsyncStream<AuthState>.Continuation] = [:]
        var nextID = 0
    }

    private let storage: Mutex<Storage>

    init(initial: AuthState) {
        storage = Mutex(Storage(current: initial))
    }

    /// The current state.
    var current: AuthState { storage.withLock { $0.current } }

    /// A stream that yields the current state first, then every change, until the subscriber stops.
    func updates() -> AsyncStream<AuthState> {
        let (stream, continuation) = AsyncStream.makeStream(of: AuthState.self, bufferingPolicy: .unbounded)
        let id = storage.withLock { storage in
            let id = storage.nextID
            storage.nextID += 1
            storage.subscribers[id] = continuation
            continuation.yield(storage.current)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.storage.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sets the state and tells every subscriber, unless it is unchanged.
    func publish(_ state: AuthState) {
        storage.withLock { storage in
            guard storage.current != state else { return }
            storage.current = state
            for continuation in storage.subscribers.values { continuation.yield(state) }
        }
    }

    deinit {
        storage.withLock { storage in
            for continuation in storage.subscribers.values { continuation.finish() }
        }
    }
}
