import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("LoopbackRedirectServer")
struct LoopbackRedirectServerTests {
    @Test("delivers the callback URL, shows the success page, then stops listening")
    func success() async throws {
        let server = try LoopbackRedirectServer(
            expectedState: "st-1", pages: LoopbackPages(success: .html("<p>done</p>")))
        #expect(server.redirectURI.absoluteString == "http://127.0.0.1:\(server.port)/callback")
        #expect(await RawHTTPClient.isListening(port: server.port))
        async let callback = server.waitForCallback()
        let response = await RawHTTPClient.get(port: server.port, target: "/callback?code=abc%2F1&state=st-1")
        let url = try await callback
        #expect(url.absoluteString == "http://127.0.0.1:\(server.port)/callback?code=abc%2F1&state=st-1")
        #expect(response?.status == 200)
        #expect(response?.body == "<p>done</p>")
        #expect(response?.head.contains("Referrer-Policy: no-referrer") == true)
        #expect(response?.head.contains("Cache-Control: no-store") == true)
        #expect(!server.isListening)
        // Waiting again returns the same outcome.
        #expect(try await server.waitForCallback() == url)
    }

    @Test("a callback that arrives before waitForCallback() is kept")
    func earlyCallback() async throws {
        let server = try LoopbackRedirectServer(expectedState: nil)
        let response = await RawHTTPClient.get(port: server.port, target: "/callback?code=early")
        #expect(response?.status == 200)
        let url = try await server.waitForCallback()
        #expect(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value == "early")
    }

    @Test("localhost:PORT is an accepted Host")
    func localhostHost() async throws {
        let server = try LoopbackRedirectServer(expectedState: "s")
        let response = await RawHTTPClient.get(
            port: server.port, target: "/callback?state=s&code=1", host: "LOCALHOST:\(server.port)")
        #expect(response?.status == 200)
        _ = try await server.waitForCallback()
    }

    @Test("wrong Host, path or method is refused and the server keeps waiting")
    func rejectsAndKeepsWaiting() async throws {
        let server = try LoopbackRedirectServer(expectedState: "good")
        let port = server.port
        async let callback = server.waitForCallback()

        let wrongHost = await RawHTTPClient.get(
            port: port, target: "/callback?code=1&state=good", host: "evil.example:\(port)")
        #expect(wrongHost?.status == 400)
        let wrongPort = await RawHTTPClient.get(
            port: port, target: "/callback?code=1&state=good", host: "127.0.0.1:\(port + 1)")
        #expect(wrongPort?.status == 400)
        let noHost = await RawHTTPClient.exchange(port: port, lines: ["GET /callback?code=1&state=good HTTP/1.1"])
        #expect(noHost?.status == 400)
        let wrongPath = await RawHTTPClient.get(port: port, target: "/callback/extra?code=1&state=good")
        #expect(wrongPath?.status == 404)
        let favicon = await RawHTTPClient.get(port: port, target: "/favicon.ico")
        #expect(favicon?.status == 404)
        let post = await RawHTTPClient.exchange(
            port: port,
            lines: ["POST /callback?code=1&state=good HTTP/1.1", "Host: 127.0.0.1:\(port)", "Content-Length: 0"])
        #expect(post?.status == 405)
        let huge = await RawHTTPClient.exchange(
            port: port,
            lines: [
                "GET /callback?code=1&state=good HTTP/1.1", "Host: 127.0.0.1:\(port)",
                "X-Pad: " + String(repeating: "p", count: 17_000),
            ])
        #expect(huge?.status == 431)
        #expect(await RawHTTPClient.isListening(port: port))

        let good = await RawHTTPClient.get(port: port, target: "/callback?code=real&state=good")
        #expect(good?.status == 200)
        #expect(try await callback.query == "code=real&state=good")
    }

    @Test(
        "a missing or wrong state answers 400 and keeps waiting: the real callback still completes",
        arguments: [
            "/callback?code=1&state=bad", "/callback?code=1", "/callback?code=1&state=good&state=bad",
            "/callback?error=access_denied", "/callback?error=access_denied&state=bad",
        ])
    func stateMismatch(target: String) async throws {
        let server = try LoopbackRedirectServer(
            expectedState: "good", pages: LoopbackPages(failure: .html("<p>failed</p>")))
        let callback = Task { try await server.waitForCallback() }
        let response = await RawHTTPClient.get(port: server.port, target: target)
        #expect(response?.status == 400)
        #expect(response?.body == "<p>failed</p>")
        #expect(await RawHTTPClient.isListening(port: server.port))
        let real = await RawHTTPClient.get(port: server.port, target: "/callback?code=real&state=good")
        #expect(real?.status == 200)
        #expect(try await callback.value.query == "code=real&state=good")
        #expect(!server.isListening)
    }

