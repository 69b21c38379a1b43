/// A source of random bytes. Production code uses ``SystemRandomSource``; tests may inject
/// `SeededRandomSource` for reproducible values.
public protocol RandomSource: Sendable {
    /// Returns `count` random bytes.
    /// - Parameter count: How many bytes (zero or more).
    func bytes(count: Int) -> [UInt8]
}
