import Testing

@testable import LatchkeyRuntime

/// The hand-off under the store chain and the refresh flight: settled once, awaited by many.
@Suite("Support: SettledOnce", timeLimit(minutes: 1))
struct SettledOnceTests {
    private actor Waiter {
        /// Waits on the actor, as the client does.
        func wait(_ value: SettledOnce<Int>) async -> Int { await value.value() }
    }

    @Test("a value settled before anyone waits is returned at once")
    func settledFirst() async {
        let value = SettledOnce<Int>()
        value.settle(7)
        #expect(await value.value() == 7)
        #expect(await Waiter().wait(value) == 7)
    }

    @Test("every waiter, on actors and off them, gets the value settled after they began waiting")
    func waitersFirst() async {
        let value = SettledOnce<Int>()
        let waiters = (0..<50).map { index in
            Task { index.isMultiple(of: 2) ? await Waiter().wait(value) : await value.value() }
        }
        value.settle(42)
        for waiter in waiters { #expect(await waiter.value == 42) }
    }
}
