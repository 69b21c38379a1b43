import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// A scripted OpenID provider on ``TestHTTPServer`` shaped like django-oauth-toolkit: OpenID discovery
/// without `revocation_endpoint`/`device_authorization_endpoint`, RFC 8414 metadata at the path-inserted
/// URL, a device endpoint and a token endpoint that answers from a script.
final class ScriptedDeviceProvider: Sendable {
    let server: TestHTTPServer
    let tokenAnswers: OIDCShared<[TestResponse]>

    /// - Parameters:
    ///   - deviceResponse: What the device authorization endpoint answers.
    ///   - metadataListsDevice: Whether the RFC 8414 document lists the device endpoint.
    ///   - openIDListsEverything: Whether the OpenID document already lists revocation and device endpoints.
    ///   - tokenAnswers: The token endpoint's answers in order; `authorization_pending` once they run out.
    init(
        deviceResponse: TestResponse = ScriptedDeviceProvider.device(interval: 3),
        metadataListsDevice: Bool = true, openIDListsEverything: Bool = false, tokenAnswers: [TestResponse]
    ) throws {
        let answers = OIDCShared(tokenAnswers)
        self.tokenAnswers = answers
        self.server = try TestHTTPServer { request in
            let origin = "http://" + (request.header("Host") ?? "127.0.0.1")
            let issuer = origin + "/o"
            switch (request.method, request.path) {
            case ("GET", "/o/.well-known/openid-configuration"):
                var document = [
                    "issuer": issuer, "authorization_endpoint": issuer + "/authorize/",
                    "token_endpoint": issuer + "/token/",
                    "userinfo_endpoint": issuer + "/userinfo/", "jwks_uri": issuer + "/.well-known/jwks.json",
                    "end_session_endpoint": issuer + "/logout/",
                ]
                if openIDListsEverything {
                    document["revocation_endpoint"] = issuer + "/revoke_token/"
                    document["device_authorization_endpoint"] = issuer + "/device-authorization/"
                }
                return .json(document)
            case ("GET", "/.well-known/oauth-authorization-server/o"):
                var document = [
                    "issuer": issuer, "token_endpoint": issuer + "/token/",
                    "revocation_endpoint": issuer + "/revoke_token/",
                    // A member both documents have: the OpenID value must win.
                    "authorization_endpoint": issuer + "/rfc8414-authorize/",
                ]
                if metadataListsDevice { document["device_authorization_endpoint"] = issuer + "/device-authorization/" }
                return .json(document)
            case ("POST", "/o/device-authorization/"):
                return deviceResponse
            case ("POST", "/o/token/"):
                return answers.update {
                    $0.isEmpty ? ScriptedDeviceProvider.error("authorization_pending") : $0.removeFirst()
                }
            case ("GET", "/o/userinfo/"):
                return .json(["sub": "1", "name": "Ada Lovelace", "email": "ada@example.com"])
            default:
                return .json(["error": "not_found"], status: 404)
            }
        }
    }

    deinit { server.stop() }

    var issuer: URL { server.url("/o") }

    static func device(
        interval: Int? = 3, expiresIn: Int = 1800, userCode: String = "6TSGL96A",
        verificationURI: String = "http://127.0.0.1/o/device/",
        complete: String? = "http://127.0.0.1/o/device/?user_code=6TSGL96A"
    ) -> TestResponse {
        var document: [String: Any] = [
            "device_code": "dc-secret-1", "user_code": userCode, "verification_uri": verificationURI,
            "expires_in": expiresIn,
        ]
        if let complete { document["verification_uri_complete"] = complete }
        if let interval { document["interval"] = interval }
        return .json(document)
    }

    static func error(_ code: String, status: Int = 400) -> TestResponse { .json(["error": code], status: status) }

    static let tokens = TestResponse.json([
        "access_token": "at-1", "refresh_token": "rt-1", "token_type": "Bearer", "expires_in": 3600,
        "scope": "openid profile email",
    ])

    func requests(_ path: String) -> [RecordedRequest] { server.requests.filter { $0.path == path } }
    var tokenRequests: [RecordedRequest] { requests("/o/token/") }
}

/// A client whose polling sleeps return at once (recording the intervals) and advance a fake clock.
struct DeviceHarness {
    let provider: ScriptedDeviceProvider
    let client: AuthClient
    let store = InMemorySessionStore()
    let sleeps = OIDCShared<[LatchkeyDuration]>([])
    let clock = OIDCShared(Date(timeIntervalSince1970: 1_700_000_000))

    init(
        _ provider: ScriptedDeviceProvider, deviceEndpoint: URL? = nil,
        sleep: (@Sendable (LatchkeyDuration) async throws -> Void)? = nil
    ) throws {
        self.provider = provider
        let sleeps = self.sleeps
        let clock = self.clock
        let options = AuthClientOptions(
            transport: URLSessionHTTPTransport(), store: store, now: { clock.value }, environment: { _ in nil },
            sleep: { duration in
                sleeps.update { $0.append(duration) }
                clock.update { $0 = $0.addingTimeInterval(Double(duration.nanoseconds / 1_000_000_000)) }
                try await sleep?(duration)
            })
        client = try OidcClient(
            issuer: provider.issuer, clientID: "latchkey-device", deviceAuthorizationEndpoint: deviceEndpoint,
            options: options
        ).client
    }

    var seconds: [Int64] { sleeps.value.map { $0.nanoseconds / 1_000_000_000 } }
}
