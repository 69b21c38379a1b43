import Foundation
@_spi(Generated) import LatchkeyTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 27, item 4.4c: the raw test client writes without `SIGPIPE`, so a server that closes the connection
/// mid-request fails that exchange instead of killing the test process.
@Suite("Loopback: the raw test client never raises SIGPIPE")
struct RawHTTPClientTests {
    @Test("writing to a connection whose peer is gone fails with EPIPE; the process lives on")
    func writeAfterPeerClosed() async throws {
        let outcome = await DedicatedThread.run { () -> (sent: Bool, error: Int32) in
            #if canImport(Glibc) || canImport(Musl)
                let stream = Int32(SOCK_STREAM.rawValue)
            #else
                let stream = SOCK_STREAM
            #endif
            var pair: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, stream, 0, &pair) == 0 else { return (true, errno) }
            defer { close(pair[0]) }
            RawHTTPClient.suppressBrokenPipeSignal(pair[0])
            close(pair[1])
            // Without the protection this write raises SIGPIPE, whose default action ends the test process.
            let sent = RawHTTPClient.sendAll(pair[0], Array("GET / HTTP/1.1\r\n\r\n".utf8))
            return (sent, sent ? 0 : errno)
        }
        #expect(outcome.sent == false)
        #expect(outcome.error == EPIPE, "errno \(outcome.error)")
    }

    #if canImport(Darwin)
        @Test("the client's sockets have SO_NOSIGPIPE (Darwin has no MSG_NOSIGNAL)")
        func noSigPipeOption() async throws {
            let server = try TestHTTPServer { _ in .text("ok") }
            defer { server.stop() }
            let port = server.port
            let value = await DedicatedThread.run { () -> Int32 in
                let descriptor = RawHTTPClient.connect(port: port)
                guard descriptor >= 0 else { return -1 }
                defer { close(descriptor) }
                var value: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                _ = getsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &value, &length)
                return value
            }
            #expect(value != 0)
        }
    #endif
}
