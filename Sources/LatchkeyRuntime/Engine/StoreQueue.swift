import Synchronization

/// Turn-taking for an ``AuthClient``'s store operations: one at a time, in the order they asked.
///
/// Kept on the actor. An operation that finds the queue idle runs at once in its caller's task (no task is
/// created, no hop); one that finds it busy waits for its ``StoreTurn``, which the operation before it grants
/// when it leaves.
struct StoreQueue {
    private var busy = false
    private var waiting: [StoreTurn] = []
    private var next = 0

    /// Takes the queue: `nil` when it was idle (go ahead), else the turn to wait for.
    mutating func enter() -> StoreTurn? {
        guard busy else {
            busy = true
            return nil
        }
        let turn = StoreTurn()
        waiting.append(turn)
        return turn
    }

    /// Leaves the queue, handing it to the first operation waiting, if any.
    mutating func leave() {
        guard next < waiting.count else {
            busy = false
            waiting.removeAll(keepingCapacity: true)
            next = 0
            return
        }
        let turn = waiting[next]
        next += 1
        turn.grant()
    }
}

/// One waiting operation's turn: granted once, whether before or after the operation started waiting.
final class StoreTurn: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, Never>?
        var granted = false
    }

    private let state = Mutex(State())

    /// Resumes `continuation` when the turn is granted (at once when it already was).
    func wait(with continuation: CheckedContinuation<Void, Never>) {
        let grantedAlready = state.withLock { state -> Bool in
            if state.granted { return true }
            state.continuation = continuation
            return false
        }
        if grantedAlready { continuation.resume() }
    }

    /// Grants the turn.
    func grant() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.granted = true
            return state.continuation.take()
        }
        continuation?.resume()
    }
}
