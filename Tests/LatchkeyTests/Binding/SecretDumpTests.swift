import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// No type that holds a secret shows it in `description`, `debugDescription`, its mirror or `dump`
/// (issue 15, item 12).
@Suite("Secrets never show in dumps")
struct SecretDumpTests {
    static let clientSecret = "client-secret-0123456789abcdef"
    static let accessToken = "access-token-0123456789abcdef"
    static let refreshToken = "refresh-token-0123456789abcdef"
    static let state = "state-value-0123456789abcdef"

    /// Every text a value shows: description, debugDescription, the mirror's children and `dump`.
    static func texts(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        let children = Mirror(reflecting: value).children.map { "\($0.label ?? ""): \($0.value)" }.joined()
        return [dumped, children, String(describing: value), String(reflecting: value)]
    }

    static func expectNoSecret(
        _ value: Any, _ secrets: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for text in texts(value) {
            for secret in secrets where text.contains(secret) {
                Issue.record("\(type(of: value)) shows a secret: \(text)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("ProviderConfiguration, OidcClient, AuthClient and Auth never show the client secret")
    func clientSecretIsRedacted() async throws {
        try await withSimulator(OidcClient.provider) { simulator in
            let oidc = try OidcClient(
                issuer: simulator.issuer, clientID: "server-tool", clientSecret: Self.clientSecret,
                options: AuthClientOptions(store: InMemorySessionStore()))
            let token = try await oidc.clientCredentialsToken()
            Self.expectNoSecret(
                ProviderConfiguration(values: ["clientID": "server-tool"], clientSecret: Self.clientSecret),
                [Self.clientSecret])
            Self.expectNoSecret(oidc, [Self.clientSecret, token.accessToken])
            Self.expectNoSecret(oidc.client, [Self.clientSecret, token.accessToken])
            Self.expectNoSecret(Auth(oidc), [Self.clientSecret, token.accessToken])
            #expect(Self.texts(oidc).contains { $0.contains("oidc") }, "the summary still names the provider")
        }
    }

    @Test("a signed-in client never shows its tokens through dump")
    func signedInClientIsRedacted() async throws {
        try await withSimulator(OidcClient.provider) { simulator in
            let oidc = try OidcClient(
                issuer: simulator.issuer, clientID: "app", options: AuthClientOptions(store: InMemorySessionStore()))
            let session = try await oidc.signInWithLoopback(open: headlessOpener(), timeout: .seconds(60))
            let tokens = [session.accessToken, session.refreshToken, session.idToken].compactMap { $0 }
            Self.expectNoSecret(oidc, tokens)
            Self.expectNoSecret(oidc.client, tokens)
            Self.expectNoSecret(session, tokens)
        }
    }

    @Test("TransportRequest, TransportResponse, ServerHandoff and AuthorizationRequest show no secret")
    func transportAndHandoffValuesAreRedacted() {
        let request = TransportRequest(
            method: "POST", url: URL(string: "https://op.example/token?token=\(Self.accessToken)")!,
            headers: [("Authorization", "Bearer \(Self.accessToken)")],
            body: Data("refresh_token=\(Self.refreshToken)&client_secret=\(Self.clientSecret)".utf8))
        Self.expectNoSecret(request, [Self.accessToken, Self.refreshToken, Self.clientSecret])
        let response = TransportResponse(
            status: 200, headers: ["Set-Cookie": "sid=\(Self.state)"],
            body: Data("{\"access_token\":\"\(Self.accessToken)\"}".utf8))
        Self.expectNoSecret(response, [Self.accessToken, Self.state])
        let handoff = ServerHandoff(
            accessToken: Self.accessToken, refreshToken: Self.refreshToken, expiresIn: 60,
            principal: .init(gid: "g-1", sub: "s-1"))
        Self.expectNoSecret(handoff, [Self.accessToken, Self.refreshToken])
        let authorization = AuthorizationRequest(
            url: URL(string: "https://op.example/authorize?state=\(Self.state)")!,
            redirectURI: URL(string: "dev.example.app://callback")!, state: Self.state, nonce: Self.refreshToken)
        Self.expectNoSecret(authorization, [Self.state, Self.refreshToken])
    }

    @Test("a loopback redirect server never shows the state it expects nor the code it received")
    func loopbackServerIsRedacted() async throws {
        let server = try LoopbackRedirectServer(expectedState: Self.state, timeout: .seconds(60))
        let callback = URL(
            string: "http://127.0.0.1:\(server.port)/callback?code=\(Self.accessToken)&state=\(Self.state)")!
        _ = try? await URLSessionHTTPTransport().send(TransportRequest(method: "GET", url: callback))
        let received = try await server.waitForCallback()
        #expect(received.query?.contains(Self.accessToken) == true)
        Self.expectNoSecret(server, [Self.state, Self.accessToken])
    }
}
