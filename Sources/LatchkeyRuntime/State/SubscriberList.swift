/// The subscribers of a broadcaster: the one mechanism under ``ValueBroadcaster`` (latest value, replayed) and
/// ``EventBroadcaster`` (events from now on). It is not locked itself: its owner keeps it inside its lock (`Locked`), so
/// that a subscription and a publication never interleave.
struct SubscriberList<Value: Sendable>: Sendable {
    private var continuations: [Int: AsyncStream<Value>.Continuation] = [:]
    private var nextID = 0

    /// Adds a subscriber.
    /// - Parameter continuation: The subscriber's stream.
    /// - Returns: Its identifier, for ``remove(_:)``.
    mutating func add(_ continuation: AsyncStream<Value>.Continuation) -> Int {
        let id = nextID
        nextID += 1
        continuations[id] = continuation
        return id
    }

    /// Removes a subscriber that stopped.
    /// - Parameter id: Its identifier.
    mutating func remove(_ id: Int) {
        continuations[id] = nil
    }

    /// Hands a value to every subscriber.
    /// - Parameter value: The value.
    func yield(_ value: Value) {
        for continuation in continuations.values { continuation.yield(value) }
    }

    /// Ends every subscriber's stream.
    func finish() {
        for continuation in continuations.values { continuation.finish() }
    }
}
