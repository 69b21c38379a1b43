import Dispatch

/// Helpers shared by the fuzz targets.
public enum Fuzz {
    /// The fuzzer's input as an array.
    /// - Parameters:
    ///   - data: The input's first byte (libFuzzer passes a valid pointer even for an empty input).
    ///   - size: The input's length.
    /// - Returns: A copy of the bytes.
    public static func bytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
        Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Runs async work to completion, blocking the calling (fuzzing) thread until it is done.
    ///
    /// libFuzzer calls the target on one thread, one input at a time, so blocking it is fine; the work
    /// runs on a detached task on the cooperative pool, never on the blocked thread.
    /// - Parameter work: The work.
    /// - Returns: Its result.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            box.value = await work()
            done.signal()
        }
        done.wait()
        guard let value = box.value else { fatalError("FUZZ INVARIANT: async work finished without a result") }
        return value
    }

    /// Whether `message` holds `secret` byte for byte. (Not `String.contains`: on Linux it goes through
    /// CoreFoundation, which stops a string at a NUL, so a token of `1` and NULs was "found" in "has 1".)
    public static func quotes(_ message: String, _ secret: String) -> Bool {
        let haystack = Array(message.utf8)
        let needle = Array(secret.utf8)
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start..<start + needle.count].elementsEqual(needle)
        }
    }

    /// Stops the process when an invariant does not hold; libFuzzer then saves the input as a crash.
    /// - Parameters:
    ///   - condition: The invariant.
    ///   - message: What it means, printed before the trap.
    public static func check(
        _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
        line: UInt = #line
    ) {
        if !condition() { fatalError("FUZZ INVARIANT: \(message())", file: file, line: line) }
    }

    /// Splits an input into the text before the first `separator` line and the bytes after it, when the
    /// input has one; otherwise `nil`. Seeds use this to carry a small header (a status line, headers).
    /// - Parameters:
    ///   - bytes: The input.
    ///   - separator: The separator, e.g. `"\n\n"`.
    /// - Returns: The head and the rest.
    public static func split(_ bytes: [UInt8], at separator: [UInt8]) -> (
        head: ArraySlice<UInt8>, rest: ArraySlice<UInt8>
    )? {
        guard !separator.isEmpty, bytes.count >= separator.count else { return nil }
        var index = 0
        while index + separator.count <= bytes.count {
            if bytes[index..<(index + separator.count)].elementsEqual(separator) {
                return (bytes[..<index], bytes[(index + separator.count)...])
            }
            index += 1
        }
        return nil
    }
}

private final class Box<T>: @unchecked Sendable {
    var value: T?
}
