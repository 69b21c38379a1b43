import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// `AuthClientOptions.additionalTokenParameters` (Lokksmith's `additionalTokenRequestParameters`): the app's
/// own parameters ride on the code exchange and every refresh, on the wire, never on the authorization
/// request, never replacing a parameter the protocol sends, and encoded like every other value.
@Suite("Additional token-request parameters")
struct AdditionalTokenParameterTests {
    /// A value that would start a header or another parameter if it were not encoded.
    static let hostileValue = "eu\r\nX-Injected: 1&grant_type=password"

    static func client(
        _ op: AdversarialOP, parameters: [String: String]
    ) throws(AuthError) -> OidcClient {
        let clock = op.clock
        return try OidcClient(
            issuer: op.server.baseURL, clientID: AdversarialOP.clientID, redirectURI: AdversarialOP.redirectURI,
            options: AuthClientOptions(
                transport: URLSessionHTTPTransport(), store: InMemorySessionStore(), now: { clock.now },
                environment: { _ in nil }, sleep: { _ in }, additionalTokenParameters: parameters))
    }

    @Test("they are sent with the code exchange and the refresh, and only there")
    func sentOnTokenRequests() async throws {
        try await AdversarialOP.run { op in
            let oidc = try Self.client(op, parameters: ["httpStatusCodes": "true", "region": Self.hostileValue])
            let request = try await oidc.client.prepareAuthorization()
            let callback = try await HeadlessUserAgent().follow(request.url, until: request.redirectURI)
            try await oidc.client.handleCallback(callback)
            _ = try await oidc.client.currentSession(forceRefresh: true)

            let authorize = try #require(op.requests("/authorize").first)
            #expect(authorize.query("httpStatusCodes") == nil, "the authorization request carries none of them")
            #expect(authorize.query("region") == nil)
            let tokenRequests = op.requests("/token")
            #expect(tokenRequests.map { $0.formBody["grant_type"] } == ["authorization_code", "refresh_token"])
            for token in tokenRequests {
                #expect(token.formBody["httpStatusCodes"] == "true")
                #expect(token.formBody["region"] == Self.hostileValue, "one value, exactly as given")
                #expect(token.header("X-Injected") == nil, "a CR or LF never starts a header")
                #expect(token.bodyText?.contains("\r") == false)
                #expect(token.bodyText?.contains("region=eu%0D%0AX-Injected") == true)
            }
            #expect(tokenRequests.last?.formBody["grant_type"] == "refresh_token", "never replaced by a value")
        }
    }

    @Test(
        "a name the token requests already send is refused at creation, with no request",
        arguments: [
            "grant_type", "code", "code_verifier", "redirect_uri", "client_id", "Client_ID", "client_secret",
            "refresh_token", "scope", "device_code", "client_assertion", "", "bad\nname",
        ])
    func protocolNamesRefused(name: String) async throws {
        try await AdversarialOP.run { op in
            let error = #expect(throws: AuthError.self) { try Self.client(op, parameters: [name: "x"]) }
            #expect(error?.code == .invalidConfiguration)
            #expect(op.paths.isEmpty)
        }
    }

    @Test("options show the parameters' names, never their values, in description and dump")
    func valuesNotShown() {
        let options = AuthClientOptions(additionalTokenParameters: ["tenantHint": "s3cr3t-value"])
        var dumped = ""
        dump(options, to: &dumped)
        for text in [String(describing: options), String(reflecting: options), dumped] {
            #expect(!text.contains("s3cr3t-value"), "\(text)")
            #expect(text.contains("tenantHint"), "\(text)")
        }
    }

    @Test("a name the descriptor's own tokenParameters send is refused with another value (SAP CDC's httpStatusCodes)")
    func descriptorNamesRefused() {
        let error = #expect(throws: AuthError.self) {
            try SAPCustomerDataCloudClient(
                apiKey: "3_key", clientID: "client",
                options: AuthClientOptions(
                    transport: NoRequestTransport(), environment: { _ in nil },
                    additionalTokenParameters: ["httpStatusCodes": "false"]))
        }
        #expect(error?.code == .invalidConfiguration)
    }
}

/// A transport that fails the test if anything is sent.
struct NoRequestTransport: HTTPTransport {
    func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
        Issue.record("Unexpected request: \(request.method) \(request.url.path)")
        throw AuthError(.networkError, "refused")
    }
}
