import Synchronization

/// A value that changes, and tasks that wait, without polling, until it satisfies a condition.
///
/// A wait returns at once when the condition already holds, or when the waiting task is cancelled (a test's
/// `.timeLimit`), so a test that never sees the change fails instead of hanging.
final class Watched<Value: Sendable>: Sendable {
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

    private let state: Mutex<State>

    init(_ value: Value) { state = Mutex(State(value: value)) }

    /// The value now.
    var value: Value { state.withLock { $0.value } }

    /// Changes the value and resumes every waiter whose condition it now satisfies.
    /// - Returns: What `change` returns.
    @discardableResult
    func update<Result: Sendable>(_ change: (inout Value) -> Result) -> Result {
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
    func wait(until condition: @escaping @Sendable (Value) -> Bool) async -> Value {
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

/// A flag one task raises and others wait for, without polling.
final class Gate: Sendable {
    private let open = Watched(false)

    /// Whether it has been raised.
    var isRaised: Bool { open.value }

    func raise() { open.update { $0 = true } }

    /// Returns once the flag is raised (at once when it is), or when the waiting task is cancelled.
    func wait() async { await open.wait { $0 } }
}

/// Runs two waits and returns when the first ends, cancelling the other: `true` when it was `one`.
func firstOf(
    _ one: @escaping @Sendable () async -> Void, _ other: @escaping @Sendable () async -> Void
) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
        group.addTask {
            await one()
            return true
        }
        group.addTask {
            await other()
            return false
        }
        let winner = await group.next() ?? false
        group.cancelAll()
        return winner
    }
}
