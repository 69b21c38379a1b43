import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

@Suite("Callback: authorization code flow")
struct CallbackBrowserFlowTests {
    private func query(_ url: URL) -> [String: String] {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    private func callback(_ state: String, _ extra: String = "code=good-code") -> URL {
        URL(string: "dev.acme.app://auth-callback?\(extra)&state=\(state)")!
    }

    @Test("the authorization URL carries PKCE S256, state, scope and redirect; nothing is sent")
    func prepare() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let request = try await harness.client.prepareAuthorization(
            prompt: "login", additionalParameters: ["ui_locales": "fr"])
        let items = query(request.url)
        #expect(request.url.path == "/authorize")
        #expect(items["response_type"] == "code")
        #expect(items["client_id"] == "acme-app")
        #expect(items["redirect_uri"] == "dev.acme.app://auth-callback")
        #expect(items["scope"] == "openid email")
        #expect(items["state"] == request.state)
        #expect(items["code_challenge_method"] == "S256")
        #expect(items["code_challenge"]?.count == 43)
        #expect(items["prompt"] == "login")
        #expect(items["ui_locales"] == "fr")
        #expect(items["nonce"] == nil)
        #expect(request.url.absoluteString.contains("redirect_uri=dev.acme.app%3A%2F%2Fauth-callback"))
        #expect(harness.server.requests.isEmpty)
        await expectAuthError(.invalidConfiguration) {
            _ = try await harness.client.prepareAuthorization(additionalParameters: ["state": "mine"])
        }
    }

