@_spi(Generated) import LatchkeyTesting

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
