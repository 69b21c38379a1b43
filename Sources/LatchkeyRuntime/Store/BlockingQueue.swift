import Dispatch
import LatchkeyTokens

/// Runs blocking calls (`SecItem*` talks to a daemon, file flushes wait for the disk) on a dispatch queue,
/// never on a thread of Swift's cooperative pool, which has as many threads as cores.
package struct BlockingQueue: Sendable {
    private let queue: DispatchQueue

    /// Creates a serial queue (calls run in the order they were made).
    /// - Parameter label: The queue's label.
    package init(label: String) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    /// Runs `work` on the queue and returns its result.
    package func run<T: Sendable>(_ work: @escaping @Sendable () throws(AuthError) -> T) async throws(AuthError) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, AuthError>, Never>) in
            queue.async {
                do throws(AuthError) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
