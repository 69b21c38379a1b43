import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("HTTP transports (URLSession, the platform default) against a real server", timeLimit(minutes: 2))
struct URLSessionTransportTests {
    @Test(
        "method, path, query, headers and body arrive exactly; the response comes back whole",
        arguments: TransportKind.allCases)
    func roundTrip(kind: TransportKind) async throws {
        let transport = kind.make()
        let server = try TestHTTPServer { _ in
            .json(["ok": true], status: 201, headers: [("X-Reply", "Yes"), ("Cache-Control", "no-store")])
        }
        defer { server.stop() }
        let body = Data("grant_type=authorization_code&code=a%2Bb&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb".utf8)
        let request = TransportRequest(
            method: "POST", url: server.url("/oauth/token?x=1&y=a%20b"),
            headers: [
                ("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json"),
                ("X-Custom-Header", "Some Value"),
            ],
            body: body)
        let response = try await transport.send(request)

        #expect(response.status == 201)
        #expect(response.header("X-Reply") == "Yes")
        #expect(response.headers["x-reply"] == "Yes")
        #expect(response.headers.keys.allSatisfy { $0 == $0.lowercased() })
        #expect(response.header("content-type") == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":true}"#)

        let received = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(received.method == "POST")
        #expect(received.path == "/oauth/token")
        #expect(received.rawQuery == "x=1&y=a%20b")
        #expect(received.query("y") == "a b")
        #expect(received.header("x-custom-header") == "Some Value")
        #expect(received.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(received.header("Accept") == "application/json")
        #expect(received.body == body)
        #expect(received.formBody["code"] == "a+b")
        #expect(received.formBody["redirect_uri"] == "http://127.0.0.1/cb")
        #expect(received.header("Cookie") == nil)
    }

    @Test("a large body goes up and comes back intact", arguments: TransportKind.allCases)
    func largeBodies(kind: TransportKind) async throws {
        let transport = kind.make()
        let server = try TestHTTPServer { request in
            TestResponse(status: 200, body: Data(request.body.reversed()))
        }
        defer { server.stop() }
        let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let response = try await transport.send(
            TransportRequest(
                method: "PUT", url: server.url("/blob"), headers: [("Content-Type", "application/octet-stream")],
                body: body))
        #expect(response.status == 200)
        #expect(response.body == Data(body.reversed()))
        #expect(server.requests.first?.body == body)
    }

    @Test("redirects are returned, never followed", arguments: TransportKind.allCases, [301, 302, 303, 307, 308])
    func redirectsNotFollowed(kind: TransportKind, status: Int) async throws {
        let transport = kind.make()
        let target = try TestHTTPServer { _ in .text("you should not be here") }
        defer { target.stop() }
        let server = try TestHTTPServer { request in
            request.path == "/start"
                ? .redirect(to: target.url("/landing").absoluteString, status: status) : .text("same-origin target")
        }
        defer { server.stop() }
        let response = try await transport.send(
            TransportRequest(method: "POST", url: server.url("/start"), body: Data("a=1".utf8)))
        #expect(response.status == status)
        #expect(response.header("Location") == target.url("/landing").absoluteString)
        #expect(server.requests.count == 1)
        #expect(target.requests.isEmpty)
    }

    @Test("a relative redirect is not followed either, and its body comes back", arguments: TransportKind.allCases)
    func relativeRedirect(kind: TransportKind) async throws {
        let transport = kind.make()
        let server = try TestHTTPServer { request in
            request.path == "/start"
                ? TestResponse(
                    status: 302, headers: [("Location", "/next")], body: Data("Found. Redirecting to /next".utf8))
                : .text("followed")
        }
        defer { server.stop() }
        let response = try await transport.send(TransportRequest(method: "GET", url: server.url("/start")))
        #expect(response.status == 302)
        #expect(String(decoding: response.body, as: UTF8.self) == "Found. Redirecting to /next")
        #expect(server.requests.map(\.path) == ["/start"])
    }

