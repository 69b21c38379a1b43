// Stand-in for Dispatch: present so that `import Dispatch` resolves (Foundation re-exports it on Apple
// platforms). Only what Apple-only code would need is declared, and none of it uses Dispatch today; the shared
// code that does is compiled and tested on Linux with the real libdispatch.

/// An object that manages the execution of tasks serially or concurrently on your app's main thread or on a
/// background thread.
open class DispatchQueue: @unchecked Sendable {
    /// Creates a new dispatch queue to which you can submit blocks.
    public convenience init(label: String) { fatalError("stand-in") }
    /// The dispatch queue associated with the main thread of the current process.
    open class var main: DispatchQueue { fatalError("stand-in") }
    /// Submits a block for synchronous execution on this queue.
    public func sync<T>(execute work: () throws -> T) rethrows -> T { fatalError("stand-in") }
    /// Schedules a block asynchronously for execution.
    public func async(execute work: @escaping @Sendable @convention(block) () -> Void) { fatalError("stand-in") }
}
