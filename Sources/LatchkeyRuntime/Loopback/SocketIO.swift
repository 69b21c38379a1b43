import LatchkeyPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Blocking socket I/O with deadlines, without `SIGPIPE`.
package enum SocketIO {
    /// `SOCK_STREAM` with the platform's type.
    package static var streamType: Int32 {
        #if canImport(Glibc) || canImport(Musl)
            Int32(SOCK_STREAM.rawValue)
        #else
            SOCK_STREAM
        #endif
    }

    /// The outcome of a read.
    package enum ReadResult: Sendable {
        /// Bytes arrived.
        case bytes([UInt8])
        /// The peer closed its side.
        case closed
        /// Nothing arrived before the deadline.
        case timedOut
        /// The socket failed (or was shut down locally).
        case failed
    }

    /// Accepts a pending connection on a non-blocking listener.
    /// - Returns: A blocking descriptor, or -1 when none is pending.
    package static func acceptConnection(_ listener: Int32) -> Int32 {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { return -1 }
        // Accepted sockets may inherit O_NONBLOCK on some systems: make them blocking.
        _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) & ~O_NONBLOCK)
        #if canImport(Darwin)
            var one: Int32 = 1
            _ = setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return connection
    }

    /// Reads what is available (up to `maximum` bytes), waiting until `deadline` at most.
    package static func read(_ descriptor: Int32, maximum: Int = 16384, deadline: MonotonicInstant) -> ReadResult {
        while true {
            let remaining = MonotonicInstant.now.duration(to: deadline)
            guard remaining > .zero else { return .timedOut }
            let milliseconds = Int32(clamping: remaining.nanoseconds / 1_000_000 + 1)
            var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 1, milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                return .failed
            }
            if ready == 0 { continue }
            var buffer = [UInt8](repeating: 0, count: maximum)
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, maximum, 0) }
            if count > 0 { return .bytes(Array(buffer[..<count])) }
            if count == 0 { return .closed }
            if errno == EINTR || errno == EAGAIN { continue }
            return .failed
        }
    }

    /// Writes every byte.
    /// - Returns: `false` when the peer is gone.
    @discardableResult
    package static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                send(descriptor, $0.baseAddress! + offset, bytes.count - offset, noSignal)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += count
        }
        return true
    }

    /// Wakes any thread blocked on the descriptor and stops further I/O, without freeing the number.
    package static func shutdownBoth(_ descriptor: Int32) {
        #if canImport(Glibc) || canImport(Musl)
            _ = shutdown(descriptor, Int32(SHUT_RDWR))
        #else
            _ = shutdown(descriptor, SHUT_RDWR)
        #endif
    }

    /// Closes a descriptor.
    @discardableResult
    package static func closeDescriptor(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.close(descriptor)
        #elseif canImport(Musl)
            Musl.close(descriptor)
        #else
            Darwin.close(descriptor)
        #endif
    }

    /// Half-closes the write side and drains what the peer still sends (briefly), so that the peer
    /// reads the whole response rather than a reset when it had unread request bytes in flight.
    package static func finishWrites(_ descriptor: Int32) {
        #if canImport(Glibc) || canImport(Musl)
            _ = shutdown(descriptor, Int32(SHUT_WR))
        #else
            _ = shutdown(descriptor, SHUT_WR)
        #endif
        let deadline = MonotonicInstant.now + .milliseconds(200)
        loop: while true {
            switch read(descriptor, deadline: deadline) {
            case .bytes: continue
            case .closed, .timedOut, .failed: break loop
            }
        }
    }

    /// Waits until `deadline`, or until the connection is closed or shut down.
    /// - Returns: `false` when the connection ended first.
    package static func wait(_ descriptor: Int32, until deadline: MonotonicInstant) -> Bool {
        while true {
            switch read(descriptor, maximum: 4096, deadline: deadline) {
            case .bytes: continue
            case .timedOut: return true
            case .closed, .failed: return false
            }
        }
    }

    private static var noSignal: Int32 {
        #if canImport(Glibc) || canImport(Musl)
            Int32(MSG_NOSIGNAL)
        #else
            0
        #endif
    }
}
