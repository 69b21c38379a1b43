import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// A transport that records what it was asked to send and answers 200 `{}`.
private final class RecordingTransport: HTTPTransport {
    private let sent = Locked<[TransportRequest]>([])
    var requests: [TransportRequest] { sent.withLock { $0 } }
    func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
        sent.withLock { $0.append(request) }
        return TransportResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
    }
}

@Suite("Transport: no header can smuggle another header or request")
struct HeaderInjectionTests {
    @Test(
        "the transports refuse CR, LF or NUL in a header, or a name that is no token: the server gets nothing",
        arguments: [
            ("Authorization", "Bearer at-1\r\nX-Injected: yes"), ("Authorization", "Bearer at-1\nX-Injected: yes"),
            ("Authorization", "Bearer at-1\r"), ("X-Test", "a\u{0}b"), ("X Injected", "1"), ("X-Injected:", "1"),
            ("", "1"), ("X-Injected\r\nHost", "evil"),
        ].flatMap { header in TransportKind.allCases.map { (header.0, header.1, $0) } })
    func transportRefuses(name: String, value: String, kind: TransportKind) async throws {
        let server = try TestHTTPServer { _ in .json(["ok": true]) }
        defer { server.stop() }
        let request = TransportRequest(method: "GET", url: server.url("/resource"), headers: [(name, value)])
        let error = await #expect(throws: AuthError.self) { try await kind.make().send(request) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.message.contains("Injected: yes") == false, "the value is never echoed")
        #expect(server.requests.isEmpty)
        // The same transport sends a clean request.
        let clean = TransportRequest(method: "GET", url: server.url("/resource"), headers: [("X-Test", "fine value")])
        #expect(try await kind.make().send(clean).status == 200)
        #expect(server.requests.count == 1)
    }

    @Test("the client refuses such a header before any transport sees it (an app's own transport included)")
    func clientRefusesBeforeTransport() async throws {
        let transport = RecordingTransport()
        let client = try AuthClient(
            provider: AcmeSpec.make(),
            configuration: ProviderConfiguration(
                values: ["baseURL": "https://acme.example/", "clientID": "acme-app", "apiKey": "pk_live_123"]),
            options: AuthClientOptions(
                transport: transport, store: InMemorySessionStore(), userAgent: "Latchkey\r\nX-Injected: yes",
                environment: { _ in nil }))
        let error = await #expect(throws: AuthError.self) {
            try await client.signIn(username: "ada@example.com", password: "correct-horse")
        }
        #expect(error?.code == .invalidRequest)
        #expect(error?.provider == "acme")
        #expect(transport.requests.isEmpty)
    }
}
