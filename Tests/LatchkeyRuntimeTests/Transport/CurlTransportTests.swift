#if os(Linux)
    import Foundation
    import LatchkeyPlatform
    @_spi(Generated) @testable import LatchkeyRuntime
    @_spi(Generated) import LatchkeyTesting
    import Testing

    /// What only the libcurl transport (the Linux default) promises: a hostile response is refused at its head or
    /// cut at the cap without reading on, connections are reused, and a missing libcurl falls back to URLSession.
    @Suite("CurlHTTPTransport (the Linux default)", timeLimit(minutes: 2))
    struct CurlTransportTests {
        @Test("the Linux default is the libcurl transport; without libcurl it is URLSession")
        func defaultAndFallback() throws {
            #expect(AuthClientOptions.defaultTransport() is CurlHTTPTransport)
            #expect(AuthClientOptions().transport is CurlHTTPTransport)
            #expect(CurlHTTPTransport(library: "libcurl-latchkey-missing.so.0", maximumResponseBytes: 10) == nil)
            let fallback = AuthClientOptions.defaultTransport(
                curlLibrary: "libcurl-latchkey-missing.so.0", maximumResponseBytes: 1234)
            let urlSession = try #require(fallback as? URLSessionHTTPTransport)
            #expect(urlSession.maximumResponseBytes == 1234)
        }

        @Test("the fallback transport sends requests")
        func fallbackSends() async throws {
            let server = try TestHTTPServer { _ in .text("ok") }
            defer { server.stop() }
            let fallback = AuthClientOptions.defaultTransport(
                curlLibrary: "libcurl-latchkey-missing.so.0", maximumResponseBytes: 1 << 20)
            let response = try await fallback.send(TransportRequest(method: "GET", url: server.url("/x")))
            #expect(String(decoding: response.body, as: UTF8.self) == "ok")
            #expect(server.requests.map(\.path) == ["/x"])
        }

        @Test("a compressed body of a GiB is refused at its head: the server gets little of it out")
        func compressedBodyRefusedAtTheHead() async throws {
            let body = StreamedBody(chunk: Data(repeating: 0x1F, count: 64 * 1024), budget: 1 << 30)
            let server = try TestHTTPServer { _ in .streamed(headers: [("Content-Encoding", "gzip, gzip")], body: body)
            }
            defer { server.stop() }
            let error = await #expect(throws: AuthError.self) {
                try await AuthClientOptions.defaultTransport().send(
                    TransportRequest(method: "GET", url: server.url("/jwks")))
            }
            #expect(error?.code == .invalidResponse)
            #expect(error?.message.contains("“gzip, gzip”") == true)
            #expect(await server.allConnectionsClosed())
            // What the server wrote is what the socket buffers took before the client hung up.
            #expect(body.bytesWritten < 64 << 20, "the server wrote \(body.bytesWritten) bytes")
        }

        @Test("a coding in a second Content-Encoding field is refused too")
        func secondContentEncodingField() async throws {
            let body = StreamedBody(chunk: Data("x".utf8), budget: 0, stallsAfterwards: true)
            let server = try TestHTTPServer { _ in
                .streamed(headers: [("Content-Encoding", "identity"), ("Content-Encoding", "gzip")], body: body)
            }
            defer { server.stop() }
            let error = await #expect(throws: AuthError.self) {
                try await AuthClientOptions.defaultTransport().send(
                    TransportRequest(method: "GET", url: server.url("/jwks"), timeout: 3600))
            }
            #expect(error?.code == .invalidResponse)
            #expect(error?.message.contains("“identity, gzip”") == true)
        }

        @Test("a GiB of plain body at the loopback's line rate stops at the cap, not after the socket ran dry")
        func lineRateBodyStopsAtTheCap() async throws {
            let body = StreamedBody(chunk: Data(repeating: 0x41, count: 64 * 1024), budget: 1 << 30)
            let server = try TestHTTPServer { _ in
                .streamed(headers: [("Content-Type", "application/json")], body: body)
            }
            defer { server.stop() }
            let error = await #expect(throws: AuthError.self) {
                try await AuthClientOptions.defaultTransport().send(
                    TransportRequest(method: "GET", url: server.url("/userinfo")))
            }
            #expect(error?.code == .responseTooLarge)
            #expect(await server.allConnectionsClosed())
            #expect(body.bytesWritten < 64 << 20, "the server wrote \(body.bytesWritten) bytes")
        }

        @Test("HEAD, PUT without a body, DELETE with one, an empty POST: the method and body arrive as sent")
        func methods() async throws {
            let server = try TestHTTPServer { request in .text("\(request.method) \(request.body.count)") }
            defer { server.stop() }
            let transport = AuthClientOptions.defaultTransport()
            let cases: [(String, Data?, String)] = [
                ("HEAD", nil, ""), ("PUT", nil, "PUT 0"), ("DELETE", Data("a=1".utf8), "DELETE 3"),
                ("POST", nil, "POST 0"), ("PATCH", Data("{}".utf8), "PATCH 2"),
            ]
            for (method, body, answer) in cases {
                let response = try await transport.send(
                    TransportRequest(method: method, url: server.url("/m"), body: body))
                #expect(String(decoding: response.body, as: UTF8.self) == answer, "\(method)")
            }
            #expect(server.requests.map(\.method) == cases.map(\.0))
            #expect(server.requests.map(\.body) == cases.map { $0.1 ?? Data() })
            // Accept-Encoding: identity and no Expect: 100-continue, whatever the request said.
            #expect(server.requests.allSatisfy { $0.headerValues("Accept-Encoding") == ["identity"] })
            #expect(server.requests.allSatisfy { $0.header("Expect") == nil })
        }

        @Test("repeated request fields are joined into the first, as URLSession does; an empty value is sent")
        func requestFields() async throws {
            let server = try TestHTTPServer { _ in .text("ok") }
            defer { server.stop() }
            _ = try await AuthClientOptions.defaultTransport().send(
                TransportRequest(
                    method: "GET", url: server.url("/h"),
                    headers: [("X-A", "1"), ("X-Empty", ""), ("x-a", "2"), ("Accept-Encoding", "gzip")]))
            let request = try #require(server.requests.first)
            #expect(request.headerValues("X-A") == ["1,2"])
            #expect(request.headerValues("X-Empty") == [""])
            #expect(request.headerValues("Accept-Encoding") == ["identity"])
        }

        @Test("two sequential requests share one connection")
        func connectionReuse() async throws {
            let server = try KeepAliveServer()
            defer { server.stop() }
            let transport = AuthClientOptions.defaultTransport()
            for path in ["/one", "/two"] {
                let response = try await transport.send(
                    TransportRequest(method: "GET", url: URL(string: "http://127.0.0.1:\(server.port)\(path)")!))
                #expect(String(decoding: response.body, as: UTF8.self) == "ok")
            }
            #expect(server.requestCount == 2)
            #expect(server.connectionCount == 1)
        }

        @Test("only http and https: another scheme is refused without a request")
        func otherSchemesRefused() async throws {
            let error = await #expect(throws: AuthError.self) {
                try await AuthClientOptions.defaultTransport().send(
                    TransportRequest(method: "GET", url: URL(string: "file:///etc/passwd")!))
            }
            #expect(error?.code == .networkError)
            #expect(error?.message.contains("unsupported URL") == true)
        }
    }

    /// A server that keeps its connections open between requests (HTTP/1.1 keep-alive) and counts them: what
    /// ``TestHTTPServer`` (one request per connection) cannot tell.
    final class KeepAliveServer: Sendable {
        private let listener: ListeningSocket
        private let counts = Locked((connections: 0, requests: 0))

        var port: Int { listener.port }
        var connectionCount: Int { counts.withLock { $0.connections } }
        var requestCount: Int { counts.withLock { $0.requests } }

        init() throws {
            listener = try ListeningSocket(address: .ipv4)
            let thread = Thread { [listener, counts] in
                while let descriptor = listener.accept() {
                    counts.withLock { $0.connections += 1 }
                    let connection = Thread { Self.serve(descriptor, counts: counts) }
                    connection.start()
                }
            }
            thread.start()
        }

        func stop() { listener.close() }

        private static func serve(_ descriptor: Int32, counts: Locked<(connections: Int, requests: Int)>) {
            defer { close(descriptor) }
            while case .head = HTTPHeadReader.read(descriptor, limit: 64 * 1024, deadline: .now + .seconds(10)) {
                counts.withLock { $0.requests += 1 }
                guard SocketIO.writeAll(descriptor, Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8))
                else { return }
            }
        }
    }
#endif
