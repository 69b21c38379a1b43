import LatchkeyPlatform

/// A value that changes, and tasks that wait, without polling, until it satisfies a condition: the one waiting
/// mechanism of the test support (``ManualClock``'s sleepers, the test fixtures' gates and counters).
///
/// A wait returns at once when the condition already holds, or when the waiting task is cancelled (a test's
/// `.timeLimit`), so a test that never sees the change fails instead of hanging.
package final class Watched<Value: Sendable>: Sendable {
    private struct Waiter {
        var id: Int
        var condition: @Sendable (Value) -> Bool
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var value: Value
        var waiters: [Waiter] = []
        var nextID = 0
        var cancelledBeforeWaiting: Set<Int> = []
    }

    private let state: Locked<State>

    /// Creates the value.
    /// - Parameter value: Its first value.
    package init(_ value: Value) { state = Locked(State(value: value)) }

    /// The value now.
    package var value: Value { state.withLock { $0.value } }

    /// Changes the value and resumes every waiter whose condition it now satisfies.
    /// - Returns: What `change` returns.
    @discardableResult
    package func update<Result: Sendable>(_ change: (inout Value) -> Result) -> Result {
        let (result, due) = state.withLock { state -> (Result, [CheckedContinuation<Void, Never>]) in
            let result = change(&state.value)
            let value = state.value
            var due: [CheckedContinuation<Void, Never>] = []
            state.waiters.removeAll { waiter in
                guard waiter.condition(value) else { return false }
                due.append(waiter.continuation)
                return true
            }
            return (result, due)
        }
        for continuation in due { continuation.resume() }
        return result
    }

    /// Waits until the value satisfies `condition` (or the task is cancelled), and returns the value then.
    @discardableResult
    package func wait(until condition: @escaping @Sendable (Value) -> Bool) async -> Value {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if condition(state.value) || state.cancelledBeforeWaiting.remove(id) != nil { return true }
                    state.waiters.append(Waiter(id: id, condition: condition, continuation: continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelledBeforeWaiting.insert(id)
                    return nil
                }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume()
        }
        return value
    }
}
