import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens

/// A clock shared by the Base IdP server and the clients under test, so that token times and the client's
/// expiry checks agree; tests move it by hand.
final class BaseIdPClock: Sendable {
    private let current: Locked<Date>

    /// Starts at the current time rounded down to a whole second (RFC 3339 claims carry whole seconds).
    init() {
        current = Locked(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
    }

    /// The time.
    var now: Date { current.withLock { $0 } }

    /// Moves the clock forward.
    func advance(_ seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// A Base IdP look-alike on a ``TestHTTPServer`` that follows the public TypeScript SDK's wire contract and
/// issues real PASETO `v4.public` access tokens (PAE, then an Ed25519 signature from ``TestSigner``):
///
/// - `GET /v1/client-config?key=` → the client's configuration (404 `client_not_found` for another key);
/// - `GET /.well-known/square-identity` → the identity metadata;
/// - `GET /v1/paseto-keys` → `{keys: [{kid, alg: "v4.public", kty: "OKP", crv: "Ed25519", public_key_base64,
///   implicit_assertion?}]}` (the SDKs hard-code the implicit assertion and ignore the entry's; the document
///   names one only when ``BaseIdPState/publishedImplicitAssertion`` is set, and tokens are still signed with
///   the constant one);
/// - `GET /oauth2/authorize` → checks the request (client, registered redirect URI, PKCE S256, state, nonce)
///   and redirects to the app as ``authorizeOutcome`` says;
/// - `POST /oauth2/token` (form) → `authorization_code` with PKCE and `refresh_token` with rotation;
/// - `GET /v1/me` with `Authorization: Bearer` → the principal.
///
/// Access tokens carry `iss, sub, aud, exp, nbf, iat, jti, gid, email, name, role, sid, ctx, scp, token_use`,
/// a `{kid, alg, typ}` footer and the implicit assertion `square-experience:idp:access:v1`.
final class BaseIdPServer: Sendable {
    /// The client key the app is configured with (`BASE_IDP_CLIENT_ID`, sent as `?key=`).
    static let clientKey = "pk_latchkey_ios_7c1e"
    /// The client id the configuration resolves the key to.
    static let clientID = "latchkey-ios"
    /// The access tokens' audience.
    static let audience = "square-experience"
    /// The implicit assertion every access token is signed with.
    static let implicitAssertion = "square-experience:idp:access:v1"
    /// The app's custom-scheme redirect URI.
    static let customRedirect = URL(string: "dev.example.latchkey://oauth/base-idp")!
    /// The person who signs in.
    static let person = Person(
        sub: "usr_01J9ZK3Q", gid: "gid_5f0c2a9e", email: "ada@example.com", name: "Ada Lovelace", role: "member",
        scopes: ["openid", "profile", "email"])

    /// A Base IdP account.
    struct Person: Sendable {
        var sub: String
        var gid: String
        var email: String
        var name: String
        var role: String
        var scopes: [String]
    }

    /// What the authorization endpoint does with a valid request.
    enum AuthorizeOutcome: Sendable {
        /// Redirects to the app with a code and the request's state.
        case approve
        /// The user refuses: `error=access_denied` with the request's state.
        case deny
        /// Redirects with a code but another state.
        case forgeState
        /// Redirects with a code and the state to another URI than the request's.
        case redirect(to: URL)
        /// Shows a page instead of redirecting.
        case page
    }

    /// A defect put into the access tokens issued from now on.
    enum TokenDefect: Sendable {
        case none
        /// The payload is changed after signing (role `admin`), the signature kept.
        case tampered
        /// `exp` five minutes in the past.
        case expired
        /// Another `aud`.
        case wrongAudience
        /// Another `iss`.
        case wrongIssuer
        /// A footer without `typ` (the SDKs require `typ` `paseto`).
        case footerWithoutType
        /// No `sid` claim (the SDKs require `gid`, `sub`, `sid`, `ctx` and `role`).
        case missingSessionID
        /// Signed with a key the key set does not list.
        case unknownKey
        /// `token_use` is `refresh`.
        case notForAccess
        /// Signed with another implicit assertion.
        case otherImplicitAssertion
        /// `nbf` this many seconds after the time of issue.
        case notBefore(seconds: Int)
    }

    let http: TestHTTPServer
    let clock: BaseIdPClock
    /// The app's loopback redirect URI, registered with a port chosen at run time: an ``UnassignedPort``,
    /// below the ephemeral range and handed to no other test, so no other test's server or connection takes it
    /// before the sign-in binds it.
    let loopbackRedirect: URL
    private let core: BaseIdPCore

    /// Starts a server.
    init(clock: BaseIdPClock) throws {
        let core = try BaseIdPCore(clock: clock)
        self.core = core
        self.clock = clock
        self.http = try TestHTTPServer { request in core.handle(request) }
        let port = try UnassignedPort.take()
        let loopback = URL(string: "http://127.0.0.1:\(port)/oauth/callback")!
        self.loopbackRedirect = loopback
        let issuer = http.baseURL.absoluteString
        core.state.withLock {
            $0.issuer = issuer
            $0.allowedRedirectURIs = [BaseIdPServer.customRedirect.absoluteString, loopback.absoluteString]
        }
    }

    /// The issuer (`http://127.0.0.1:PORT`).
    var issuer: String { http.baseURL.absoluteString }

    /// Changes the server's behaviour.
    func configure(_ change: (inout BaseIdPState) -> Void) {
        core.state.withLock { change(&$0) }
    }

    /// Replaces the signing key by a new one with a new `kid`; the key set then lists only the new key.
    func rotateKey() throws {
        let signer = try TestSigner(.ed25519)
        core.state.withLock {
            $0.keyGeneration += 1
            $0.signer = signer
            $0.keyID = "base-k\($0.keyGeneration)"
        }
    }

    /// The current signing key's id.
    var keyID: String { core.state.withLock { $0.keyID } }

    /// Every request received, in order.
    var requests: [RecordedRequest] { http.requests }

    /// The requests to one path.
    func requests(_ path: String) -> [RecordedRequest] { http.requests.filter { $0.path == path } }

    /// The paths of every request, in order.
    var paths: [String] { http.requests.map(\.path) }

    /// Forgets the recorded requests.
    func resetRecording() { http.resetRecording() }

    /// Stops the server: closes its port and connections (``TestHTTPServer/stop()`` never waits).
    func shutdown() async {
        http.stop()
    }

    /// The S256 challenge of a verifier, computed here from SHA-256 and base64url.
    static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA2Hash.sha256(Array(verifier.utf8)))
    }

    /// An RFC 3339 date-time with whole seconds, in UTC.
    static func rfc3339(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    /// PASETO's pre-authentication encoding (paseto-spec, Common.md), written out here rather than taken
    /// from the runtime: `LE64(count) || (LE64(len) || piece)...`.
    static func preAuthenticationEncoding(_ pieces: [[UInt8]]) -> [UInt8] {
        func le64(_ value: Int) -> [UInt8] {
            let cleared = UInt64(value) & 0x7FFF_FFFF_FFFF_FFFF
            return (0..<8).map { UInt8(truncatingIfNeeded: cleared >> (8 * UInt64($0))) }
        }
        var out = le64(pieces.count)
        for piece in pieces { out += le64(piece.count) + piece }
        return out
    }

    /// Signs a `v4.public` token: `v4.public.` + base64url(m || Ed25519(PAE(h, m, f, i))) + `.` + base64url(f).
    static func sign(message: [UInt8], footer: [UInt8], implicitAssertion: [UInt8], with signer: TestSigner) throws
        -> (token: String, signature: [UInt8])
    {
        let header = Array("v4.public.".utf8)
        let signed = preAuthenticationEncoding([header, message, footer, implicitAssertion])
        let signature = try signer.sign(signed, algorithm: .edDSA)
        return (assemble(message: message, signature: signature, footer: footer), signature)
    }

    static func assemble(message: [UInt8], signature: [UInt8], footer: [UInt8]) -> String {
        "v4.public." + Base64URL.encode(message + signature) + "." + Base64URL.encode(footer)
    }

    /// JSON bytes with sorted keys.
    static func jsonBytes(_ object: [String: Any]) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }
}
