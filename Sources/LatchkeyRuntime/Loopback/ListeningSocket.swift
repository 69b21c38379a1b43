import LatchkeyPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failure to set up a loopback socket.
package struct SocketError: Error, Sendable, CustomStringConvertible {
    /// What failed, with `errno`'s description.
    package let description: String
    /// The `errno` value of the failure.
    package let code: Int32

    package init(_ operation: String, errno code: Int32 = errno) {
        self.description = "\(operation) failed: \(String(cString: strerror(code)))"
        self.code = code
    }

    /// Whether another socket holds the address and port (`EADDRINUSE`).
    package var isAddressInUse: Bool { code == EADDRINUSE }

    /// Whether the port needs privileges the process lacks (`EACCES`).
    package var isPermissionDenied: Bool { code == EACCES }
}

/// A TCP listener on a loopback address and a given or ephemeral port, whose ``accept()`` can be
/// interrupted by ``close()`` from another thread.
package final class ListeningSocket: Sendable {
    /// The port it listens on: the one asked for, or the one the system assigned for port 0.
    package let port: Int
    /// The interface it listens on.
    package let address: LoopbackAddress

    private let state: Locked<State>
    private let wakeRead: Int32
    private let wakeWrite: Int32

    private struct State {
        var descriptor: Int32
        var closed = false
    }

    /// Binds and listens.
    /// - Parameters:
    ///   - address: The loopback interface.
    ///   - port: The port, or 0 (the default) for one the system picks.
    ///   - backlog: The listen backlog.
    /// - Throws: ``SocketError``; its ``SocketError/isAddressInUse`` is `true` when another socket listens
    ///   on the port, and its code is `EINVAL` for a port outside 0...65535.
    package init(address: LoopbackAddress, port: Int = 0, backlog: Int32 = 64) throws(SocketError) {
        guard let networkPort = UInt16(exactly: port) else { throw SocketError("bind(port \(port))", errno: EINVAL) }
        let descriptor = socket(address == .ipv4 ? AF_INET : AF_INET6, SocketIO.streamType, 0)
        guard descriptor >= 0 else { throw SocketError("socket") }
        var pipeDescriptors: [Int32] = [-1, -1]
        do throws(SocketError) {
            var one: Int32 = 1
            guard setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) == 0
            else { throw SocketError("setsockopt(SO_REUSEADDR)") }
            try Self.bind(descriptor, address: address, port: networkPort)
            guard listen(descriptor, backlog) == 0 else { throw SocketError("listen") }
            guard fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) == 0 else {
                throw SocketError("fcntl(O_NONBLOCK)")
            }
            guard pipe(&pipeDescriptors) == 0 else { throw SocketError("pipe") }
            self.port = try Self.boundPort(descriptor)
        } catch {
            _ = SocketIO.closeDescriptor(descriptor)
            if pipeDescriptors[0] >= 0 { _ = SocketIO.closeDescriptor(pipeDescriptors[0]) }
            if pipeDescriptors[1] >= 0 { _ = SocketIO.closeDescriptor(pipeDescriptors[1]) }
            throw error
        }
        self.address = address
        self.wakeRead = pipeDescriptors[0]
        self.wakeWrite = pipeDescriptors[1]
        self.state = Locked(State(descriptor: descriptor))
    }

    deinit {
        close()
        _ = SocketIO.closeDescriptor(wakeRead)
        _ = SocketIO.closeDescriptor(wakeWrite)
    }

    /// Whether ``close()`` has been called.
    package var isClosed: Bool { state.withLock { $0.closed } }

    /// Waits for the next connection.
    /// - Returns: The connected descriptor (blocking mode, `SIGPIPE` suppressed), or `nil` once closed.
    package func accept() -> Int32? {
        while true {
            guard let descriptor = state.withLock({ $0.closed ? nil : $0.descriptor }) else { return nil }
            var fds = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, -1)
            if ready < 0, errno != EINTR { return nil }
            // Accept under the lock, so that close() cannot free the descriptor number in between.
            let outcome = state.withLock { state -> Int32?? in
                if state.closed { return .some(nil) }
                let connection = SocketIO.acceptConnection(state.descriptor)
                return connection >= 0 ? .some(connection) : nil
            }
            if let outcome { return outcome }
        }
    }

    /// Stops listening: the port is closed when this returns, and a blocked ``accept()`` returns `nil`.
    /// Idempotent.
    package func close() {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            // A thread blocked in poll() keeps the socket alive past close(); shutdown() takes it out
            // of the listening state at once (on Linux), so the port refuses connections on return.
            SocketIO.shutdownBoth(state.descriptor)
            _ = SocketIO.closeDescriptor(state.descriptor)
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        }
    }

    /// Binds the loopback address of `address` and `port` (host byte order; stored big-endian).
    private static func bind(_ descriptor: Int32, address: LoopbackAddress, port: UInt16) throws(SocketError) {
        switch address {
        case .ipv4:
            var socketAddress = sockaddr_in()
            #if canImport(Darwin)
                socketAddress.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = in_port_t(port).bigEndian
            socketAddress.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
            let status = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    systemBind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard status == 0 else { throw SocketError("bind(127.0.0.1:\(port))") }
        case .ipv6:
            var one: Int32 = 1
            _ = setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
            var socketAddress = sockaddr_in6()
            #if canImport(Darwin)
                socketAddress.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
            #endif
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = in_port_t(port).bigEndian
            socketAddress.sin6_addr = in6addr_loopback
            let status = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    systemBind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
            guard status == 0 else { throw SocketError("bind([::1]:\(port))") }
        }
    }

    private static func boundPort(_ descriptor: Int32) throws(SocketError) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard status == 0 else { throw SocketError("getsockname") }
        let family = Int32(storage.ss_family)
        let port: UInt16 = withUnsafePointer(to: &storage) { pointer in
            if family == AF_INET {
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            } else {
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin6_port)
                }
            }
        }
        return Int(port)
    }
}

/// `bind(2)`, under a name that no Swift method shadows.
private func systemBind(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    bind(descriptor, address, length)
}
