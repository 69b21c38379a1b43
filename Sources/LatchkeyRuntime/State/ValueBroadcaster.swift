import LatchkeyPlatform

/// Holds the latest value of something that changes (the ``AuthState``, the session's tokens) and hands every
/// change to any number of subscribers, in the order of the changes.
///
/// A value equal to the current one is dropped. Until the first ``publish(_:)`` a broadcaster made with
/// `settled: false` has nothing to replay: a new subscriber then waits for the first real value.
final class ValueBroadcaster<Value: Sendable & Equatable>: Sendable {
    private struct Storage {
        var current: Value
        var settled: Bool
        var subscribers = SubscriberList<Value>()
    }

    private let storage: Locked<Storage>
    private let bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy

    /// Creates a broadcaster.
    /// - Parameters:
    ///   - initial: The current value.
    ///   - settled: Whether `initial` is a real value that new subscribers get first (`false`: a placeholder).
    ///   - bufferingPolicy: What a subscriber that reads slowly keeps (`.bufferingNewest(1)`: only the latest).
    init(
        initial: Value, settled: Bool = true,
        bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .unbounded
    ) {
        storage = Locked(Storage(current: initial, settled: settled))
        self.bufferingPolicy = bufferingPolicy
    }

    /// The current value.
    var current: Value { storage.withLock { $0.current } }

    /// A stream that yields the current value first (once settled), then every change, until the subscriber stops.
    func updates() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: bufferingPolicy)
        let id = storage.withLock { storage in
            if storage.settled { continuation.yield(storage.current) }
            return storage.subscribers.add(continuation)
        }
        continuation.onTermination = { [weak self] _ in
            self?.storage.withLock { $0.subscribers.remove(id) }
        }
        return stream
    }

    /// Sets the value and tells every subscriber, unless it is unchanged.
    func publish(_ value: Value) {
        storage.withLock { storage in
            guard !storage.settled || storage.current != value else { return }
            storage.current = value
            storage.settled = true
            storage.subscribers.yield(value)
        }
    }

    deinit {
        storage.withLock { $0.subscribers.finish() }
    }
}

/// The broadcaster of a client's ``AuthState``.
typealias StateBroadcaster = ValueBroadcaster<AuthState>