    @Test("a slow server times out with .timeout, and the request is abandoned", arguments: TransportKind.allCases)
    func timeout(kind: TransportKind) async throws {
        let transport = kind.make()
        // The server would answer after an hour: only the client's 0.4 s timeout can end the request.
        let server = try TestHTTPServer { _ in .delay(3600, then: .text("late")) }
        defer { server.stop() }
        let error = await #expect(throws: AuthError.self) {
            try await transport.send(
                TransportRequest(method: "GET", url: server.url("/slow?code=secret-code"), timeout: 0.4))
        }
        #expect(error?.code == .timeout)
        #expect(error?.kind == .transport)
        #expect(error?.message.contains("secret-code") == false)
        // At most the one request (a loaded machine may time out before the server even read it), and the client
        // closed its connection: the server's hour-long wait ended early.
        #expect(server.requests.count <= 1)
        #expect(await Self.connectionsClose(on: server))
    }

    /// Whether the server's connections all close (the client abandoned them); waits for it (the suite's time
    /// limit ends a wait that never sees it).
    private static func connectionsClose(on server: TestHTTPServer) async -> Bool {
        await server.allConnectionsClosed()
    }

    @Test("a body over the cap fails with .responseTooLarge (Content-Length)", arguments: TransportKind.allCases)
    func tooLargeByContentLength(kind: TransportKind) async throws {
        let server = try TestHTTPServer { _ in TestResponse(body: Data(repeating: 0x41, count: 5000)) }
        defer { server.stop() }
        let small = kind.make(maximumResponseBytes: 1000)
        let error = await #expect(throws: AuthError.self) {
            try await small.send(TransportRequest(method: "GET", url: server.url("/big")))
        }
        #expect(error?.code == .responseTooLarge)
    }

    @Test(
        "a streamed body over the cap fails with .responseTooLarge (no Content-Length)",
        arguments: TransportKind.allCases)
    func tooLargeStreamed(kind: TransportKind) async throws {
        let server = try TestHTTPServer { _ in
            TestResponse(headers: [("Transfer-Encoding", "chunked")], body: Data(repeating: 0x41, count: 50_000))
        }
        defer { server.stop() }
        let small = kind.make(maximumResponseBytes: 10_000)
        let error = await #expect(throws: AuthError.self) {
            try await small.send(TransportRequest(method: "GET", url: server.url("/big")))
        }
        #expect(error?.code == .responseTooLarge)
        let exact = kind.make(maximumResponseBytes: 50_000)
        let response = try await exact.send(TransportRequest(method: "GET", url: server.url("/big")))
        #expect(response.body.count == 50_000)
    }

    @Test("a dropped connection fails with .networkError", arguments: TransportKind.allCases)
    func droppedConnection(kind: TransportKind) async throws {
        let transport = kind.make()
        let server = try TestHTTPServer { _ in .dropConnection }
        defer { server.stop() }
        let error = await #expect(throws: AuthError.self) {
            try await transport.send(
                TransportRequest(method: "POST", url: server.url("/token"), body: Data("x=1".utf8)))
        }
        #expect(error?.code == .networkError)
        #expect(server.requests.count == 1)
    }

    @Test("a connection reset mid-body fails with a transport error", arguments: TransportKind.allCases)
    func resetMidBody(kind: TransportKind) async throws {
        let transport = kind.make()
        let server = try TestHTTPServer { _ in .resetMidBody }
        defer { server.stop() }
        let error = await #expect(throws: AuthError.self) {
            try await transport.send(TransportRequest(method: "GET", url: server.url("/token")))
        }
        #expect(error?.kind == .transport)
        #expect(error?.code == .networkError)
    }

    @Test(
        "a refused connection fails with .networkError and no query string in the message",
        arguments: TransportKind.allCases)
    func refused(kind: TransportKind) async throws {
        let transport = kind.make()
        // A reserved port: a stopped server's port could go to another test's server meanwhile.
        let closed = try ClosedPort()
        defer { closed.close() }
        let url = closed.url("/callback?code=very-secret&state=s")
        let error = await #expect(throws: AuthError.self) {
            try await transport.send(TransportRequest(method: "GET", url: url))
        }
        #expect(error?.code == .networkError)
        #expect(error?.message.contains("very-secret") == false)
        #expect(error?.message.contains("/callback") == true)
    }

    @Test("cookies are neither stored nor sent", arguments: TransportKind.allCases)
    func noCookies(kind: TransportKind) async throws {
        let transport = kind.make()
        let server = try TestHTTPServer { _ in .text("hi", headers: [("Set-Cookie", "session=abc; Path=/")]) }
        defer { server.stop() }
        _ = try await transport.send(TransportRequest(method: "GET", url: server.url("/one")))
        _ = try await transport.send(TransportRequest(method: "GET", url: server.url("/two")))
        #expect(server.requests.count == 2)
        #expect(server.requests.allSatisfy { $0.header("Cookie") == nil })
    }

    @Test("an injected configuration keeps the hardening")
    func injectedConfiguration() async throws {
        let configuration = URLSessionConfiguration.default
        configuration.httpAdditionalHeaders = ["X-Injected": "1"]
        let injected = URLSessionHTTPTransport(configuration: configuration, maximumResponseBytes: 100)
        let server = try TestHTTPServer { request in
            request.path == "/big" ? .text(String(repeating: "z", count: 200)) : .redirect(to: "/elsewhere")
        }
        defer { server.stop() }
        let response = try await injected.send(TransportRequest(method: "GET", url: server.url("/r")))
        #expect(response.status == 302)
        #expect(server.requests.first?.header("X-Injected") == "1")
        await #expect(throws: AuthError.self) {
            try await injected.send(TransportRequest(method: "GET", url: server.url("/big")))
        }
        #expect(server.requests.count == 2)
    }

    @Test("cancelling the calling task ends the request and abandons its connection", arguments: TransportKind.allCases)
    func cancellation(kind: TransportKind) async throws {
        let transport = kind.make()
        // Neither the server (an hour) nor the request's timeout (an hour) ends the request: only cancellation.
        let server = try TestHTTPServer { _ in .delay(3600, then: .text("late")) }
        defer { server.stop() }
        let task = Task { () throws(AuthError) -> TransportResponse in
            try await transport.send(TransportRequest(method: "GET", url: server.url("/slow"), timeout: 3600))
        }
        await server.requests(atLeast: 1)
        #expect(server.requests.map(\.path) == ["/slow"])
        task.cancel()
        let result = await task.result
        guard case .failure(let error) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect((error as? AuthError)?.code == .networkError)
        #expect(await Self.connectionsClose(on: server))
    }
}
