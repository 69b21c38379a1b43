import Foundation

/// Runs blocking work (a child process) on its own thread, so tests never starve Swift's
/// cooperative thread pool, which has one thread per core.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do { continuation.resume(returning: try work()) } catch { continuation.resume(throwing: error) }
        }
        thread.start()
    }
}
