import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether a connection to the loopback server comes from a process of the current user.
///
/// On Linux the other end's socket is looked up in `/proc/net/tcp` or `/proc/net/tcp6` (``ProcNetTCP``) and
/// its owner compared with `geteuid()`; a connection whose other end cannot be found is refused too. Other
/// platforms do not check (Apple apps sign in through the authentication session, not the loopback server).
enum PeerOwner {
    /// Whether the peer of an accepted connection belongs to this process's user.
    static func isCurrentUser(_ descriptor: Int32) -> Bool {
        #if os(Linux)
            guard let peer = endpoint(descriptor, peer: true), let local = endpoint(descriptor, peer: false) else {
                return false
            }
            let table = peer.address.count == 4 ? "/proc/net/tcp" : "/proc/net/tcp6"
            // The kernel lists the table a few sockets at a time: one that moves between two reads (other
            // connections opening or closing) can be skipped, so a miss is read again before it counts.
            for attempt in 0..<4 {
                if attempt > 0 { usleep(UInt32(2_000 * attempt)) }
                guard let text = readTable(table) else { return false }
                if let owner = ProcNetTCP.owner(of: peer, connectedTo: local, in: text) {
                    return owner == UInt32(geteuid())
                }
            }
            return false
        #else
            return true
        #endif
    }

    /// Reads a `/proc` table whole, with large reads (each read lists as many sockets as fit).
    private static func readTable(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { _ = close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 18)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The connection's remote (`getpeername`) or local (`getsockname`) end.
    private static func endpoint(_ descriptor: Int32, peer: Bool) -> TCPEndpoint? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(descriptor, $0, &length) : getsockname(descriptor, $0, &length)
            }
        }
        guard status == 0 else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafeBytes(of: storage) { raw -> TCPEndpoint in
                let address = raw.load(as: sockaddr_in.self)
                return TCPEndpoint(
                    address: withUnsafeBytes(of: address.sin_addr) { Array($0) },
                    port: UInt16(bigEndian: address.sin_port))
            }
        case AF_INET6:
            return withUnsafeBytes(of: storage) { raw -> TCPEndpoint in
                let address = raw.load(as: sockaddr_in6.self)
                return TCPEndpoint(
                    address: withUnsafeBytes(of: address.sin6_addr) { Array($0) },
                    port: UInt16(bigEndian: address.sin6_port))
            }
        default:
            return nil
        }
    }
}