    @Test("connections held open and silent by another program never lock out the real callback")
    func idleConnectionsAreEvicted() async throws {
        let server = try LoopbackRedirectServer(expectedState: "good")
        let port = server.port
        let callback = Task { try await server.waitForCallback() }
        let idleCount = LoopbackRedirectServer.maximumConnections + 4
        let idle = await DedicatedThread.run { (0..<idleCount).map { _ in RawHTTPClient.connect(port: port) } }
        defer { for descriptor in idle where descriptor >= 0 { close(descriptor) } }
        #expect(idle.allSatisfy { $0 >= 0 })
        let real = await RawHTTPClient.get(port: port, target: "/callback?code=real&state=good")
        #expect(real?.status == 200)
        #expect(try await callback.value.query == "code=real&state=good")
    }

    @Test("a Host naming the loopback address on another interface or with user info is refused")
    func hostVariants() async throws {
        let server = try LoopbackRedirectServer(expectedState: "good")
        let port = server.port
        async let callback = server.waitForCallback()
        for host in [
            "[::1]:\(port)", "127.0.0.2:\(port)", "127.0.0.1", "user@127.0.0.1:\(port)",
            "127.0.0.1:\(port).evil.example",
            "localhost.:\(port)",
        ] {
            let response = await RawHTTPClient.get(port: port, target: "/callback?code=1&state=good", host: host)
            #expect(response?.status == 400, "Host: \(host)")
        }
        let twoHosts = await RawHTTPClient.exchange(
            port: port,
            lines: [
                "GET /callback?code=1&state=good HTTP/1.1", "Host: 127.0.0.1:\(port)", "Host: evil.example:\(port)",
            ])
        #expect(twoHosts?.status == 400)
        let good = await RawHTTPClient.get(port: port, target: "/callback?code=real&state=good")
        #expect(good?.status == 200)
        #expect(try await callback.query == "code=real&state=good")
    }

    @Test("only one callback: a second connection is refused")
    func secondRequestRefused() async throws {
        let server = try LoopbackRedirectServer(expectedState: nil)
        let first = await RawHTTPClient.get(port: server.port, target: "/callback?code=1")
        #expect(first?.status == 200)
        _ = try await server.waitForCallback()
        // Closed once the callback came. The listener's own state, not a probe of the port: once closed, the
        // port may already serve another test.
        #expect(!server.isListening)
    }

    @Test("an error callback is delivered, with the failure page")
    func errorCallback() async throws {
        let server = try LoopbackRedirectServer(expectedState: "s", pages: LoopbackPages(failure: .html("nope")))
        let response = await RawHTTPClient.get(port: server.port, target: "/callback?error=access_denied&state=s")
        #expect(response?.body == "nope")
        #expect(try await server.waitForCallback().query == "error=access_denied&state=s")
    }

    @Test("times out with .timeout and closes the port")
    func timeout() async throws {
        let server = try LoopbackRedirectServer(expectedState: "s", timeout: .milliseconds(300))
        let start = MonotonicInstant.now
        let error = await #expect(throws: AuthError.self) { try await server.waitForCallback() }
        #expect(error?.code == .timeout)
        #expect(error?.kind == .transport)
        #expect(error?.message == "no callback within 0.3 seconds")
        // The deadline was honoured (no upper bound: a loaded machine may wake the timer late).
        #expect(MonotonicInstant.now - start >= .milliseconds(250))
        // Not a probe of the port: in the time the wait took, the system may have handed it to another test's
        // server (a CI run met one there).
        #expect(!server.isListening)
    }

    @Test("cancel() and task cancellation end the wait with .loginCancelled")
    func cancellation() async throws {
        // The port is probed right after cancel() on the same thread: once closed, the system may hand the port
        // to another test's server, so a probe a moment later could meet that one (the 1-in-3 flake). A path of
        // their own keeps stray callbacks of other tests from claiming these flows.
        let path = "/cancellation-\(UUID().uuidString)"
        let server = try LoopbackRedirectServer(path: path, expectedState: nil)
        let waiting = Task { try await server.waitForCallback() }
        #expect(
            await RawHTTPClient.refuses(port: server.port) {
                server.cancel()
                server.cancel()
            })
        let result = await waiting.result
        #expect((result.failure as? AuthError)?.code == .loginCancelled)

