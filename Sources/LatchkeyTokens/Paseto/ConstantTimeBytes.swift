/// Byte comparison whose running time does not depend on where the inputs differ.
package enum ConstantTimeBytes {
    /// Whether two byte strings are equal. The time depends only on the lengths (a length mismatch is not
    /// secret: PASETO footers travel in the clear).
    package static func equal(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices {
            difference |= lhs[index] ^ rhs[index]
        }
        return difference == 0
    }
}
