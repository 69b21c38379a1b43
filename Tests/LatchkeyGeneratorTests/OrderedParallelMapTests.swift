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
}
