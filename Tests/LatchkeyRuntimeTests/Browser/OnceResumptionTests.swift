import Dispatch
import Foundation
import LatchkeyPlatform
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// Issue 17, item 2: the box that resumes an authentication sheet's continuation exactly once.
@Suite("Browser: once-only resumption")
struct OnceResumptionTests {
    @Test("64 concurrent resolutions: exactly one wins, the waiter gets the winner's value, nothing crashes")
    func concurrentResolutions() async {
        for _ in 0..<20 {
            let box = OnceResumption<Int>()
            let winners = Locked([Int]())
            let attempts = DispatchGroup()
            for attempt in 0..<64 {
                attempts.enter()
                DispatchQueue.global().async {
                    if box.resolve(attempt) { winners.withLock { $0.append(attempt) } }
                    attempts.leave()
                }
            }
            let value = await box.value()
            await withCheckedContinuation { continuation in
                attempts.notify(queue: .global()) { continuation.resume() }
            }
            #expect(winners.withLock { $0 } == [value])
        }
    }

    @Test("a value resolved before anyone waits is delivered; later resolutions are ignored")
    func resolvedBeforeWaiting() async {
        let box = OnceResumption<String>()
        #expect(!box.isResolved)
        #expect(box.resolve("first"))
        #expect(!box.resolve("second"))
        #expect(box.isResolved)
        #expect(await box.value() == "first")
        #expect(!box.resolve("third"))
    }

    @Test("a waiter is resumed by the first resolution only")
    func waiterResumedOnce() async {
        let box = OnceResumption<Int>()
        let waiter = Task { await box.value() }
        // The waiter may or may not be waiting yet: either way it gets the first value, once.
        _ = box.resolve(1)
        _ = box.resolve(2)
        #expect(await waiter.value == 1)
    }
}
