import Foundation
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// `response_mode=form_post` on the loopback redirect server: a form POST to the callback path is the
/// callback (its body becomes the callback URL's query); everything else about a POST is refused.
@Suite("LoopbackRedirectServer form_post")
struct LoopbackFormPostTests {
    static func post(
        _ port: Int, target: String = "/callback", body: String,
        contentType: String? = "application/x-www-form-urlencoded", length: String? = nil
    ) async -> RawHTTPClient.Response? {
        var lines = ["POST \(target) HTTP/1.1", "Host: 127.0.0.1:\(port)"]
        if let contentType { lines.append("Content-Type: \(contentType)") }
        lines.append("Content-Length: \(length ?? String(body.utf8.count))")
        return await RawHTTPClient.exchange(port: port, lines: lines, body: body)
    }

    @Test("a form POST to the callback path is the callback: the body becomes the query")
    func formPostCallback() async throws {
        let server = try LoopbackRedirectServer(
            expectedState: "st-9", pages: LoopbackPages(success: .html("<p>ok</p>")), acceptsFormPost: true)
        async let callback = server.waitForCallback()
        let body = "code=c%2F1&state=st-9&user=%7B%22email%22%3A%22a%40b.c%22%7D"
        let response = await Self.post(server.port, body: body)
        let url = try await callback
        #expect(response?.status == 200)
        #expect(response?.body == "<p>ok</p>")
        #expect(url.absoluteString == "http://127.0.0.1:\(server.port)/callback?\(body)")
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.first { $0.name == "user" }?.value == #"{"email":"a@b.c"}"#)
        #expect(!server.isListening)
    }

    @Test("a GET callback still works on a form_post server")
    func getStillWorks() async throws {
        let server = try LoopbackRedirectServer(expectedState: "s", acceptsFormPost: true)
        async let callback = server.waitForCallback()
        let response = await RawHTTPClient.get(port: server.port, target: "/callback?code=1&state=s")
        #expect(response?.status == 200)
        #expect(try await callback.query == "code=1&state=s")
    }

    @Test("without acceptsFormPost a POST is 405 with Allow: GET")
    func postRefusedByDefault() async throws {
        let server = try LoopbackRedirectServer(expectedState: "s")
        let response = await Self.post(server.port, body: "code=1&state=s")
        #expect(response?.status == 405)
        #expect(response?.head.contains("Allow: GET") == true)
        #expect(response?.head.contains("POST") == false)
        #expect(await RawHTTPClient.isListening(port: server.port), "a refused POST must not end the wait")
        server.cancel()
    }

    @Test(
        "bad form POSTs are refused and the server keeps waiting",
        arguments: [
            ("/other", "application/x-www-form-urlencoded", nil, "code=1&state=s", 404),
            ("/callback?x=1", "application/x-www-form-urlencoded", nil, "code=1&state=s", 400),
            ("/callback", "application/json", nil, #"{"code":"1"}"#, 415),
            ("/callback", nil, nil, "code=1&state=s", 415),
            ("/callback", "application/x-www-form-urlencoded", "abc", "code=1&state=s", 411),
            ("/callback", "application/x-www-form-urlencoded", "70000", "code=1", 413),
            ("/callback", "application/x-www-form-urlencoded", nil, "code=1#frag&state=s", 400),
        ] as [(String, String?, String?, String, Int)])
    func refused(target: String, contentType: String?, length: String?, body: String, status: Int) async throws {
        let server = try LoopbackRedirectServer(expectedState: "s", acceptsFormPost: true)
        async let callback = server.waitForCallback()
        let response = await Self.post(
            server.port, target: target, body: body, contentType: contentType, length: length)
        #expect(response?.status == status, "\(target) \(contentType ?? "-") \(length ?? "-")")
        // The real callback still completes the flow.
        let good = await Self.post(server.port, body: "code=2&state=s")
        #expect(good?.status == 200)
        #expect(try await callback.query == "code=2&state=s")
    }

    @Test("a form POST with a wrong or no state answers 400 and keeps waiting for the real one")
    func wrongState() async throws {
        let server = try LoopbackRedirectServer(expectedState: "good", acceptsFormPost: true)
        let response = await Self.post(server.port, body: "code=1&state=evil")
        #expect(response?.status == 400)
        let forgedError = await Self.post(server.port, body: "error=access_denied")
        #expect(forgedError?.status == 400)
        let good = await Self.post(server.port, body: "code=2&state=good")
        #expect(good?.status == 200)
        #expect(try await server.waitForCallback().query == "code=2&state=good")
    }

    @Test("a body shorter than its Content-Length times out as 408 without a callback")
    func truncatedBody() async throws {
        let server = try LoopbackRedirectServer(
            path: "/callback", expectedState: "s", timeout: .seconds(30), successPage: .signedIn,
            failurePage: .failed, address: .ipv4, connectionReadTimeout: .milliseconds(300),
            acceptsFormPost: true)
        let response = await Self.post(server.port, body: "code=1", length: "40")
        #expect(response?.status == 408)
        #expect(await RawHTTPClient.isListening(port: server.port))
        server.cancel()
    }

    @Test("an error response POSTed back shows the failure page and is delivered")
    func errorResponse() async throws {
        let server = try LoopbackRedirectServer(
            expectedState: "s", pages: LoopbackPages(failure: .html("<p>failed</p>")), acceptsFormPost: true)
        async let callback = server.waitForCallback()
        let response = await Self.post(server.port, body: "error=access_denied&state=s")
        #expect(response?.body == "<p>failed</p>")
        #expect(try await callback.query == "error=access_denied&state=s")
    }
}
