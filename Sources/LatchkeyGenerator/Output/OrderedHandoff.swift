import Foundation

/// The outputs of ``OrderedParallelMap/forEach(_:_:consume:)`` between the workers and the thread that consumes
/// them in order.
final class OrderedHandoff<Output: Sendable>: @unchecked Sendable {
    // Every stored property is read and written with `condition` locked.
    private let condition = NSCondition()
    private var next = 0
    private var stopped = false
    private var ready: [Int: Output] = [:]

    /// The next item to transform, or `nil` when every item was started or the consumer stopped.
    func nextIndex(below count: Int) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped, next < count else { return nil }
        defer { next += 1 }
        return next
    }

    /// Hands over the output of item `index` (dropped once the consumer stopped).
    func deliver(_ output: Output, at index: Int) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return }
        ready[index] = output
        condition.broadcast()
    }

    /// Waits for the output of item `index` and takes it out.
    func take(_ index: Int) -> Output {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let output = ready.removeValue(forKey: index) { return output }
            condition.wait()
        }
    }

    /// No item is started after this; outputs still delivered are dropped.
    func stop() {
        condition.lock()
        defer { condition.unlock() }
        stopped = true
        ready = [:]
    }
}
