import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// The idpyoidc provider of `ci-idpyoidc/` (PAR required, DPoP-bound tokens), as CI starts it.
///
/// Locally, without `LATCHKEY_IDPYOIDC_ISSUER`, its tests are skipped. In CI (`CI=true`) they always run, so a
/// missing or unreachable provider fails them instead of skipping them silently.
enum IdpyProvider {
    static let environment = ProcessInfo.processInfo.environment
    /// `LATCHKEY_IDPYOIDC_ISSUER`, e.g. `http://127.0.0.1:41234`.
    static let issuerText = environment["LATCHKEY_IDPYOIDC_ISSUER"].flatMap { $0.isEmpty ? nil : $0 }
    /// Whether the tests run: an issuer is configured, or this is CI (where a missing one fails).
    static let isEnabled = issuerText != nil || environment["CI"] == "true"

    /// PKCE public client; the token endpoint takes proofs without a nonce; pushed request_uris live 60 s.
    static let publicClient = "latchkey-public"
    /// The same, but the token endpoint answers `use_dpop_nonce` to a proof without its current nonce.
    static let nonceClient = "latchkey-nonce"
    /// The same as the public client, but its pushed request_uris live 5 s (`expires_in` 5).
    static let shortPushClient = "latchkey-par-short"

    /// The issuer; fails the test when it is not configured (only reachable in CI without one).
    static func issuer(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        let text = try #require(
            issuerText, "CI=true but LATCHKEY_IDPYOIDC_ISSUER is not set: the idpyoidc provider must run in CI",
            sourceLocation: sourceLocation)
        return try #require(
            URL(string: text), "LATCHKEY_IDPYOIDC_ISSUER is not a URL: \(text)", sourceLocation: sourceLocation)
    }
}

/// One test's generated `OidcClient` against idpyoidc with DPoP on: a recording transport, its own store, and a
/// browser that follows the authorization endpoint's redirect (idpyoidc's test user is logged in without a page).
struct IdpyHarness {
    let issuer: URL
    let transport: OIDCRecordingTransport
    let store = InMemorySessionStore()
    let oidc: OidcClient
    /// Every URL the browser was asked to open.
    let opened = OIDCShared<[URL]>([])

    var client: AuthClient { oidc.client }

    /// - Parameters:
    ///   - usesDPoP: ``AuthClientOptions/usesDPoP`` (the `oidc` descriptor says `optional`).
    init(
        clientID: String = IdpyProvider.publicClient, base: any HTTPTransport = URLSessionHTTPTransport(),
        usesDPoP: Bool = true
    ) throws {
        issuer = try IdpyProvider.issuer()
        transport = OIDCRecordingTransport(base: base)
        var options = AuthClientOptions(transport: transport, store: store, environment: { _ in nil })
        options.usesDPoP = usesDPoP
        oidc = try OidcClient(issuer: issuer, clientID: clientID, options: options)
    }

    /// The `open` of a loopback sign-in: GET the authorization URL, which answers 302 to the loopback callback,
    /// then GET that callback as a browser would.
    func opener() -> @Sendable (URL) async throws(AuthError) -> Void {
        let opened = self.opened
        return { url throws(AuthError) in
            opened.update { $0.append(url) }
            let page = try await URLSessionHTTPTransport().send(TransportRequest(method: "GET", url: url))
            guard page.status == 302, let location = page.header("Location"), let callback = URL(string: location)
            else {
                throw AuthError(.webAuthStartFailed, "The authorization endpoint answered HTTP \(page.status).")
            }
            _ = try await URLSessionHTTPTransport().send(TransportRequest(method: "GET", url: callback))
        }
    }

    /// Signs in through the loopback redirect (PAR, then the authorization endpoint, then the code exchange).
    func signIn() async throws -> Session {
        try await client.signInWithLoopback(open: opener(), timeout: .seconds(30))
    }

    /// A URL on the provider (`/resource`, `/resource/nonce`, ...).
    func url(_ path: String) -> URL { URL(string: issuer.absoluteString + path)! }

    /// Sends a request as it is, past the client (for replays and crafted proofs).
    func raw(_ request: TransportRequest) async throws -> TransportResponse {
        try await URLSessionHTTPTransport().send(request)
    }

    /// A request to the resource with `Authorization: DPoP <token>` and the given proof.
    func resourceRequest(_ path: String = "/resource", token: String, proof: String, scheme: String = "DPoP")
        -> TransportRequest
    {
        TransportRequest(
            method: "GET", url: url(path), headers: [("Authorization", "\(scheme) \(token)"), ("DPoP", proof)])
    }
}

/// The claims of a recorded request's DPoP proof (unverified: the server verifies).
func idpyProofClaims(_ request: TransportRequest) -> [String: Any] {
    request.header("DPoP").map(OIDCTest.claims) ?? [:]
}

/// The `cnf.jkt` of a JWT access token (idpyoidc's access tokens are JWTs).
func idpyBoundThumbprint(_ accessToken: String) -> String? {
    (OIDCTest.claims(accessToken)["cnf"] as? [String: Any])?["jkt"] as? String
}

/// A transport that, before handing over the answer to the first pushed authorization request, has the server
/// expire the `request_uri` it carries (`POST /test/expire-request-uri`, a control of ci-idpyoidc for
/// `latchkey-par-short`), as a browser that took too long to open it would find it. Nothing waits on the clock.
final class IdpyExpiringFirstPushTransport: HTTPTransport {
    private let base = URLSessionHTTPTransport()
    private let pushes = Locked(0)

    func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
        let response = try await base.send(request)
        let first =
            request.url.path.hasSuffix("/par")
            && pushes.withLock { count in
                count += 1
                return count == 1
            }
        guard first,
            let document = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            let requestURI = document["request_uri"] as? String,
            let control = URL(
                string: request.url.absoluteString.replacingOccurrences(
                    of: "/par", with: "/test/expire-request-uri"))
        else { return response }
        var form = URLComponents()
        form.queryItems = [URLQueryItem(name: "request_uri", value: requestURI)]
        let expire = TransportRequest(
            method: "POST", url: control, headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Data((form.percentEncodedQuery ?? "").utf8))
        let expired = try await base.send(expire)
        if expired.status != 204 { Issue.record("ci-idpyoidc did not expire the request_uri (\(expired.status))") }
        return response
    }
}
