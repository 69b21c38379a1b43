import Foundation
import LatchkeyPlatform

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A port on `127.0.0.1` where nothing listens, and where nothing else can start listening while this value
/// lives: connections to it are refused, for tests of "connection refused".
///
/// The port of a stopped server is not such a port: the system hands it to the next server that binds port 0,
/// often another test's, which then receives the request meant to fail (and the test that owns that server sees
/// a request it never sent). This holds a socket bound to the port without listening and without
/// `SO_REUSEADDR`, so no other socket can bind it until ``close()``.
public final class ClosedPort: Sendable {
    /// The reserved port.
    public let port: Int
    private let descriptor: Locked<Int32>

    /// Reserves a port the system picks.
    /// - Throws: ``TestServerError`` when no socket can be bound.
    public init() throws(TestServerError) {
        #if canImport(Glibc) || canImport(Musl)
            let stream = Int32(SOCK_STREAM.rawValue)
        #else
            let stream = SOCK_STREAM
        #endif
        let socketDescriptor = socket(AF_INET, stream, 0)
        guard socketDescriptor >= 0 else { throw TestServerError(description: "socket failed: errno \(errno)") }
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketDescriptor, $0, length) == 0 && getsockname(socketDescriptor, $0, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            _ = Self.closeDescriptor(socketDescriptor)
            throw TestServerError(description: "bind(127.0.0.1:0) failed: errno \(code)")
        }
        self.port = Int(UInt16(bigEndian: address.sin_port))
        self.descriptor = Locked(socketDescriptor)
    }

    deinit {
        close()
    }

    /// `http://127.0.0.1:PORT` plus a path and query.
    /// - Parameter pathAndQuery: For example `/token`.
    public func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")!
    }

    /// Releases the port. Idempotent.
    public func close() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            _ = Self.closeDescriptor(descriptor)
            descriptor = -1
        }
    }

    private static func closeDescriptor(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
            Glibc.close(descriptor)
        #elseif canImport(Musl)
            Musl.close(descriptor)
        #else
            Darwin.close(descriptor)
        #endif
    }
}