    @Test("the callback's code is exchanged with the verifier that matches the challenge")
    func exchange() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let request = try await harness.client.prepareAuthorization()
        let challenge = try #require(query(request.url)["code_challenge"])
        #expect(await harness.client.canHandle(callback(request.state)))
        let session = try await harness.client.handleCallback(
            callback(request.state, "code=good-code&iss=\(harness.server.baseURL.absoluteString)"))
        #expect(session.accessToken == "at-1")
        let exchange = try #require(harness.requests("/oauth/token").first)
        let form = exchange.formBody
        #expect(form["grant_type"] == "authorization_code")
        #expect(form["code"] == "good-code")
        #expect(form["redirect_uri"] == "dev.acme.app://auth-callback")
        #expect(form["audience"] == "api")
        #expect(PKCE.challenge(for: form["code_verifier"] ?? "") == challenge)
        #expect(harness.client.state.isSignedIn)
        #expect(await !harness.client.canHandle(callback(request.state)))
        await expectAuthError(.invalidCallback) { try await harness.client.handleCallback(callback(request.state)) }
        #expect(harness.requests("/oauth/token").count == 1)
    }

    @Test("access_denied is login_cancelled, sends nothing, and forgets the pending flow")
    func cancelled() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        await harness.client.restore()
        let request = try await harness.client.prepareAuthorization()
        await expectAuthError(.loginCancelled) {
            try await harness.client.handleCallback(callback(request.state, "error=access_denied&error_description=no"))
        }
        #expect(harness.server.requests.isEmpty)
        #expect(await !harness.client.canHandle(callback(request.state)))
        #expect(harness.client.state == .signedOut)
        let other = try await harness.client.prepareAuthorization()
        await expectAuthError("otp_expired") {
            try await harness.client.handleCallback(callback(other.state, "error=server_error&error_code=otp_expired"))
        }
    }

    @Test("a wrong or missing state is state_mismatch, sends nothing, and keeps the pending flow")
    func stateMismatch() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let request = try await harness.client.prepareAuthorization()
        await expectAuthError(.stateMismatch) { try await harness.client.handleCallback(callback("forged")) }
        await expectAuthError(.stateMismatch) {
            try await harness.client.handleCallback(URL(string: "dev.acme.app://auth-callback?code=good-code")!)
        }
        #expect(harness.server.requests.isEmpty)
        #expect(try await harness.client.handleCallback(callback(request.state)).accessToken == "at-1")
    }

    @Test(
        "look-alike redirect URIs are redirect_mismatch and send nothing",
        arguments: [
            "dev.acme.app.evil://auth-callback", "dev.acme.app://auth-callback.evil",
            "dev.acme.app://evil@auth-callback",
            "dev.acme.app://auth-callback/extra", "dev.acme.app://auth-callback:8080", "https://auth-callback",
        ])
    func redirectMismatch(prefix: String) async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let request = try await harness.client.prepareAuthorization()
        let url = try #require(URL(string: "\(prefix)?code=good-code&state=\(request.state)"))
        #expect(await !harness.client.canHandle(url))
        await expectAuthError(.redirectMismatch) { try await harness.client.handleCallback(url) }
        #expect(harness.server.requests.isEmpty)
        #expect(await harness.client.canHandle(URL(string: "DEV.ACME.APP://AUTH-CALLBACK?x=1")!))
    }

    @Test("repeated parameters, and query/fragment disagreement, are invalid_callback")
    func malformed() async throws {
        let spec = AcmeSpec.make(
            callback: CallbackSpec(location: .queryOrFragment, allowedRedirectKinds: [.customScheme]))
        let harness = try AcmeHarness(spec: spec)
        defer { harness.server.stop() }
        let request = try await harness.client.prepareAuthorization()
        await expectAuthError(.invalidCallback) {
            try await harness.client.handleCallback(callback(request.state, "code=a&code=b"))
        }
        await expectAuthError(.invalidCallback) {
            try await harness.client.handleCallback(
                URL(string: "dev.acme.app://auth-callback?code=good-code&state=\(request.state)#code=other")!)
        }
        #expect(harness.server.requests.isEmpty)
        let session = try await harness.client.handleCallback(
            URL(string: "dev.acme.app://auth-callback#code=good-code&state=\(request.state)")!)
        #expect(session.accessToken == "at-1")
    }

    @Test("an iss parameter naming another issuer is issuer_mismatch")
    func issuerMismatch() async throws {
        let harness = try AcmeHarness()
        defer { harness.server.stop() }
        let request = try await harness.client.prepareAuthorization()
        await expectAuthError(.issuerMismatch) {
            try await harness.client.handleCallback(
                callback(request.state, "code=good-code&iss=https%3A%2F%2Fevil.example"))
        }
        #expect(harness.server.requests.isEmpty)
    }

    @Test(
        "an iss parameter naming another issuer is refused even when the descriptor declares no iss parameter",
        arguments: ["https%3A%2F%2Fevil.example", "BASE%2F"])
    func undeclaredIssuerMismatch(issuer: String) async throws {
        let spec = AcmeSpec.make(
            callback: CallbackSpec(errorCodeParameter: "error_code", allowedRedirectKinds: [.customScheme]))
        let harness = try AcmeHarness(spec: spec)
        defer { harness.server.stop() }
        let base = harness.server.baseURL.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let request = try await harness.client.prepareAuthorization()
        let forged = "code=good-code&iss=" + issuer.replacingOccurrences(of: "BASE", with: base)
        await expectAuthError(.issuerMismatch) {
            try await harness.client.handleCallback(callback(request.state, forged))
        }
        #expect(harness.server.requests.isEmpty)
        let session = try await harness.client.handleCallback(callback(request.state, "code=good-code&iss=\(base)"))
        #expect(session.accessToken == "at-1")
    }

    @Test("without returned state, the newest pending flow for the redirect URI completes")
    func noState() async throws {
        let harness = try AcmeHarness(spec: AcmeSpec.make(returnsState: false))
        defer { harness.server.stop() }
        _ = try await harness.client.prepareAuthorization()
        _ = try await harness.client.prepareAuthorization()
        let session = try await harness.client.handleCallback(
            URL(string: "dev.acme.app://auth-callback?code=good-code")!)
        #expect(session.accessToken == "at-1")
        #expect(await harness.client.canHandle(URL(string: "dev.acme.app://auth-callback")!))
    }

    @Test("a pending flow survives a relaunch over the same file store; stale ones are dropped")
    func relaunch() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileSessionStore(directory: directory)
        let harness = try AcmeHarness(store: store)
        defer { harness.server.stop() }
        let request = try await harness.client.prepareAuthorization()
        let stale = try await harness.client.prepareAuthorization()
        let relaunched = try harness.makeClient(store: FileSessionStore(directory: directory))
        #expect(await relaunched.restore() == .signedOut)
        #expect(try await relaunched.handleCallback(callback(request.state)).accessToken == "at-1")
        let again = try harness.makeClient(store: FileSessionStore(directory: directory))
        #expect(await again.restore().user?.id == "user-1")
        harness.clock.advance(601)
        await expectAuthError(.invalidCallback) { try await again.handleCallback(callback(stale.state)) }
    }

    @Test("fetchesUser asks the user-info endpoint with the new access token")
    func fetchesUser() async throws {
        let harness = try AcmeHarness(spec: AcmeSpec.make(fetchesUser: true))
        defer { harness.server.stop() }
        let request = try await harness.client.prepareAuthorization()
        let session = try await harness.client.handleCallback(callback(request.state))
        #expect(session.user?.name == "Ada")
        #expect(harness.requests("/user").first?.header("Authorization") == "Bearer at-1")
    }

    @Test(
        "without ID-token validation, the client still compares the nonce: a wrong or missing one fails the sign-in",
        arguments: ["wrong", "missing", "right"])
    func nonceWithoutValidation(variant: String) async throws {
        let harness = try AcmeHarness(spec: AcmeSpec.make(usesNonce: true, fetchesUser: true))
        defer { harness.server.stop() }
        let request = try await harness.client.prepareAuthorization()
        let sent = try #require(request.nonce)
        #expect(query(request.url)["nonce"] == sent)
        var claims: [String: Any] = ["iss": harness.server.baseURL.absoluteString, "sub": "user-1", "aud": "acme-app"]
        switch variant {
        case "wrong": claims["nonce"] = "a-nonce-of-another-sign-in"
        case "right": claims["nonce"] = sent
        default: break
        }
        let payload = Base64URL.encode(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
        let idToken = Base64URL.encode(Data(#"{"alg":"RS256"}"#.utf8)) + "." + payload + ".c2lnbmF0dXJl"
        harness.backend.override("/oauth/token") { _ in
            .json([
                "access_token": "at-1", "token_type": "bearer", "expires_in": 3600, "refresh_token": "rt-1",
                "id_token": idToken, "user": ["id": "user-1", "email": "ada@example.com"],
            ])
        }
        harness.backend.override("/user") { _ in .json(["id": "user-1", "email": "ada@example.com", "name": "Ada"]) }
        let callback = callback(request.state)
        if variant == "right" {
            #expect(try await harness.client.handleCallback(callback).idToken == idToken)
            return
        }
        await expectAuthError(.invalidIDToken) { try await harness.client.handleCallback(callback) }
        #expect(harness.requests("/oauth/token").count == 1)
        #expect(harness.requests("/user").isEmpty, "nothing is sent with the tokens of a refused response")
        #expect(!harness.client.state.isSignedIn)
        #expect(try await harness.storedSession() == nil)
    }
}
