import Foundation
import LatchkeyGenerator
import LatchkeyPlatform
import Testing

/// latchkey-gen loads and renders descriptors on every core: the results (and so the generated files and the
/// diagnostics) must come back in the input's order, each item transformed exactly once.
@Suite struct OrderedParallelMapTests {
    @Test func resultsKeepTheInputOrderWhateverOrderTheWorkFinishesIn() {
        let items = Array(0..<64)
        let calls = Locked<[Int]>([])
        let outputs = OrderedParallelMap.map(items) { item -> String in
            // Earlier items take longer, so on more than one thread they finish after later ones.
            if item < 8 { Thread.sleep(forTimeInterval: Double(8 - item) / 1000) }
            calls.withLock { $0.append(item) }
            return "item-\(item)"
        }
        #expect(outputs == items.map { "item-\($0)" })
        #expect(calls.withLock { $0.sorted() } == items)
    }

    @Test func fewItemsAndNoItemsAreMappedToo() {
        #expect(OrderedParallelMap.map([Int]()) { $0 * 2 } == [])
        #expect(OrderedParallelMap.map([1, 2, 3]) { $0 * 2 } == [2, 4, 6])
        let many = Array(0..<(OrderedParallelMap.sequentialLimit + 1))
        #expect(OrderedParallelMap.map(many) { $0 * 2 } == many.map { $0 * 2 })
    }

    @Test func forEachConsumesInTheInputOrderOnTheCallingThread() {
        let items = Array(0..<64)
        let calls = Locked<[Int]>([])
        var consumed: [String] = []
        let caller = Thread.current
        var onCaller = true
        OrderedParallelMap.forEach(items) { item -> String in
            if item < 8 { Thread.sleep(forTimeInterval: Double(8 - item) / 1000) }
            calls.withLock { $0.append(item) }
            return "item-\(item)"
        } consume: { output in
            onCaller = onCaller && Thread.current == caller
            consumed.append(output)
        }
        #expect(consumed == items.map { "item-\($0)" })
        #expect(calls.withLock { $0.sorted() } == items)
        #expect(onCaller)
    }

    @Test func forEachHandsOverAnOutputBeforeTheLastItemIsDone() {
        // The last item's transform waits for the first output to be consumed: a forEach that held every
        // output until all were done would time out here (the wait is a guard against a hang, not a measure).
        let firstConsumed = DispatchSemaphore(value: 0)
        let waitedFor = Locked<DispatchTimeoutResult?>(nil)
        let items = Array(0..<16)
        var consumed: [Int] = []
        OrderedParallelMap.forEach(items) { item -> Int in
            if item == items.count - 1 { waitedFor.withLock { $0 = firstConsumed.wait(timeout: .now() + 120) } }
            return item
        } consume: { output in
            if output == 0 { firstConsumed.signal() }
            consumed.append(output)
        }
        #expect(consumed == items)
        #expect(waitedFor.withLock { $0 } == .success)
    }

    struct Stop: Error {}

    @Test func forEachStopsAtTheFirstThrowAndRethrowsIt() {
        var consumed: [Int] = []
        let items = Array(0..<200)
        #expect(throws: Stop.self) {
            try OrderedParallelMap.forEach(items) { item -> Int in
                item
            } consume: { output in
                if output == 5 { throw Stop() }
                consumed.append(output)
            }
        }
        #expect(consumed == [0, 1, 2, 3, 4])
        for small in [[Int](), [1, 2, 3]] {
            var seen: [Int] = []
            OrderedParallelMap.forEach(small) {
                $0 * 2
            } consume: {
                seen.append($0)
            }
            #expect(seen == small.map { $0 * 2 })
        }
    }
}
