import LatchkeyPlatform

/// A value one task settles once and any number of others await, each resumed on its own executor.
///
/// An actor that awaits `Task.value` leaves the actor first (`value` is a nonisolated function) and is
/// resumed on the global executor when the task ends: on Linux each is a thread wake-up, on every store
/// operation and refresh (measured with `perf stat -e context-switches` on the bench's engine-alone rows).
/// A waiter here suspends where it is, on its actor, and is resumed there.
final class SettledOnce<Value: Sendable>: Sendable {
    private enum State {
        case pending([CheckedContinuation<Value, Never>])
        case settled(Value)
    }

    private let state = Locked(State.pending([]))

    /// Creates an unsettled value.
    init() {}

    /// Settles the value and resumes every waiter. Settle once.
    /// - Parameter value: The value.
    func settle(_ value: Value) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, Never>] in
            guard case .pending(let waiters) = state else { preconditionFailure("a value is settled once") }
            state = .settled(value)
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    /// The value, once settled; waits without leaving the caller's actor.
    /// - Parameter isolation: The caller's actor (inferred).
    /// - Returns: The value.
    func value(isolation: isolated (any Actor)? = #isolation) async -> Value {
        if let settled = settledValue { return settled }
        return await withCheckedContinuation(isolation: isolation) { continuation in
            let settled = state.withLock { state -> Value? in
                switch state {
                case .settled(let value):
                    return value
                case .pending(var waiters):
                    state = .pending([])  // one copy of the array, not two
                    waiters.append(continuation)
                    state = .pending(waiters)
                    return nil
                }
            }
            if let settled { continuation.resume(returning: settled) }
        }
    }

    /// The value when already settled, else `nil`.
    private var settledValue: Value? {
        state.withLock { state in
            if case .settled(let value) = state { return value }
            return nil
        }
    }
}
