import Foundation
@_spi(Generated) import LatchkeyTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A minimal blocking HTTP client on raw sockets, run on its own thread, for exercising the servers
/// with requests URLSession would never send (wrong Host, huge heads, slow clients).
///
/// A write to a connection the server has closed fails with `EPIPE` instead of raising `SIGPIPE`, which
/// would end the whole test process: the socket has `SO_NOSIGPIPE` on Darwin, and every `send` passes
/// `MSG_NOSIGNAL` on Linux (as `SocketIO` does for the servers).
enum RawHTTPClient {
    struct Response: Sendable {
        var status: Int
        var head: String
        var body: String
    }

    /// Connects to 127.0.0.1 (or ::1); returns the descriptor or -1.
    static func connect(port: Int, ipv6: Bool = false) -> Int32 {
        #if canImport(Glibc) || canImport(Musl)
            let stream = Int32(SOCK_STREAM.rawValue)
        #else
            let stream = SOCK_STREAM
        #endif
        let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, stream, 0)
        guard descriptor >= 0 else { return -1 }
        suppressBrokenPipeSignal(descriptor)
        // Generous: a read ends when the server answers or closes; this only bounds a server that hangs.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let status: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            address.sin6_addr = in6addr_loopback
            status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    systemConnect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
            status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    systemConnect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard status == 0 else {
            close(descriptor)
            return -1
        }
        return descriptor
    }

    /// Whether anything accepts connections on the port.
    static func isListening(port: Int, ipv6: Bool = false) async -> Bool {
        await DedicatedThread.run {
            let descriptor = connect(port: port, ipv6: ipv6)
            guard descriptor >= 0 else { return false }
            close(descriptor)
            return true
        }
    }

    /// Runs `stopping` (a server's stop or cancel) and probes the port at once on the same thread: whether the port
    /// refused the connection. A probe later could meet another test's server, to which the system may already
    /// have handed the freed port.
    static func refuses(port: Int, rightAfter stopping: @escaping @Sendable () -> Void) async -> Bool {
        await DedicatedThread.run {
            stopping()
            let probe = connect(port: port)
            if probe >= 0 { close(probe) }
            return probe < 0
        }
    }

    /// Sends raw bytes and reads the response until the server closes.
    static func exchange(port: Int, _ request: [UInt8], ipv6: Bool = false) async -> Response? {
        await DedicatedThread.run { exchangeBlocking(port: port, request, ipv6: ipv6) }
    }

    /// ``exchange(port:_:ipv6:)`` on the calling thread, which it blocks: only for code already off the pool.
    static func exchangeBlocking(port: Int, _ request: [UInt8], ipv6: Bool = false) -> Response? {
        let descriptor = connect(port: port, ipv6: ipv6)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        _ = sendAll(descriptor, request)
        return readResponse(descriptor)
    }

    /// Sends all of `bytes`; `false` when the connection failed first (`EPIPE` once the peer has closed it:
    /// never a signal).
    static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + offset, bytes.count - offset, noSignal)
            }
            if sent < 0, errno == EINTR { continue }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    /// Sends a request text (CRLF line ends added) and reads the response.
    static func exchange(port: Int, lines: [String], body: String = "", ipv6: Bool = false) async -> Response? {
        await exchange(port: port, Array((lines.joined(separator: "\r\n") + "\r\n\r\n" + body).utf8), ipv6: ipv6)
    }

    /// A GET with the given Host.
    static func get(port: Int, target: String, host: String? = nil, ipv6: Bool = false) async -> Response? {
        await exchange(
            port: port, lines: ["GET \(target) HTTP/1.1", "Host: \(host ?? "127.0.0.1:\(port)")", "Connection: close"],
            ipv6: ipv6)
    }

    /// Sets `SO_NOSIGPIPE` on Darwin, where `send` has no `MSG_NOSIGNAL`; nothing elsewhere.
    static func suppressBrokenPipeSignal(_ descriptor: Int32) {
        #if canImport(Darwin)
            var one: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// `MSG_NOSIGNAL` where it exists (Linux); Darwin has no such flag, the socket's `SO_NOSIGPIPE` does it.
    static var noSignal: Int32 {
        #if canImport(Glibc) || canImport(Musl)
            Int32(MSG_NOSIGNAL)
        #else
            0
        #endif
    }

    /// Reads until the peer closes the connection or the read times out (60 s); `true` when the peer closed it
    /// (or shut it down) without sending anything.
    static func closedSilently(_ descriptor: Int32) -> Bool {
        var byte: UInt8 = 0
        while true {
            let count = recv(descriptor, &byte, 1, 0)
            if count < 0, errno == EINTR { continue }
            return count == 0
        }
    }

    static func readResponse(_ descriptor: Int32) -> Response? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, 65536, 0) }
            if count <= 0 { break }
            data += buffer[..<count]
        }
        let text = String(decoding: data, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return nil }
        let head = String(text[..<split.lowerBound])
        let parts = head.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        return Response(status: status, head: head, body: String(text[split.upperBound...]))
    }
}

/// `connect(2)`, under a name the client's own `connect` does not shadow.
private func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}
