import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting

/// Runs several users of one lock at once and measures whether two were ever inside together, without
/// waiting on real time.
///
/// Each user's body stays inside until every user that has not entered yet sleeps on the lock's clock, that
/// is, has tried the lock while the body held it and been refused. The probe then moves the clock by `step`
/// until the next user is inside (a waiter that tries again before the lock is given up sleeps again). The
/// lock's pauses must be at most `step`, and its timeout far longer than the steps a run takes.
struct ExclusionProbe {
    /// The clock the lock's waits sleep on (nothing else may sleep on it).
    let clock: ManualClock
    /// How many users.
    let users: Int
    /// How far to move the clock to wake the waiters.
    var step: LatchkeyDuration = .seconds(1)

    /// Runs the users, each through `user` (given its index), which must run the body it is given under the lock.
    /// - Returns: The most bodies inside at once, and how many bodies ran.
    func run(
        _ user: @escaping @Sendable (_ index: Int, _ body: @escaping @Sendable () async -> Void) async throws -> Void
    ) async throws -> (most: Int, entries: Int) {
        let counts = Watched((inside: 0, most: 0, entries: 0))
        let (clock, users, step) = (self.clock, self.users, self.step)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<users {
                group.addTask {
                    try await user(index) {
                        let entries = counts.update { counts -> Int in
                            counts.inside += 1
                            counts.most = max(counts.most, counts.inside)
                            counts.entries += 1
                            return counts.entries
                        }
                        // Inside until the others have all been refused (or, with a broken lock, joined it).
                        _ = await firstOf(
                            { await clock.sleepers(atLeast: users - entries) },
                            { await counts.wait { $0.inside > 1 } })
                        counts.update { $0.inside -= 1 }
                    }
                }
            }
            for entered in 1..<users {
                await counts.wait { $0.entries >= entered }
                while counts.value.entries == entered {
                    let waitersAsleep = await firstOf(
                        { await clock.sleepers(atLeast: users - entered) },
                        { await counts.wait { $0.entries > entered } })
                    if waitersAsleep { clock.advance(by: step) }
                }
            }
            try await group.waitForAll()
        }
        let final = counts.value
        return (final.most, final.entries)
    }
}
