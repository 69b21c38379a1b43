#if canImport(Security)
    import Security
#else
    import CLatchkeyCrypto
#endif

/// The operating system's CSPRNG: `RAND_bytes` from libcrypto on Linux, `SecRandomCopyBytes` on Apple
/// platforms.
public struct SystemRandomSource: RandomSource {
    /// Creates the system source.
    public init() {}

    /// Returns `count` cryptographically secure random bytes. Stops the process if the CSPRNG fails,
    /// since nothing secure can be done without it.
    /// - Parameter count: How many bytes (zero or more).
    public func bytes(count: Int) -> [UInt8] {
        precondition(count >= 0, "count must not be negative")
        guard count > 0 else { return [] }
        var output = [UInt8](repeating: 0, count: count)
        #if canImport(Security)
            let status = output.withUnsafeMutableBytes { SecRandomCopyBytes(kSecRandomDefault, count, $0.baseAddress!) }
            if status != errSecSuccess { fatalError("SecRandomCopyBytes failed with status \(status)") }
        #else
            let status = output.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
            if status != 1 { fatalError("RAND_bytes failed: the system CSPRNG is unavailable") }
        #endif
        return output
    }
}
