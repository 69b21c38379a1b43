/// A value that one thread at a time reads or changes, inside ``withLock(_:)``.
///
/// The package's stand-in for `Synchronization.Mutex` (iOS 18 / macOS 15), with the same shape so that it reads
/// the same at every use: the value is reachable only inside `withLock`, goes in and comes out `sending`, and the
/// box is `Sendable` whatever the value. Unlike `Mutex` it is a class: share it by reference.
package final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let lock = PlatformLock()
    @usableFromInline var value: Value

    /// Creates the box.
    /// - Parameter value: The initial value.
    package init(_ value: sending Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock.
    /// - Parameter body: Reads or changes the value; it must not call back into this box.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
