import Foundation
@_spi(Generated) import LatchkeyTesting
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

@Suite("ClosedPort")
struct ClosedPortTests {
    @Test("refuses connections, and no server (SO_REUSEADDR included) can bind its port while it lives")
    func refusesAndReserves() async throws {
        let closed = try ClosedPort()
        defer { closed.close() }
        #expect(closed.port > 0)
        #expect(closed.url("/token").absoluteString == "http://127.0.0.1:\(closed.port)/token")
        #expect(!(await RawHTTPClient.isListening(port: closed.port)))
        // The listeners of TestHTTPServer and LoopbackRedirectServer set SO_REUSEADDR; they still cannot take it.
        let error = #expect(throws: SocketError.self) { try ListeningSocket(address: .ipv4, port: closed.port) }
        #expect(error?.isAddressInUse == true)
        let refused = await #expect(throws: AuthError.self) {
            try await URLSessionHTTPTransport().send(TransportRequest(method: "GET", url: closed.url("/token")))
        }
        #expect(refused?.code == .networkError)
    }
}
