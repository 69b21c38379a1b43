import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

/// Multi-tenant issuer validation (Microsoft Entra ID's `common` tenant): a discovery document with the
/// `{tenantid}` issuer is accepted, and an ID token's `iss` must equal it with the token's own `tid`.
@Suite("Multi-tenant issuer validation")
struct TenantIssuerTests {
    static let template = "https://login.microsoftonline.com/{tenantid}/v2.0"
    static let tenant = "72f988bf-86f1-41af-91ab-2d7cd011db47"
    /// A P-256 key: made in microseconds, so no test holds a concurrency thread for long.
    static let signer = Result { try TestSigner(.p256) }

    /// A signed ID token with these claims (and sensible defaults).
    static func token(_ extra: [String: Any], signer: TestSigner) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        var claims: [String: Any] = ["sub": "user-1", "aud": "client-1", "iat": now, "exp": now + 600]
        for (name, value) in extra { claims[name] = value }
        let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "kid": "k1", "typ": "JWT"])
        let payload = try JSONSerialization.data(withJSONObject: claims)
        let input = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        return input + "." + Base64URL.encode(try signer.sign(Array(input.utf8), algorithm: .es256))
    }

    static func keys(_ signer: TestSigner) throws -> JSONWebKeySet {
        let document = ["keys": [signer.publicJWK(keyID: "k1", algorithm: .es256)]]
        return try JSONWebKeySet(data: try JSONSerialization.data(withJSONObject: document))
    }

    static func validator(_ mode: IssuerValidation, issuer: String = template) -> IDTokenValidator {
        var validator = IDTokenValidator(issuer: issuer, clientID: "client-1")
        validator.issuerValidation = mode
        return validator
    }

    @Test("the token's tid fills {tenantid}: a matching iss passes")
    func matchingTenant() throws {
        let signer = try Self.signer.get()
        let issuer = "https://login.microsoftonline.com/\(Self.tenant)/v2.0"
        let token = try Self.token(["iss": issuer, "tid": Self.tenant], signer: signer)
        let claims = try Self.validator(.tenantPlaceholder).validate(token, keys: try Self.keys(signer), nonce: nil)
        #expect(claims.iss == issuer)
    }

    @Test(
        "tokens whose tid is missing, different, or not an identifier fail",
        arguments: [
            (["iss": "https://login.microsoftonline.com/\(tenant)/v2.0"], "no tid claim"),
            (
                [
                    "iss": "https://login.microsoftonline.com/\(tenant)/v2.0",
                    "tid": "0000aaaa-11bb-22cc-33dd-444444eeeeee",
                ],
                "is not"
            ),
            (["iss": "https://login.microsoftonline.com/a/b/v2.0", "tid": "a/b"], "not a tenant identifier"),
            (
                ["iss": "https://login.microsoftonline.com/{tenantid}/v2.0", "tid": "{tenantid}"],
                "not a tenant identifier"
            ),
            (["iss": "https://login.microsoftonline.com/\(tenant)/v2.0", "tid": 42], "no tid claim"),
        ] as [([String: any Sendable], String)])
    func refusedTenants(claims: [String: any Sendable], message: String) throws {
        let signer = try Self.signer.get()
        let token = try Self.token(claims, signer: signer)
        let error = #expect(throws: AuthError.self) {
            try Self.validator(.tenantPlaceholder).validate(token, keys: try Self.keys(signer), nonce: nil)
        }
        #expect(error?.code == .invalidIDToken)
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
    }

    @Test("exact validation (the default) never substitutes the placeholder")
    func exactIsDefault() throws {
        let signer = try Self.signer.get()
        let token = try Self.token(
            ["iss": "https://login.microsoftonline.com/\(Self.tenant)/v2.0", "tid": Self.tenant], signer: signer)
        #expect(IDTokenValidator(issuer: Self.template, clientID: "client-1").issuerValidation == .exact)
        let error = #expect(throws: AuthError.self) {
            try Self.validator(.exact).validate(token, keys: try Self.keys(signer), nonce: nil)
        }
        #expect(error?.code == .invalidIDToken)
    }

    @Test(
        "discovery documents: the {tenantid} form is accepted for one plain path segment only",
        arguments: [
            (
                "https://login.microsoftonline.com/{tenantid}/v2.0", "https://login.microsoftonline.com/common/v2.0",
                true
            ),
            (
                "https://login.microsoftonline.com/{tenantid}/v2.0",
                "https://login.microsoftonline.com/organizations/v2.0",
                true
            ),
            ("https://login.microsoftonline.com/{tenantid}/v2.0", "https://login.microsoftonline.com/a/b/v2.0", false),
            ("https://login.microsoftonline.com/{tenantid}/v2.0", "https://evil.example/common/v2.0", false),
            ("https://login.microsoftonline.com/{tenantid}/v2.0", "https://login.microsoftonline.com//v2.0", false),
            ("https://login.microsoftonline.com/other/v2.0", "https://login.microsoftonline.com/common/v2.0", false),
        ])
    func discoveredIssuers(document: String, requested: String, accepted: Bool) {
        #expect(
            IDTokenValidator.acceptsDiscoveredIssuer(document, requested: requested, validation: .tenantPlaceholder)
                == accepted)
        #expect(!IDTokenValidator.acceptsDiscoveredIssuer(document, requested: requested, validation: .exact))
    }

    @Test("Entra ID on the simulator: the {tenantid} discovery document and tid-bearing ID tokens sign in")
    func entraCommonTenant() async throws {
        let spec = EntraIDClient.provider
        #expect(spec.tokens.issuerValidation == .tenantPlaceholder)
        try await withSimulator(spec) { simulator in
            let configuration = simulator.configuration(redirectURI: URL(string: "dev.latchkey.test://callback"))
            let options = AuthClientOptions(transport: simulator.transport, store: InMemorySessionStore())
            let client = try AuthClient(provider: spec, configuration: configuration, options: options)
            let session = try await client.signInWithBrowser(using: simulator.browser)
            let discovery = try #require(simulator.requests(to: .discovery).first)
            #expect(discovery.path.hasSuffix("/.well-known/openid-configuration"))
            let claims = try FormPostCallbackTests.claims(of: session.idToken)
            let tid = try #require(claims["tid"] as? String)
            #expect(claims["iss"] as? String == Self.template.replacingOccurrences(of: "{tenantid}", with: tid))
            #expect(claims["iss"] as? String != simulator.expectedIssuer, "the token names the user's tenant")
            #expect(!simulator.requests(to: .jwks).isEmpty)
            #expect(session.user?.email == SimulatedUser.demo.email)
        }
    }

    @Test("the same provider with exact validation refuses the {tenantid} discovery document")
    func entraExactRefuses() async throws {
        var spec = EntraIDClient.provider
        spec.tokens.issuerValidation = .exact
        try await withSimulator(EntraIDClient.provider) { simulator in
            let configuration = simulator.configuration(redirectURI: URL(string: "dev.latchkey.test://callback"))
            let options = AuthClientOptions(transport: simulator.transport, store: InMemorySessionStore())
            let client = try AuthClient(provider: spec, configuration: configuration, options: options)
            let error = await #expect(throws: AuthError.self) { try await client.prepareAuthorization() }
            #expect(
                error?.code == .issuerMismatch || error?.code == .configDiscoveryFailed, "\(String(describing: error))")
            #expect(simulator.tokenRequests.isEmpty)
        }
    }
}
