import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The catalog descriptors that declare DPoP or pushed authorization from their provider's documentation
/// (beyond the generic OpenID, Okta, Auth0 and Keycloak ones): PingOne pushes to its documented `{issuer}/par`,
/// FusionAuth, Salesforce and Google prove a DPoP key on their token requests, each only when the app asks for it.
@Suite("Catalog: DPoP and pushed authorization where the provider documents them", timeLimit(minutes: 2))
struct CatalogSenderConstraintTests {
    /// A client of the simulator of `provider`, with the app's DPoP and PAR choices.
    private static func client(
        _ provider: ProviderSpec, _ simulator: ProviderSimulator, usesDPoP: Bool = false, pushes: Bool = false
    ) throws -> AuthClient {
        var options = AuthClientOptions(transport: simulator.transport, store: InMemorySessionStore())
        options.usesDPoP = usesDPoP
        options.pushesAuthorizationRequests = pushes
        let configuration = simulator.configuration(redirectURI: ConformanceHarness.redirectURI(for: provider))
        return try AuthClient(provider: provider, configuration: configuration, options: options)
    }

    /// The query of a URL by name.
    private static func query(of url: URL) throws -> [String: String] {
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        return Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { first, _ in first }
    }

    /// The JOSE header and claims of a compact JWT, unverified.
    private static func jwtParts(_ token: String) throws -> (header: [String: Any], claims: [String: Any]) {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(segments.count == 3)
        func object(_ segment: String) throws -> [String: Any] {
            var base64 = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            let data = try #require(Data(base64Encoded: base64))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        return (try object(segments[0]), try object(segments[1]))
    }

    @Test("PingOne pushes to {issuer}/par as a NONE client and opens only client_id and request_uri")
    func pingOnePushesToTheDocumentedEndpoint() async throws {
        let provider = PingOneClient.provider
        try await withSimulator(provider) { simulator in
            let issuer = try #require(URL(string: simulator.expectedIssuer))
            let parPath = issuer.path + "/par"
            let requestURI = "urn:ietf:params:oauth:request_uri:pingone-test"
            simulator.failNext(.json(["request_uri": requestURI, "expires_in": 60], status: 201), path: parPath)
            let client = try Self.client(provider, simulator, pushes: true)

            let request = try await client.prepareAuthorization()

            let pushes = simulator.requests.filter { $0.path == parPath }
            try #require(pushes.count == 1)
            let push = pushes[0]
            #expect(push.method == "POST")
            #expect(push.header("Authorization") == nil)
            let form = push.formBody
            #expect(form["client_id"] == simulator.configurationValues["clientID"])
            #expect(form["response_type"] == "code")
            #expect(form["code_challenge_method"] == "S256")
            #expect(form["code_challenge"]?.isEmpty == false)
            #expect(form["state"] == request.state)
            #expect(form["nonce"] == request.nonce)
            #expect(form["redirect_uri"] == request.redirectURI.absoluteString)
            #expect(form["dpop_jkt"] == nil)
            #expect(
                try Self.query(of: request.url)
                    == ["client_id": simulator.configurationValues["clientID"] ?? "", "request_uri": requestURI])
            #expect(simulator.requests(to: .authorize).isEmpty)
        }
    }

    @Test("PingOne without the app's choice pushes nothing and opens the full authorization URL")
    func pingOneDoesNotPushUnlessAsked() async throws {
        let provider = PingOneClient.provider
        try await withSimulator(provider) { simulator in
            let client = try Self.client(provider, simulator)

            let request = try await client.prepareAuthorization()

            #expect(simulator.requests.filter { $0.path.hasSuffix("/par") }.isEmpty)
            let query = try Self.query(of: request.url)
            #expect(query["request_uri"] == nil)
            #expect(query["code_challenge"]?.isEmpty == false)
            #expect(query["state"] == request.state)
            #expect(query["client_id"] == simulator.configurationValues["clientID"])
        }
    }

    @Test(
        "with usesDPoP, the sign-in names its P-256 key as dpop_jkt, proves it on the code exchange and the session is bound to it",
        arguments: ["fusionauth", "salesforce", "google"])
    func provesItsKeyWhenAsked(name: String) async throws {
        let provider = try #require(Self.dpopProviders[name])
        try await withSimulator(provider) { simulator in
            let client = try Self.client(provider, simulator, usesDPoP: true)

            let session = try await client.signInWithBrowser(using: simulator.browser)

            let exchanges = simulator.tokenRequests
            try #require(exchanges.count == 1)
            let proof = try #require(exchanges[0].header("DPoP"))
            let (header, claims) = try Self.jwtParts(proof)
            #expect(header["typ"] as? String == "dpop+jwt")
            #expect(header["alg"] as? String == "ES256")
            #expect((header["jwk"] as? [String: Any])?["crv"] as? String == "P-256")
            #expect(claims["htm"] as? String == "POST")
            #expect((claims["htu"] as? String)?.hasSuffix(exchanges[0].path) == true)
            #expect(claims["ath"] == nil)
            let thumbprint = ProviderSimulator.dpopKeyThumbprint(ofProof: proof)
            #expect(thumbprint != nil)
            #expect(session.tokenType.lowercased() == "dpop")
            #expect(simulator.dpopKeyThumbprint(boundTo: session.accessToken) == thumbprint)
            // Salesforce's DPoP guide: the authorization request carries dpop_jkt, binding the code to the key.
            let authorize = try #require(simulator.requests(to: .authorize).first)
            #expect(authorize.query("dpop_jkt") == thumbprint)
        }
    }

    /// The catalog descriptors beyond oidc, okta, auth0 and keycloak that declare DPoP optional.
    private static let dpopProviders: [String: ProviderSpec] = [
        "fusionauth": FusionAuthClient.provider, "salesforce": SalesforceClient.provider,
        "google": GoogleClient.provider,
    ]

    @Test("FusionAuth without usesDPoP sends no DPoP proof")
    func fusionAuthSendsNoProofUnlessAsked() async throws {
        let provider = FusionAuthClient.provider
        try await withSimulator(provider) { simulator in
            let client = try Self.client(provider, simulator)

            try await client.signInWithBrowser(using: simulator.browser)

            try #require(simulator.tokenRequests.count == 1)
            #expect(simulator.requests.allSatisfy { $0.header("DPoP") == nil })
        }
    }

    @Test("a catalog provider that documents no DPoP refuses usesDPoP when the client is made")
    func undocumentedDPoPIsRefused() async throws {
        let provider = ZitadelClient.provider
        try await withSimulator(provider) { simulator in
            #expect(throws: AuthError.self) { try Self.client(provider, simulator, usesDPoP: true) }
            #expect(simulator.requests.isEmpty)
        }
    }
}
