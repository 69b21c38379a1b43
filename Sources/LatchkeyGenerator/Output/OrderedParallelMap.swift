import Dispatch
import Foundation

/// Work on every descriptor of a set at once: loading and rendering one descriptor shares nothing with the
/// next, so `latchkey-gen` (and the benchmark's generator pipeline) spread them over the machine's cores.
///
/// The results come back in the order of the input, whatever order the work finished in, so the output and
/// every diagnostic are the same as a loop's.
package enum OrderedParallelMap {
    /// Below this many items the work runs on the calling thread: starting threads would cost more.
    package static let sequentialLimit = 4

    /// `items.map(transform)`, run on up to `ProcessInfo.activeProcessorCount` threads.
    /// - Parameters:
    ///   - items: The inputs.
    ///   - transform: Maps one input; called once per item, from any thread.
    /// - Returns: The outputs, in the order of `items`.
    package static func map<Item: Sendable, Output: Sendable>(
        _ items: [Item], _ transform: @escaping @Sendable (Item) -> Output
    ) -> [Output] {
        var outputs: [Output] = []
        outputs.reserveCapacity(items.count)
        forEach(items, transform) { outputs.append($0) }
        return outputs
    }
}

extension OrderedParallelMap {
    /// `transform` on every core, each output handed to `consume` on the calling thread in the order of `items`
    /// as soon as the outputs before it were: what `map` gives, without holding every output at once.
    ///
    /// A generator run holds each client's code only until it is written, so its memory is the descriptors
    /// plus the few clients rendered ahead of the writer, not every client's code.
    /// - Parameters:
    ///   - items: The inputs.
    ///   - transform: Maps one input; called once per item (until `consume` throws), from any thread.
    ///   - consume: Takes each output in order, on the calling thread. When it throws, no further item is
    ///     started, the items under way are finished and dropped, and the error is rethrown.
    package static func forEach<Item: Sendable, Output: Sendable>(
        _ items: [Item], _ transform: @escaping @Sendable (Item) -> Output, consume: (Output) throws -> Void
    ) rethrows {
        let workers = min(items.count, ProcessInfo.processInfo.activeProcessorCount)
        guard items.count > sequentialLimit, workers > 1 else {
            for item in items { try consume(transform(item)) }
            return
        }
        let handoff = OrderedHandoff<Output>()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while let index = handoff.nextIndex(below: items.count) {
                    handoff.deliver(transform(items[index]), at: index)
                }
            }
        }
        defer {
            handoff.stop()
            group.wait()
        }
        for index in items.indices { try consume(handoff.take(index)) }
    }
}
