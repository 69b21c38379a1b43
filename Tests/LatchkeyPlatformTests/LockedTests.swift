import Dispatch
import LatchkeyPlatform
import Testing

@Suite("Locked: one thread at a time")
struct LockedTests {
    @Test("increments from many threads at once are none of them lost")
    func concurrentIncrements() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test("a body's error comes out typed and the lock is released")
    func throwingBody() {
        struct Refused: Error, Equatable {}
        let box = Locked([1])
        #expect(throws: Refused.self) {
            try box.withLock { (_: inout [Int]) throws(Refused) in throw Refused() }
        }
        // Released: taking it again does not deadlock, and the value is unchanged.
        #expect(box.withLock { $0 } == [1])
    }

    @Test("a read-modify-write under the lock sees no interleaving")
    func readModifyWrite() {
        let box = Locked((low: 0, high: 0))
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<5_000 {
                box.withLock { pair in
                    pair.low += 1
                    pair.high = pair.low * 2
                }
            }
        }
        let pair = box.withLock { $0 }
        #expect(pair.low == 20_000)
        #expect(pair.high == 40_000)
    }
}
