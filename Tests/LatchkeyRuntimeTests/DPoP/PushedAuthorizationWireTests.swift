import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// Pushed authorization requests (RFC 9126) on the wire: the parameters go to the server, the browser gets only
/// `client_id` and `request_uri`, an expired `request_uri` is pushed again, errors are mapped; with DPoP the
/// push names the sign-in's key (`dpop_jkt`) and proves it (a proof, which meets a nonce challenge), and so does
/// the code exchange.
@Suite("PAR: pushed authorization requests on the wire", timeLimit(minutes: 2))
struct PushedAuthorizationWireTests {
    /// A browser that approves at once: it reads what was pushed under the opened `request_uri` and requests the
    /// loopback callback with that request's code and state.
    final class Browser: Sendable {
        let server: DPoPTestServer
        /// The `iss` the callback carries (RFC 9207), if any.
        let issuer: String?
        let opened = Locked<[URL]>([])

        init(_ server: DPoPTestServer, issuer: String? = nil) {
            self.server = server
            self.issuer = issuer
        }

        var open: @Sendable (URL) async throws(AuthError) -> Void {
            { [self] url throws(AuthError) in await self.visit(url) }
        }

        private func visit(_ url: URL) async {
            opened.withLock { $0.append(url) }
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            let uri = items.first { $0.name == "request_uri" }?.value ?? ""
            guard let pushed = server.pushed(uri), let redirect = URLComponents(string: pushed["redirect_uri"] ?? ""),
                let port = redirect.port
            else { return }
            let code = "code-" + (uri.split(separator: "-").last.map(String.init) ?? "")
            var query = "?code=\(code)&state=\(pushed["state"] ?? "")"
            if let issuer {
                query += "&iss=" + (issuer.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            }
            _ = await RawHTTPClient.get(port: port, target: redirect.percentEncodedPath + query)
        }
    }

    @Test("a loopback sign-in pushes its parameters with dpop_jkt and opens only client_id and request_uri")
    func pushThenOpen() async throws {
        let harness = try DPoPHarness()
        let client = try harness.client(dpop: .required, pushed: .always)
        let browser = Browser(harness.server)
        let session = try await client.signInWithLoopback(open: browser.open, timeout: .seconds(60))
        #expect(session.tokenType == "DPoP")

        let opened = try #require(browser.opened.withLock { $0 }.first)
        let items = URLComponents(url: opened, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.map(\.name).sorted() == ["client_id", "request_uri"])
        #expect(opened.path == "/authorize")
        let uri = try #require(items.first { $0.name == "request_uri" }?.value)
        let pushed = try #require(harness.server.pushed(uri))
        #expect(pushed["client_id"] == "dpop-app" && pushed["code_challenge_method"] == "S256")
        #expect(pushed["code_challenge"]?.isEmpty == false && pushed["state"]?.isEmpty == false)
        #expect(pushed["redirect_uri"]?.hasPrefix("http://127.0.0.1:") == true)
        // The code was bound to dpop_jkt; the exchange proved that key (the server checks), and it is the session's.
        #expect(pushed["dpop_jkt"] == session.dpopKey?.thumbprint)
        #expect(harness.server.proofKeys("/token") == [pushed["dpop_jkt"]])
        #expect(harness.server.requests("/par").count == 1)
        // The push proves that key too (RFC 9449 §10.1): POST to the endpoint, no access token, so no ath.
        #expect(harness.server.proofKeys("/par") == [pushed["dpop_jkt"]])
        let proof = try Self.claims(harness.server.requests("/par").first?.header("DPoP"))
        #expect(proof["htm"] as? String == "POST")
        #expect(proof["htu"] as? String == harness.server.baseURL.absoluteString + "/par")
        #expect(proof["ath"] == nil)
        #expect(harness.server.refusals.isEmpty)
    }

    @Test("a push refused for want of the DPoP nonce is sent once more with it; the code exchange reuses it")
    func pushNonceRetry() async throws {
        var settings = DPoPServerCore.Settings()
        settings.tokenNonce = "as-nonce-1"
        let harness = try DPoPHarness(settings)
        let client = try harness.client(dpop: .required, pushed: .always)
        let session = try await client.signInWithLoopback(open: Browser(harness.server).open, timeout: .seconds(60))
        let key = try #require(session.dpopKey?.thumbprint)
        let pushes = harness.server.requests("/par")
        #expect(pushes.count == 2)
        #expect(try Self.claims(pushes.first?.header("DPoP"))["nonce"] == nil)
        #expect(try Self.claims(pushes.last?.header("DPoP"))["nonce"] as? String == "as-nonce-1")
        #expect(harness.server.proofKeys("/par") == [key])
        let tokens = harness.server.requests("/token")
        #expect(tokens.count == 1)
        #expect(try Self.claims(tokens.first?.header("DPoP"))["nonce"] as? String == "as-nonce-1")
        #expect(harness.server.refusals.isEmpty)

        // The retry is logged as such, without the proof; the private key is in no request and no log line.
        let logs = harness.logs.withLock { $0.joined(separator: "\n") }
        #expect(logs.range(of: "/par (pushed authorization request), sent again") != nil)
        let secret = try #require(session.dpopKey?.storedForm)
        #expect(logs.range(of: secret) == nil)
        for push in pushes {
            let proof = try #require(push.header("DPoP"))
            #expect(logs.range(of: proof) == nil)
            let sent = push.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
            #expect(sent.range(of: secret) == nil)
            #expect(String(decoding: push.body, as: UTF8.self).range(of: secret) == nil)
        }
    }