        // Task cancellation: an idle connection, which only the end of the flow can close (its read timeout is
        // an hour), shows the server shut down; finish() closes the listener before the connections.
        let other = try LoopbackRedirectServer(
            path: path, expectedState: nil, timeout: .seconds(3600), successPage: .html("ok"), failurePage: .html("no"),
            address: .ipv4, connectionReadTimeout: .seconds(3600))
        let otherPort = other.port
        let idle = await DedicatedThread.run { RawHTTPClient.connect(port: otherPort) }
        try #require(idle >= 0)
        defer { close(idle) }
        // Accepted first: a connection still in the listen backlog when the listener closes is reset by the
        // system (ECONNRESET), which says nothing about how the server ends the connections it holds.
        while other.openConnections == 0 { try await LatchkeyDuration.sleep(.milliseconds(5)) }
        // Cancelled before or during the wait, whichever comes first here: both end the flow the same way.
        let task = Task { try await other.waitForCallback() }
        task.cancel()
        #expect((await task.result.failure as? AuthError)?.code == .loginCancelled)
        #expect(await DedicatedThread.run { RawHTTPClient.closedSilently(idle) })
    }

    @Test("a client that stalls mid-request gets 408 after the read timeout; the wait goes on")
    func stalledClient() async throws {
        let server = try LoopbackRedirectServer(
            path: "/callback", expectedState: nil, timeout: .seconds(30), successPage: .html("ok"),
            failurePage: .html("no"),
            address: .ipv4, connectionReadTimeout: .milliseconds(300))
        let port = server.port
        let start = MonotonicInstant.now
        let stalled = await DedicatedThread.run { () -> RawHTTPClient.Response? in
            let descriptor = RawHTTPClient.connect(port: port)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            let partial = Array("GET /callback?code=1 HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n".utf8)
            _ = RawHTTPClient.sendAll(descriptor, partial)
            return RawHTTPClient.readResponse(descriptor)
        }
        #expect(stalled?.status == 408)
        #expect(MonotonicInstant.now - start >= .milliseconds(250))
        #expect(await RawHTTPClient.isListening(port: port))
        let response = await RawHTTPClient.get(port: port, target: "/callback?code=2")
        #expect(response?.status == 200)
        #expect(try await server.waitForCallback().query == "code=2")
    }

    @Test("an idle connection does not block the callback and is shut down when the flow ends")
    func slowClients() async throws {
        // A read timeout far beyond the test, so that only the end of the flow can end the idle connection.
        let server = try LoopbackRedirectServer(
            path: "/callback", expectedState: nil, timeout: .seconds(3600), successPage: .html("ok"),
            failurePage: .html("no"),
            address: .ipv4, connectionReadTimeout: .seconds(3600))
        let port = server.port
        let idle = await DedicatedThread.run { RawHTTPClient.connect(port: port) }
        #expect(idle >= 0)
        defer { close(idle) }
        let response = await RawHTTPClient.get(port: port, target: "/callback?code=1")
        #expect(response?.status == 200)
        _ = try await server.waitForCallback()
        // The idle connection was shut down when the flow ended.
        let leftover = await DedicatedThread.run { RawHTTPClient.readResponse(idle) }
        #expect(leftover == nil)
    }

    @Test("the deinit closes the port")
    func deinitCloses() async throws {
        var server: LoopbackRedirectServer? = try LoopbackRedirectServer(expectedState: nil)
        let port = try #require(server?.port)
        #expect(await RawHTTPClient.isListening(port: port))
        server = nil
        #expect(!(await RawHTTPClient.isListening(port: port)))
    }

    @Test("rejects a bad path")
    func badPath() {
        for path in ["callback", "/cb?x=1", "/cb#f", "/c b"] {
            #expect(throws: AuthError.self) { try LoopbackRedirectServer(path: path, expectedState: nil) }
        }
    }

    @Test("custom path, and [::1] when the system has IPv6")
    func ipv6() async throws {
        guard let server = try? LoopbackRedirectServer(path: "/oauth/done", expectedState: nil, address: .ipv6) else {
            return  // no IPv6 loopback here
        }
        #expect(server.redirectURI.absoluteString == "http://[::1]:\(server.port)/oauth/done")
        let wrongFamily = await RawHTTPClient.get(
            port: server.port, target: "/oauth/done?code=1", host: "127.0.0.1:\(server.port)", ipv6: true)
        #expect(wrongFamily?.status == 400)
        let response = await RawHTTPClient.get(
            port: server.port, target: "/oauth/done?code=1", host: "[::1]:\(server.port)", ipv6: true)
        #expect(response?.status == 200)
        #expect(try await server.waitForCallback().absoluteString == "http://[::1]:\(server.port)/oauth/done?code=1")
        #expect(!server.isListening)
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
