import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Format version 2's request features on the wire: Firebase's refresh with its own session mapping,
/// Twitch's optional client authentication and its `Authorization: OAuth <token>` scheme.
@Suite("Per-request session mapping, optional client authentication, authorization schemes")
struct RequestFeatureTests {
    static func client(
        _ spec: ProviderSpec, _ simulator: ProviderSimulator, secret: String? = nil
    ) throws -> AuthClient {
        var configuration = simulator.configuration(redirectURI: URL(string: "dev.latchkey.test://callback"))
        configuration.clientSecret = secret
        let options = AuthClientOptions(
            transport: simulator.transport, store: InMemorySessionStore(), sleep: { _ in })
        return try AuthClient(provider: spec, configuration: configuration, options: options)
    }

    @Test("Firebase refresh: securetoken's snake_case answer becomes the session through the request's mapping")
    func firebaseRefresh() async throws {
        let spec = FirebaseClient.provider
        let refreshSpec = try #require(spec.requests["secureTokenRefresh"])
        #expect(spec.flows.refresh?.request == "secureTokenRefresh")
        #expect(refreshSpec.session?.accessToken == "/id_token")
        try await withSimulator(spec) { simulator in
            let client = try Self.client(spec, simulator)
            let user = try #require(simulator.users.first)
            let first = try await client.signIn(username: user.email, password: user.password)
            #expect(first.user?.name == user.name)
            let oldRefresh = try #require(first.refreshToken)

            let refreshed = try await client.currentSession(forceRefresh: true)
            let sent = try #require(simulator.requests(to: .request("secureTokenRefresh")).first)
            #expect(simulator.requests(to: .request("secureTokenRefresh")).count == 1)
            #expect(sent.method == "POST")
            #expect(sent.path == "/v1/token")
            #expect(sent.query("key") == "demo-client")
            #expect(sent.header("Content-Type") == "application/x-www-form-urlencoded")
            #expect(sent.formBody == ["grant_type": "refresh_token", "refresh_token": oldRefresh])
            #expect(sent.header("Authorization") == nil)

            #expect(refreshed.accessToken != first.accessToken)
            #expect(refreshed.refreshToken != nil && refreshed.refreshToken != oldRefresh, "rotated")
            #expect(refreshed.expiresAt != nil)
            #expect(refreshed.user?.id == user.id, "the user is kept from the sign-in")
            // The new access token is current at the provider; the old one is not the session's any more.
            let protected = try await simpleRequest(simulator.protectedURL, bearer: refreshed.accessToken)
            #expect(protected.json["message"] as? String == "Hello, Ada Lovelace")
            #expect(await client.cachedSession?.accessToken == refreshed.accessToken)
        }
    }

    @Test(
        "Twitch refresh: client_secret is sent when the app supplies one and omitted otherwise",
        arguments: [nil, "twitch-secret"] as [String?])
    func twitchOptionalClientSecret(secret: String?) async throws {
        let spec = TwitchClient.provider
        #expect(spec.requests["refreshToken"]?.clientAuthentication == .postIfSecret)
        try await withSimulator(spec) { simulator in
            let client = try Self.client(spec, simulator, secret: secret)
            let authorization = try await client.startDeviceAuthorization()
            let session = try await client.completeDeviceAuthorization(authorization)
            _ = try await client.currentSession(forceRefresh: true)
            let sent = try #require(simulator.requests(to: .request("refreshToken")).first)
            #expect(sent.formBody["client_id"] == "demo-client")
            #expect(sent.formBody["refresh_token"] == session.refreshToken)
            #expect(sent.formBody["client_secret"] == secret)
            #expect(sent.formBody.keys.contains("client_secret") == (secret != nil))
            #expect(sent.header("Authorization") == nil)
        }
    }

