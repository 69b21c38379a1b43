/// One end of a TCP connection: an IPv4 (4 bytes) or IPv6 (16 bytes) address in network order, and a port.
struct TCPEndpoint: Sendable, Equatable {
    /// The address bytes, in network order.
    var address: [UInt8]
    /// The port.
    var port: UInt16
}

/// Reads Linux's `/proc/net/tcp` and `/proc/net/tcp6`: which user owns the socket at the other end of a
/// loopback connection. Pure, over the table's text, so it is tested with real lines.
///
/// Each line after the header is `sl local_address rem_address st … uid …`; an address is `ADDR:PORT` in
/// hexadecimal, the address printed as 32-bit words in the kernel's byte order (`0100007F` is 127.0.0.1 on a
/// little-endian machine), the port as a plain number (`1F90` is 8080).
enum ProcNetTCP {
    /// The owner (uid) of the socket whose local end is `peer` and whose remote end is `local`: the other end of
    /// a connection this process accepted on `local`.
    /// - Parameters:
    ///   - peer: The accepted connection's remote end (`getpeername`).
    ///   - local: The accepted connection's local end (`getsockname`).
    ///   - table: The text of `/proc/net/tcp` (IPv4) or `/proc/net/tcp6` (IPv6).
    /// - Returns: The uid, or `nil` when no line matches (the peer is gone, or in another network namespace).
    static func owner(of peer: TCPEndpoint, connectedTo local: TCPEndpoint, in table: String) -> UInt32? {
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 7, endpoint(fields[1]) == peer, endpoint(fields[2]) == local else { continue }
            return UInt32(fields[7])
        }
        return nil
    }

    /// Parses `ADDR:PORT` as the table prints it, or `nil` when malformed.
    static func endpoint(_ text: Substring) -> TCPEndpoint? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, parts[0].count == 8 || parts[0].count == 32, parts[1].count == 4,
            let port = UInt16(parts[1], radix: 16)
        else { return nil }
        var address: [UInt8] = []
        var word = parts[0][...]
        while !word.isEmpty {
            guard let value = UInt32(word.prefix(8), radix: 16) else { return nil }
            // The kernel prints each 32-bit word of the network-order address as a native integer.
            withUnsafeBytes(of: value) { address.append(contentsOf: $0) }
            word = word.dropFirst(8)
        }
        return TCPEndpoint(address: address, port: port)
    }
}
