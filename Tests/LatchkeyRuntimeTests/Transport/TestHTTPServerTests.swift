import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("TestHTTPServer", timeLimit(minutes: 2))
struct TestHTTPServerTests {
    @Test("binds 127.0.0.1 on an ephemeral port and stops idempotently")
    func lifecycle() async throws {
        let server = try TestHTTPServer { _ in .text("ok") }
        #expect(server.port > 0)
        #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
        #expect(await RawHTTPClient.isListening(port: server.port))
        #expect(
            await RawHTTPClient.refuses(port: server.port) {
                server.stop()
                server.stop()
            })
    }

    @Test("deinit stops the server")
    func deinitStops() async throws {
        var server: TestHTTPServer? = try TestHTTPServer { _ in .text("ok") }
        let port = try #require(server?.port)
        #expect(await RawHTTPClient.isListening(port: port))
        server = nil
        #expect(!(await RawHTTPClient.isListening(port: port)))
    }

    @Test("records requests in order, with decoded query items and ordered, case-preserving headers")
    func recording() async throws {
        let server = try TestHTTPServer { request in .text("seen \(request.path)") }
        defer { server.stop() }
        let first = await RawHTTPClient.exchange(
            port: server.port,
            lines: [
                "GET /a/b%20c?x=1&y=hello+world&z=%26%3D&x=2&flag HTTP/1.1", "Host: here", "X-One: 1", "x-TWO:  two  ",
            ])
        #expect(first?.status == 200)
        #expect(first?.body == "seen /a/b%20c")
        #expect(first?.head.contains("Connection: close") == true)
        _ = await RawHTTPClient.get(port: server.port, target: "/second")

        let requests = server.requests
        #expect(requests.map(\.path) == ["/a/b%20c", "/second"])
        let request = try #require(requests.first)
        #expect(request.rawQuery == "x=1&y=hello+world&z=%26%3D&x=2&flag")
        #expect(request.queryItems.map(\.name) == ["x", "y", "z", "x", "flag"])
        #expect(request.queryItems.map(\.value) == ["1", "hello world", "&=", "2", ""])
        #expect(request.query("x") == "1")
        #expect(request.headers.map(\.name) == ["Host", "X-One", "x-TWO"])
        #expect(request.header("X-TWO") == "two")
        server.resetRecording()
        #expect(server.requests.isEmpty)
    }

    @Test("decodes chunked request bodies")
    func chunkedBody() async throws {
        let server = try TestHTTPServer { request in .json(["got": request.formBody["a"] ?? "-"]) }
        defer { server.stop() }
        let response = await RawHTTPClient.exchange(
            port: server.port,
            lines: [
                "POST /form HTTP/1.1", "Host: x", "Transfer-Encoding: chunked",
                "Content-Type: application/x-www-form-urlencoded",
            ],
            body: "4\r\na=he\r\n6;ext=1\r\nllo%21\r\n0\r\nX-Trailer: t\r\n\r\n")
        #expect(response?.status == 200)
        #expect(response?.body == #"{"got":"hello!"}"#)
        #expect(server.requests.first?.bodyText == "a=hello%21")
    }

    @Test("JSON bodies and responses")
    func json() async throws {
        struct Reply: Encodable { var b = 2, a = "x" }
        let server = try TestHTTPServer { request in
            let object = request.jsonBody as? [String: Any]
            return object?["kind"] as? String == "encodable" ? .json(encoding: Reply()) : .json(["n": 1, "s": "t"])
        }
        defer { server.stop() }
        let plain = await RawHTTPClient.exchange(
            port: server.port, lines: ["POST / HTTP/1.1", "Host: x", "Content-Length: 2"], body: "{}")
        #expect(plain?.body == #"{"n":1,"s":"t"}"#)
        let encoded = await RawHTTPClient.exchange(
            port: server.port, lines: ["POST / HTTP/1.1", "Host: x", "Content-Length: 20"],
            body: #"{"kind":"encodable"}"#)
        #expect(encoded?.body == #"{"a":"x","b":2}"#)
    }

    @Test("refuses oversized and malformed requests")
    func limits() async throws {
        let server = try TestHTTPServer(maximumRequestBytes: 1000) { _ in .text("ok") }
        defer { server.stop() }
        let big = await RawHTTPClient.exchange(
            port: server.port, lines: ["POST / HTTP/1.1", "Host: x", "Content-Length: 5000"],
            body: String(repeating: "a", count: 5000))
        #expect(big?.status == 413)
        let chunkedBig = await RawHTTPClient.exchange(
            port: server.port, lines: ["POST / HTTP/1.1", "Host: x", "Transfer-Encoding: chunked"],
            body: "7d0\r\n" + String(repeating: "a", count: 2000) + "\r\n0\r\n\r\n")
        #expect(chunkedBig?.status == 413)
        let smuggling = await RawHTTPClient.exchange(
            port: server.port,
            lines: ["POST / HTTP/1.1", "Host: x", "Content-Length: 3", "Transfer-Encoding: chunked"], body: "0\r\n\r\n")
        #expect(smuggling?.status == 400)
        let garbage = await RawHTTPClient.exchange(port: server.port, lines: ["NOT HTTP AT ALL"])
        #expect(garbage?.status == 400)
        #expect(server.requests.isEmpty)
    }

    @Test("a delayed response is cut short by stop(), and stop() leaves no connection open")
    func stopDuringDelay() async throws {
        // An hour-long delay: the client can only see the connection end because stop() cut it short.
        let server = try TestHTTPServer { _ in .delay(3600, then: .text("late")) }
        let port = server.port
        let pending = Task { await RawHTTPClient.get(port: port, target: "/slow") }
        await server.requests(atLeast: 1)
        #expect(await RawHTTPClient.refuses(port: port) { server.stop() })
        let response = await pending.value
        #expect(response == nil)
    }

    @Test("handles concurrent connections")
    func concurrent() async throws {
        let server = try TestHTTPServer { request in
            request.path == "/slow" ? .delay(30, then: .text("slow")) : .text("fast")
        }
        defer { server.stop() }
        let port = server.port
        let slow = Task { await RawHTTPClient.get(port: port, target: "/slow") }
        await server.requests(atLeast: 1)
        // The slow request holds its connection for 30 s; another one is served meanwhile.
        let fast = await RawHTTPClient.get(port: port, target: "/fast")
        #expect(fast?.body == "fast")
        server.stop()
        #expect(await slow.value == nil)
    }
}
