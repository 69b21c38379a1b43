/// Comparisons whose duration does not depend on where two values first differ: the one compare for nonces,
/// token hashes (`at_hash`, `c_hash`) and PASETO footers.
package enum ConstantTime {
    /// Whether two byte strings are equal, comparing every byte. The time depends only on the lengths (a length
    /// mismatch is not secret: nonces, hashes and PASETO footers have public lengths).
    /// - Parameters:
    ///   - lhs: One value.
    ///   - rhs: The other.
    /// - Returns: `true` when they are equal.
    package static func equals(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(lhs, rhs) { difference |= left ^ right }
        return difference == 0
    }

    /// Whether two strings have the same UTF-8 bytes, comparing every byte.
    /// - Parameters:
    ///   - lhs: One value.
    ///   - rhs: The other.
    /// - Returns: `true` when their UTF-8 bytes are equal.
    package static func equals(_ lhs: String, _ rhs: String) -> Bool {
        equals(Array(lhs.utf8), Array(rhs.utf8))
    }
}
