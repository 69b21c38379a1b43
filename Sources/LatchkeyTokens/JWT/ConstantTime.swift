/// Comparisons whose duration does not depend on where two values first differ.
package enum ConstantTime {
    /// Whether two byte strings are equal, comparing every byte (lengths are not secret).
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

    /// Whether two strings have the same UTF-8 bytes.
    package static func equals(_ lhs: String, _ rhs: String) -> Bool {
        equals(Array(lhs.utf8), Array(rhs.utf8))
    }
}
