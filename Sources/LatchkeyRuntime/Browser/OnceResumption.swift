import LatchkeyPlatform

/// A result that is delivered exactly once, to exactly one waiter, whichever of several racing paths
/// delivers first.
///
/// An authentication sheet can report its outcome more than once (a completion handler after `start()`
/// returned `false`, a handler that fires twice, a cancellation racing the handler): resuming a continuation
/// twice is a crash ("SWIFT TASK CONTINUATION MISUSE"). Every path calls ``resolve(_:)``; the first one wins,
/// later ones are ignored. A value resolved before anyone waits is kept for ``value()``.
package final class OnceResumption<Value: Sendable>: Sendable {
    private enum State {
        case idle
        case waiting(CheckedContinuation<Value, Never>)
        case resolved(Value)
        case delivered
    }

    private let state = Locked(State.idle)

    /// Creates an unresolved box.
    package init() {}

    /// Whether a value has been resolved (delivered or not).
    package var isResolved: Bool {
        state.withLock { state in
            switch state {
            case .idle, .waiting: false
            case .resolved, .delivered: true
            }
        }
    }

    /// Delivers `value` unless a value was delivered already.
    /// - Parameter value: The outcome.
    /// - Returns: `true` when this call resolved the box, `false` when an earlier call had.
    @discardableResult
    package func resolve(_ value: Value) -> Bool {
        let (won, waiter): (Bool, CheckedContinuation<Value, Never>?) = state.withLock { state in
            switch state {
            case .idle:
                state = .resolved(value)
                return (true, nil)
            case .waiting(let continuation):
                state = .delivered
                return (true, continuation)
            case .resolved, .delivered:
                return (false, nil)
            }
        }
        waiter?.resume(returning: value)
        return won
    }

    /// Waits for the value; call it once.
    /// - Returns: The value of the first ``resolve(_:)``.
    package func value() async -> Value {
        await withCheckedContinuation { continuation in
            let ready: Value? = state.withLock { state in
                switch state {
                case .idle:
                    state = .waiting(continuation)
                    return nil
                case .resolved(let value):
                    state = .delivered
                    return value
                case .waiting, .delivered:
                    preconditionFailure("OnceResumption.value() awaited twice")
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
