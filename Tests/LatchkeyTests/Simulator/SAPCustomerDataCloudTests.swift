import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// SAP Customer Data Cloud as its SDKs and documentation describe it: sites on a custom domain (issuer
/// `https://{cname}/oidc/op/v1.0/{apiKey}`), the data-center issuer by default, `403048` as a rate limit, and
/// OAuth errors answered with HTTP 200.
@Suite("SAP Customer Data Cloud")
struct SAPCustomerDataCloudTests {
    static let redirectURI = URL(string: "dev.latchkey.sap://callback")!
    static let apiKey = "3_siteKey"
    static let customDomain = "login.example.com"

    static func options(_ transport: any HTTPTransport) -> AuthClientOptions {
        AuthClientOptions(transport: transport, store: InMemorySessionStore(), environment: { _ in nil })
    }

    @Test("a custom domain makes the issuer https://{cname}/oidc/op/v1.0/{apiKey}: discovery and ID token use it")
    func customDomainIssuer() async throws {
        let provider = SAPCustomerDataCloudClient.provider
        let simulator = try ProviderSimulator(
            provider: provider, inputs: ["customDomain": Self.customDomain, "apiKey": Self.apiKey])
        defer { simulator.stop() }
        let recorder = OIDCRecordingTransport(base: simulator.transport)
        let client = try AuthClient(
            provider: provider,
            configuration: ProviderConfiguration(
                values: ["apiKey": Self.apiKey, "clientID": "demo-client", "customDomain": Self.customDomain],
                redirectURI: Self.redirectURI),
            options: Self.options(recorder))
        let issuer = "https://\(Self.customDomain)/oidc/op/v1.0/\(Self.apiKey)"
        #expect(client.identity.issuer == issuer)

        let session = try await client.signInWithBrowser(using: simulator.browser)
        #expect(session.user?.id == simulator.users.first?.id)
        #expect(session.idToken != nil, "the ID token was validated against the custom-domain issuer")
        let discovery = try #require(recorder.all.first?.request.url.absoluteString)
        #expect(discovery == issuer + "/.well-known/openid-configuration")
        #expect(simulator.requests(to: .discovery).count == 1)
    }

    @Test("httpStatusCodes=true passed by the app (Lokksmith's SAP CDC example) is accepted and sent once")
    func appPassedHTTPStatusCodes() async throws {
        let provider = SAPCustomerDataCloudClient.provider
        let simulator = try ProviderSimulator(
            provider: provider, inputs: ["customDomain": Self.customDomain, "apiKey": Self.apiKey])
        defer { simulator.stop() }
        let sap = try SAPCustomerDataCloudClient(
            apiKey: Self.apiKey, clientID: "demo-client", customDomain: Self.customDomain,
            redirectURI: Self.redirectURI,
            options: AuthClientOptions(
                transport: simulator.transport, store: InMemorySessionStore(), environment: { _ in nil },
                additionalTokenParameters: ["httpStatusCodes": "true"]))
        let session = try await sap.client.signInWithBrowser(using: simulator.browser)
        #expect(session.idToken != nil)
        let exchange = try #require(simulator.requests(to: .request("exchangeCode")).first)
        let sent = String(decoding: exchange.body, as: UTF8.self).split(separator: "&")
            .filter { $0.hasPrefix("httpStatusCodes=") }
        #expect(sent == ["httpStatusCodes=true"])
    }

