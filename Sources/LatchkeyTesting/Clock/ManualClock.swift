import Foundation
@_spi(Generated) import LatchkeyRuntime
import Synchronization

/// A clock that moves only when a test says so: ``advance(by:)`` moves its time and resumes, in deadline order,
/// every sleeper whose deadline it reached.
///
/// Pass it as ``AuthClientOptions/clock`` (or to ``FileSessionStore/init(directory:refreshLockTimeout:clock:)``)
/// and nothing the runtime times (the automatic refresh's checks, refresh-lock polling, device-flow polls) waits
/// on real time. ``sleepers(atLeast:)`` waits, without polling, until that many tasks sleep on the clock, so a
/// test knows a timed loop has come back to its next sleep.
public final class ManualClock: LatchkeyClock, Sendable {
    private struct Sleeper {
        var deadline: Date
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var sleepers: [Int: Sleeper] = [:]
        var cancelledBeforeSleeping: Set<Int> = []
        var nextID = 0
        var watchers: [(id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Mutex<State>

    /// Creates a clock.
    /// - Parameter start: Its time at first (default 2027-01-15T08:00:00Z, a fixed instant).
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        state = Mutex(State(now: start))
    }

    /// The clock's time.
    public var now: Date { state.withLock { $0.now } }

    /// How many tasks sleep on the clock right now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until ``advance(by:)`` moves the clock to `deadline` (at once when it is there already).
    /// - Parameter deadline: The instant.
    /// - Throws: `CancellationError` when the sleeping task is cancelled.
    public func sleep(until deadline: Date) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome { case sleeping, due, cancelled }
                let (outcome, watchers) = state.withLock { state -> (Outcome, [CheckedContinuation<Void, Never>]) in
                    if state.cancelledBeforeSleeping.remove(id) != nil { return (.cancelled, []) }
                    if deadline <= state.now { return (.due, []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (.sleeping, Self.satisfiedWatchers(&state))
                }
                for watcher in watchers { watcher.resume() }
                switch outcome {
                case .sleeping: break
                case .due: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelledBeforeSleeping.insert(id)
                    return nil
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock and resumes every sleeper whose deadline it reached, earliest deadline first.
    /// - Parameter duration: How far; a negative duration sets the clock back (a wall-clock correction), which
    ///   resumes nobody.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now.addingTimeInterval(Self.seconds(duration))
            let now = state.now
            let dueIDs = state.sleepers.filter { $0.value.deadline <= now }
                .sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }.map(\.key)
            return dueIDs.compactMap { state.sleepers.removeValue(forKey: $0) }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns once at least `count` tasks sleep on the clock (at once when they already do), or when the
    /// waiting task is cancelled (a test's time limit).
    /// - Parameter count: How many sleepers to wait for.
    public func sleepers(atLeast count: Int) async {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.sleepers.count >= count || state.cancelledBeforeSleeping.remove(id) != nil {
                        return true
                    }
                    state.watchers.append((id, count, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let watcher = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.watchers.firstIndex(where: { $0.id == id }) else {
                    state.cancelledBeforeSleeping.insert(id)
                    return nil
                }
                return state.watchers.remove(at: index).continuation
            }
            watcher?.resume()
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    private static func satisfiedWatchers(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleepers.count
        let satisfied = state.watchers.filter { $0.count <= count }.map(\.continuation)
        state.watchers.removeAll { $0.count <= count }
        return satisfied
    }
}