    @Test("basic_if_secret: HTTP Basic with a secret, nothing without one", arguments: [nil, "s3cret"] as [String?])
    func basicIfSecret(secret: String?) async throws {
        var spec = TwitchClient.provider
        spec.requests["refreshToken"]?.clientAuthentication = .basicIfSecret
        try await withSimulator(spec) { simulator in
            let client = try Self.client(spec, simulator, secret: secret)
            _ = try await client.completeDeviceAuthorization(try await client.startDeviceAuthorization())
            _ = try await client.currentSession(forceRefresh: true)
            let sent = try #require(simulator.requests(to: .request("refreshToken")).first)
            let expected = secret.map { "Basic " + Data("demo-client:\($0)".utf8).base64EncodedString() }
            #expect(sent.header("Authorization") == expected)
            #expect(sent.formBody["client_secret"] == nil)
        }
    }

    @Test(
        "basic_secret_or_empty: HTTP Basic with the secret, or base64(\"id:\") for no secret or an empty one",
        arguments: [nil, "", "s3cret"] as [String?])
    func basicSecretOrEmpty(secret: String?) async throws {
        var spec = TwitchClient.provider
        spec.requests["refreshToken"]?.clientAuthentication = .basicSecretOrEmpty
        try await withSimulator(spec) { simulator in
            let client = try Self.client(spec, simulator, secret: secret)
            _ = try await client.completeDeviceAuthorization(try await client.startDeviceAuthorization())
            let refreshed = try await client.currentSession(forceRefresh: true)
            #expect(!refreshed.accessToken.isEmpty)
            let sent = try #require(simulator.requests(to: .request("refreshToken")).first)
            let expected = "Basic " + Data("demo-client:\(secret ?? "")".utf8).base64EncodedString()
            #expect(sent.header("Authorization") == expected)
            if secret?.isEmpty ?? true { #expect(sent.header("Authorization") == "Basic ZGVtby1jbGllbnQ6") }
            #expect(sent.formBody["client_secret"] == nil)
        }
    }

    @Test("basic (required) still refuses an empty secret, before any request")
    func basicRefusesAnEmptySecret() async throws {
        var spec = TwitchClient.provider
        spec.requests["refreshToken"]?.clientAuthentication = .basic
        try await withSimulator(spec) { simulator in
            let client = try Self.client(spec, simulator, secret: "")
            _ = try await client.completeDeviceAuthorization(try await client.startDeviceAuthorization())
            let error = await #expect(throws: AuthError.self) { try await client.currentSession(forceRefresh: true) }
            #expect(error?.code == .invalidConfiguration)
            #expect(simulator.requests(to: .request("refreshToken")).isEmpty)
        }
    }

    @Test("a required method still refuses to send without a secret, before the browser or any request")
    func requiredSecretStillRequired() async throws {
        let spec = TwitchClient.provider
        try await withSimulator(spec) { simulator in
            let client = try Self.client(spec, simulator)
            // Twitch's exchange declares post: browser sign-in is refused when it starts, not after consent.
            let error = await #expect(throws: AuthError.self) { _ = try await client.prepareAuthorization() }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.message.contains("'exchangeCode'") == true)
            #expect(simulator.requests.isEmpty, "no discovery, authorize or exchange without the secret")
        }
    }

    @Test("Twitch validateToken sends Authorization: OAuth <token>; the simulator refuses Bearer there")
    func twitchOAuthScheme() async throws {
        let spec = TwitchClient.provider
        #expect(spec.requests["validateToken"]?.authorizationScheme == "OAuth")
        try await withSimulator(spec) { simulator in
            let client = try Self.client(spec, simulator)
            let session = try await client.completeDeviceAuthorization(try await client.startDeviceAuthorization())
            let result = try await TwitchClient(client: client).validateToken()
            let sent = try #require(simulator.requests(to: .request("validateToken")).first)
            #expect(sent.method == "GET")
            #expect(sent.path == "/oauth2/validate")
            #expect(sent.header("Authorization") == "OAuth \(session.accessToken)")
            guard case .document(let document) = result else {
                Issue.record("expected a document, got \(result)")
                return
            }
            #expect(document["user_id"]?.string == SimulatedUser.demo.id)
            #expect(document["client_id"]?.string == "demo-client")

            let bearer = try await simpleRequest(simulator.url("/oauth2/validate"), bearer: session.accessToken)
            #expect(bearer.status == 401, "the validate endpoint takes the OAuth scheme, not Bearer")
        }
    }
}
