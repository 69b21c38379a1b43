/// PASETO's pre-authentication encoding, PAE (paseto-spec, `docs/01-Protocol-Versions/Common.md`):
/// the piece count, then each piece prefixed with its length, every number as a little-endian 64-bit
/// integer with the most significant bit cleared. It only frames bytes; it is not a cryptographic primitive.
package enum PreAuthenticationEncoding {
    /// Encodes the pieces.
    /// - Parameter pieces: The pieces, in order (for `v4.public`: header, message, footer, implicit assertion).
    /// - Returns: `LE64(count) || LE64(len(p0)) || p0 || LE64(len(p1)) || p1 ...`.
    package static func encode(_ pieces: [[UInt8]]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(8 + pieces.reduce(0) { $0 + 8 + $1.count })
        appendLE64(UInt64(pieces.count), to: &output)
        for piece in pieces {
            appendLE64(UInt64(piece.count), to: &output)
            output.append(contentsOf: piece)
        }
        return output
    }

    /// Appends `LE64(value)`: eight bytes, least significant first, top bit cleared.
    package static func appendLE64(_ value: UInt64, to output: inout [UInt8]) {
        let cleared = value & 0x7FFF_FFFF_FFFF_FFFF
        for shift in stride(from: 0, to: 64, by: 8) {
            output.append(UInt8(truncatingIfNeeded: cleared >> UInt64(shift)))
        }
    }
}
