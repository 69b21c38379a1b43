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
            guard let text = try? String(contentsOfFile: table, encoding: .utf8),
                let owner = ProcNetTCP.owner(of: peer, connectedTo: local, in: text)
            else { return false }
            return owner == UInt32(geteuid())
        #else
            return true
        #endif
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