    @Test("without a custom domain the data-center issuer is kept, and a custom-domain document is refused")
    func dataCenterIssuerByDefault() async throws {
        let simulator = try ProviderSimulator(
            provider: SAPCustomerDataCloudClient.provider,
            inputs: ["customDomain": Self.customDomain, "apiKey": Self.apiKey])
        defer { simulator.stop() }
        let recorder = OIDCRecordingTransport(base: simulator.transport)
        let sap = try SAPCustomerDataCloudClient(
            dataCenter: "eu1.gigya.com", apiKey: Self.apiKey, clientID: "demo-client",
            redirectURI: Self.redirectURI, options: Self.options(recorder))
        #expect(sap.client.identity.issuer == "https://fidm.eu1.gigya.com/oidc/op/v1.0/\(Self.apiKey)")
        let error = await #expect(throws: AuthError.self) { try await sap.client.prepareAuthorization() }
        #expect(error?.code == .issuerMismatch)
        #expect(
            recorder.all.map(\.request.url.absoluteString) == [
                "https://fidm.eu1.gigya.com/oidc/op/v1.0/\(Self.apiKey)/.well-known/openid-configuration"
            ])
    }

    @Test(
        "a custom domain given as a URL is refused at creation, with no request",
        arguments: ["https://login.example.com", "http://login.example.com"])
    func customDomainIsAHost(value: String) {
        let error = #expect(throws: AuthError.self) {
            try SAPCustomerDataCloudClient(
                apiKey: Self.apiKey, clientID: "demo-client", customDomain: value,
                options: Self.options(NoRequestTransport()))
        }
        #expect(error?.code == .invalidConfiguration)
    }

    @Test(
        "403048 (API rate limit exceeded) is rate_limited: a transport failure that keeps the session",
        arguments: [false, true])
    func rateLimitKeepsSession(inSuccessBody: Bool) async throws {
        try await ConformanceHarness.run("sap-cdc") { harness in
            let session = try await harness.signIn()
            let refresh = try #require(harness.spec.flows.refresh?.request)
            harness.simulator.failNext(
                harness.simulator.errorResponse(providerCode: "403048", status: 403, inSuccessBody: inSuccessBody),
                request: refresh)
            harness.simulator.resetRecording()
            let error = await #expect(throws: AuthError.self) {
                try await harness.client.currentSession(forceRefresh: true)
            }
            #expect(error?.code == .rateLimited)
            #expect(error?.kind == .transport)
            #expect(error?.providerCode == "403048")
            #expect(harness.simulator.tokenRequests.count == 1, "one refresh request, no retry")
            #expect(await harness.client.cachedSession?.refreshToken == session.refreshToken, "the session is kept")
        }
    }

    @Test(
        "an HTTP-200 token response with an OAuth error and no access token is that error, not invalid_response",
        arguments: ["sap-cdc", "oidc"])
    func oauthErrorInSuccessBody(name: String) async throws {
        try await ConformanceHarness.run(name) { harness in
            try await harness.signIn()
            let refresh = try #require(harness.spec.flows.refresh?.request)
            harness.simulator.failNext(
                .json(["error": "invalid_grant", "error_description": "The refresh token has expired."]),
                request: refresh)
            let error = await #expect(throws: AuthError.self) {
                try await harness.client.currentSession(forceRefresh: true)
            }
            #expect(error?.code == .invalidGrant)
            #expect(error?.kind == .rejected)
            #expect(error?.status == 200)
            #expect(await harness.client.cachedSession == nil, "a rejected refresh ends the session")

            // The same body on the code exchange fails the sign-in with that code and stores nothing.
            let exchange = try #require(harness.spec.flows.authorizationCode?.exchangeRequest)
            harness.simulator.failNext(
                .json(["error": "invalid_grant", "error_description": "The code was already used."]),
                request: exchange)
            let signIn = await #expect(throws: AuthError.self) { try await harness.signIn() }
            #expect(signIn?.code == .invalidGrant)
            #expect(await harness.client.cachedSession == nil)
        }
    }

    @Test("a token response with an access token stays a session even beside an error member")
    func accessTokenWins() async throws {
        try await ConformanceHarness.run("oidc") { harness in
            try await harness.signIn()
            let refresh = try #require(harness.spec.flows.refresh?.request)
            harness.simulator.failNext(
                .json([
                    "access_token": "at-with-warning", "token_type": "Bearer", "expires_in": 3600,
                    "error": "warning_only",
                ]),
                request: refresh)
            let session = try await harness.client.currentSession(forceRefresh: true)
            #expect(session.accessToken == "at-with-warning")
        }
    }
}
