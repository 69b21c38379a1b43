import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime

/// A clock that moves only when a test says so: ``advance(by:)`` moves its time and resumes, in deadline order,
/// every sleeper whose deadline it reached.
///
/// Pass it as ``AuthClientOptions/clock`` (or to ``FileSessionStore/init(directory:refreshLockTimeout:clock:)``)
/// and nothing the runtime times (the automatic refresh's checks, refresh-lock polling, device-flow polls) waits
/// on real time. ``sleepers(atLeast:)`` waits, without polling, until that many tasks sleep on the clock, so a
/// test knows a timed loop has come back to its next sleep.
public final class ManualClock: LatchkeyClock, Sendable {
    private struct Sleeper: Sendable {
        var deadline: Date
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State: Sendable {
        var now: Date
        var sleepers: [Int: Sleeper] = [:]
        var cancelledBeforeSleeping: Set<Int> = []
        var nextID = 0
    }

    /// The time and the sleepers; ``sleepers(atLeast:)`` waits on it.
    private let state: Watched<State>

    /// Creates a clock.
    /// - Parameter start: Its time at first (default 2027-01-15T08:00:00Z, a fixed instant).
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        state = Watched(State(now: start))
    }

    /// The clock's time.
    public var now: Date { state.value.now }

    /// How many tasks sleep on the clock right now.
    public var sleeperCount: Int { state.value.sleepers.count }

    /// Suspends until ``advance(by:)`` moves the clock to `deadline` (at once when it is there already).
    /// - Parameter deadline: The instant.
    /// - Throws: `CancellationError` when the sleeping task is cancelled.
    public func sleep(until deadline: Date) async throws {
        try Task.checkCancellation()
        let id = state.update { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Outcome: Sendable { case sleeping, due, cancelled }
                // Adding the sleeper resumes the tasks in sleepers(atLeast:) that it satisfies.
                let outcome = state.update { state -> Outcome in
                    if state.cancelledBeforeSleeping.remove(id) != nil { return .cancelled }
                    if deadline <= state.now { return .due }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return .sleeping
                }
                switch outcome {
                case .sleeping: break
                case .due: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let sleeper = state.update { state -> Sleeper? in
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
    public func advance(by duration: LatchkeyDuration) {
        let due = state.update { state -> [Sleeper] in
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
        await state.wait { $0.sleepers.count >= count }
    }

    private static func seconds(_ duration: LatchkeyDuration) -> Double {
        duration.timeInterval
    }
}
