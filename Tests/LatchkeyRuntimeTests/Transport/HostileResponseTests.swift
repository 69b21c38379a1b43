import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
    import LatchkeyPlatform
#endif

/// Responses built to exhaust the client: compressed bodies that inflate past the cap, bodies that never end,
/// and a `Content-Length` far over the cap with nothing behind it.
@Suite("HTTP transports (URLSession, the platform default) against hostile responses", timeLimit(minutes: 2))
struct HostileResponseTests {
    /// 79 bytes: 4 MiB of zeros, gzip-compressed twice (`Content-Encoding: gzip, gzip`), four times the default
    /// cap once inflated (generated once with Python's zlib).
    static let gzipBomb = Data(
        base64Encoded:
            "H4sIAAAAAAACA5Pv5mAAASbmtwcZGYGMJoX/6/M8HBgZRsEoGAWjYBSMglEwCkbBKBgFo2AUjIJRMNRBjXSWg7sgA4MDAwBZZBRbAhAAAA=="
    )!

    @Test(
        "every request says Accept-Encoding: identity, whatever the request or the configuration asked for",
        arguments: [nil, "gzip, deflate, br", "identity"])
    func acceptEncodingIdentity(requested: String?) async throws {
        let server = try TestHTTPServer { _ in .text("ok") }
        defer { server.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["Accept-Encoding": "gzip"]
        let transports: [any HTTPTransport] = [
            URLSessionHTTPTransport(), URLSessionHTTPTransport(configuration: configuration),
            AuthClientOptions.defaultTransport(),
        ]
        for transport in transports {
            server.resetRecording()
            let headers = requested.map { [(name: "accept-encoding", value: $0)] } ?? []
            _ = try await transport.send(TransportRequest(method: "GET", url: server.url("/x"), headers: headers))
            let request = try #require(server.requests.first)
            #expect(request.headerValues("Accept-Encoding") == ["identity"])
        }
    }

    @Test(
        "a response naming a content coding is refused when its head arrives, before any body byte",
        arguments: TransportKind.allCases,
        ["gzip", "gzip, gzip", "deflate", "br", "zstd", "x-proprietary", "identity, gzip"])
    func contentCodingRefusedAtTheHead(kind: TransportKind, coding: String) async throws {
        // The head announces a coding, then nothing comes: only a refusal at the head ends the request before
        // its 30 s deadline.
        let body = StreamedBody(chunk: Data("x".utf8), budget: 0, stallsAfterwards: true)
        let server = try TestHTTPServer { _ in .streamed(headers: [("Content-Encoding", coding)], body: body) }
        defer { server.stop() }
        let started = MonotonicInstant.now
        let error = await #expect(throws: AuthError.self) {
            try await kind.make().send(
                TransportRequest(method: "GET", url: server.url("/token"), timeout: 30))
        }
        #expect(error?.code == .invalidResponse)
        #expect(error?.status == 200)
        #expect(error?.message.contains("Content-Encoding") == true)
        #expect(MonotonicInstant.now - started < .seconds(10))
        #expect(await server.allConnectionsClosed())
    }

    @Test(
        "a real gzip bomb (79 bytes, 4 MiB inflated) is refused with invalid_response, not read",
        arguments: TransportKind.allCases)
    func gzipBomb(kind: TransportKind) async throws {
        let server = try TestHTTPServer { _ in
            TestResponse(
                headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip, gzip")],
                body: Self.gzipBomb)
        }
        defer { server.stop() }
        let error = await #expect(throws: AuthError.self) {
            try await kind.make().send(TransportRequest(method: "GET", url: server.url("/jwks")))
        }
        #expect(error?.code == .invalidResponse)
        #expect(error?.message.contains("“gzip, gzip”") == true)
    }

    @Test(
        "identity, or an empty Content-Encoding, is the body as it is",
        arguments: TransportKind.allCases, ["identity", "Identity", ""])
    func identityAccepted(kind: TransportKind, coding: String) async throws {
        let server = try TestHTTPServer { _ in .json(["ok": true], headers: [("Content-Encoding", coding)]) }
        defer { server.stop() }
        let response = try await kind.make().send(TransportRequest(method: "GET", url: server.url("/")))
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":true}"#)
    }

    @Test(
        "an endless plain body is cut at the cap: the client hangs up long before the server is done",
        arguments: TransportKind.allCases)
    func endlessBodyCutAtTheCap(kind: TransportKind) async throws {
        // 64 KiB a millisecond at most (~60 MiB/s, a fast link), 1 GiB in all: about 17 s of body unless the client
        // hangs up.
        let body = StreamedBody(
            chunk: Data(repeating: 0x41, count: 64 * 1024), budget: 1 << 30, pause: .milliseconds(1))
        let server = try TestHTTPServer { _ in .streamed(headers: [("Content-Type", "application/json")], body: body) }
        defer { server.stop() }
        let error = await #expect(throws: AuthError.self) {
            try await kind.make().send(TransportRequest(method: "GET", url: server.url("/userinfo")))
        }
        #expect(error?.code == .responseTooLarge)
        #expect(await server.allConnectionsClosed())
        #expect(body.isFinished)
        // The cap is 1 MiB; the request is cancelled the moment the count passes it. What the server got out
        // meanwhile is the cancellation's latency times the pace: a few MiB, never the gibibyte.
        #expect(body.bytesWritten < 128 << 20, "the server wrote \(body.bytesWritten) bytes")
    }

    @Test(
        "a Content-Length over the cap fails at once, even when no body byte follows", arguments: TransportKind.allCases
    )
    func oversizedContentLengthThenStall(kind: TransportKind) async throws {
        let body = StreamedBody(chunk: Data("x".utf8), budget: 0, stallsAfterwards: true)
        let server = try TestHTTPServer { _ in
            .streamed(headers: [("Content-Type", "application/json"), ("Content-Length", "1000000000")], body: body)
        }
        defer { server.stop() }
        let started = MonotonicInstant.now
        let error = await #expect(throws: AuthError.self) {
            try await kind.make().send(
                TransportRequest(method: "GET", url: server.url("/discovery"), timeout: 30))
        }
        // Without the Content-Length check nothing would end the request before its 30 s deadline (`timeout`).
        #expect(error?.code == .responseTooLarge)
        #expect(MonotonicInstant.now - started < .seconds(10))
        #expect(await server.allConnectionsClosed())
    }
}
