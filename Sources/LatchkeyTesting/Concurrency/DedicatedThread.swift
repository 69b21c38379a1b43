import Foundation

/// Runs blocking work (a child process and its `waitpid`, pipe or socket reads, `usleep`, a blocking `flock`)
/// on a thread of its own, and resumes the calling task with its result.
///
/// Swift's cooperative pool has one thread per core: two on a small CI machine. Blocking one of them stalls
/// every task waiting for it, including the handlers of ``TestHTTPServer`` that answer other tests' requests,
/// so a blocking call in one test makes unrelated tests time out. Tests call blocking code only through
/// ``run(name:_:)``.
public enum DedicatedThread {
    /// Runs `work` on a new thread and waits for it without occupying a pool thread.
    ///
    /// The work is not cancelled with the calling task: bound it yourself (a read deadline, a child that ends
    /// when its stdin closes). The thread keeps the platform's default stack size (debug builds use large
    /// frames).
    /// - Parameters:
    ///   - name: The thread's name, shown by debuggers (default `latchkey.testing.blocking`).
    ///   - work: The blocking work.
    /// - Returns: What `work` returns.
    /// - Throws: What `work` throws.
    public static func run<Value: Sendable, Failure: Error>(
        name: String = "latchkey.testing.blocking", _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            let thread = Thread {
                do throws(Failure) {
                    continuation.resume(returning: .success(try work()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.name = name
            thread.start()
        }
        return try result.get()
    }
}
