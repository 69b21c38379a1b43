import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

@Suite("Loopback: origin-form targets only, and candidates for a provider that echoes no state")
struct LoopbackRequestTargetTests {
    private static let rules = LoopbackRequestRules(
        path: "/callback", expectedState: nil, address: .ipv4, port: 8765,
        callbackBase: "http://127.0.0.1:8765/callback")

    private static func head(_ target: String) -> HTTPRequestHead {
        HTTPRequestHead(method: "GET", target: target, version: "HTTP/1.1", headers: [("Host", "127.0.0.1:8765")])
    }

    @Test(
        "a target that is not origin form is refused with 400 before its path is looked at",
        arguments: [
            "/callback?#access_token=at&refresh_token=rt",  // a fragment: a session link smuggled in
            "/callback#access_token=at",
            "/callback?code=1#x",
            "http://127.0.0.1:8765/callback?code=1",  // absolute form
            "127.0.0.1:8765",  // authority form
            "*",  // asterisk form
            "//127.0.0.1:8765/callback?code=1",  // reads as an authority
            "/callback?code=\u{E9}",  // raw non-ASCII (a browser percent-encodes)
        ])
    func refused(target: String) {
        #expect(Self.rules.decide(Self.head(target)) == .reject(status: 400, reason: "unexpected request target"))
    }

    @Test(
        "origin-form targets are decided as before",
        arguments: [
            ("/callback?code=1", "http://127.0.0.1:8765/callback?code=1"),
            ("/callback?code=a%23b", "http://127.0.0.1:8765/callback?code=a%23b"),
            ("/callback", "http://127.0.0.1:8765/callback"),
        ])
    func accepted(target: String, url: String) {
        #expect(Self.rules.decide(Self.head(target)) == .callback(URL(string: url)!, isErrorResponse: false))
    }

    @Test("on the wire: a fragment in the target is 400 and the server keeps waiting for the real callback")
    func fragmentOnTheWire() async throws {
        let server = try LoopbackRedirectServer(expectedState: nil)
        let forged = await RawHTTPClient.get(port: server.port, target: "/callback?#access_token=at&refresh_token=rt")
        #expect(forged?.status == 400)
        #expect(await RawHTTPClient.isListening(port: server.port))
        let real = await RawHTTPClient.get(port: server.port, target: "/callback?code=real")
        #expect(real?.status == 200)
        let url = try await server.waitForCallback()
        #expect(url.query == "code=real")
        #expect(url.fragment == nil)
    }

    @Test("candidates: each callback goes to the next wait, and the server keeps listening until cancelled")
    func candidates() async throws {
        let server = try LoopbackRedirectServer(
            endpoint: LoopbackEndpoint(path: "/callback", address: .ipv4, port: 0), expectedState: nil,
            timeout: .seconds(60), offersCandidates: true)
        let junk = await RawHTTPClient.get(port: server.port, target: "/callback?code=junk")
        #expect(junk?.status == 200)
        #expect(try await server.waitForCallback().query == "code=junk")
        #expect(await RawHTTPClient.isListening(port: server.port))
        async let next = server.waitForCallback()
        let real = await RawHTTPClient.get(port: server.port, target: "/callback?code=real")
        #expect(real?.status == 200)
        #expect(try await next.query == "code=real")
        #expect(await RawHTTPClient.refuses(port: server.port) { server.cancel() })
    }

    @Test("candidates need a server without an expected state")
    func candidatesNeedNoState() {
        #expect(throws: AuthError.self) {
            try LoopbackRedirectServer(
                endpoint: LoopbackEndpoint(path: "/callback", address: .ipv4, port: 0), expectedState: "s",
                timeout: .seconds(60), offersCandidates: true)
        }
    }
}