    @Test("a re-push of an expired request_uri proves the same key as the first push and the code exchange")
    func expiredRequestURIWithDPoP() async throws {
        var settings = DPoPServerCore.Settings()
        settings.pushLifetimes = [0, 60]
        let harness = try DPoPHarness(settings)
        let client = try harness.client(dpop: .required, pushed: .always)
        let session = try await client.signInWithLoopback(open: Browser(harness.server).open, timeout: .seconds(60))
        let key = try #require(session.dpopKey?.thumbprint)
        #expect(harness.server.requests("/par").allSatisfy { $0.formBody["dpop_jkt"] == key })
        #expect(harness.server.proofKeys("/par") == [key, key])
        #expect(harness.server.proofKeys("/token") == [key])
        #expect(harness.server.refusals.isEmpty)
    }

    /// The claims of a proof (the server checked its signature).
    static func claims(_ proof: String?) throws -> [String: Any] {
        let parts = try #require(proof?.split(separator: ".").map(String.init))
        let bytes = try #require(Base64URL.decode(parts[1]))
        return try #require((try JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any])
    }

    @Test("an expired request_uri is pushed again before the browser opens; the fresh one is opened")
    func expiredRequestURI() async throws {
        var settings = DPoPServerCore.Settings()
        settings.pushLifetimes = [0, 60]
        let harness = try DPoPHarness(settings)
        let client = try harness.client(dpop: .never, pushed: .always)
        let browser = Browser(harness.server)
        _ = try await client.signInWithLoopback(open: browser.open, timeout: .seconds(60))
        #expect(harness.server.requests("/par").count == 2)
        let opened = browser.opened.withLock { $0 }
        #expect(opened.count == 1)
        #expect(
            opened.first?.absoluteString.hasSuffix("request_uri=urn%3Aietf%3Aparams%3Aoauth%3Arequest_uri%3Areq-1")
                == true)
        #expect(harness.server.requests("/par").allSatisfy { $0.formBody["dpop_jkt"] == nil })
        #expect(harness.server.requests("/par").allSatisfy { $0.header("DPoP") == nil })
    }

    @Test("a pushed authorization error is mapped, and no browser opens")
    func pushError() async throws {
        var settings = DPoPServerCore.Settings()
        settings.pushError = "invalid_request"
        let harness = try DPoPHarness(settings)
        let client = try harness.client(dpop: .never, pushed: .always)
        let browser = Browser(harness.server)
        await expectAuthError(.invalidRequest) {
            _ = try await client.signInWithLoopback(open: browser.open, timeout: .seconds(60))
        }
        #expect(browser.opened.withLock { $0 }.isEmpty)
        #expect(harness.server.requests("/token").isEmpty)
    }

    @Test("without a push, a DPoP sign-in names its key as dpop_jkt in the browser's request; the exchange proves it")
    func directRequestNamesKey() async throws {
        let harness = try DPoPHarness()
        let redirect = try #require(URL(string: "dev.dpop.app://callback"))
        let bound = try harness.client(dpop: .required, pushed: .whenRequired)
        let request = try await bound.prepareAuthorization(redirectURI: redirect)
        let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let jkt = try #require(items.first { $0.name == "dpop_jkt" }?.value)
        #expect(items.filter { $0.name == "dpop_jkt" }.count == 1)
        #expect(harness.server.requests("/par").isEmpty)
        harness.server.issueCode("direct-1", boundTo: jkt)
        let state = try #require(items.first { $0.name == "state" }?.value)
        let session = try await bound.handleCallback(
            try #require(URL(string: "dev.dpop.app://callback?code=direct-1&state=\(state)")))
        #expect(session.dpopKey?.thumbprint == jkt)
        #expect(harness.server.proofKeys("/token") == [jkt])
        #expect(harness.server.refusals.isEmpty)

        let bearer = try harness.client(dpop: .never, pushed: .whenRequired)
        let plain = try await bearer.prepareAuthorization(redirectURI: redirect)
        #expect(plain.url.query?.range(of: "dpop_jkt") == nil)
    }

    @Test("whenRequired pushes only when the app (or discovery) asks for it")
    func whenRequired() async throws {
        let harness = try DPoPHarness()
        let redirect = try #require(URL(string: "dev.dpop.app://callback"))
        let plain = try harness.client(dpop: .never, pushed: .whenRequired)
        let request = try await plain.prepareAuthorization(redirectURI: redirect)
        #expect(request.expiresAt == nil)
        #expect(request.url.query?.range(of: "code_challenge=") != nil)
        #expect(harness.server.requests("/par").isEmpty)

        let pushing = try harness.client(dpop: .never, pushed: .whenRequired, pushes: true)
        let pushed = try await pushing.prepareAuthorization(redirectURI: redirect)
        #expect(pushed.expiresAt != nil)
        #expect(pushed.url.query?.range(of: "code_challenge=") == nil)
        #expect(harness.server.requests("/par").count == 1)
    }
}
