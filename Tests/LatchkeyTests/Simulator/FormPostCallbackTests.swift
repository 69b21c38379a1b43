import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

/// Sign in with Apple's `response_mode=form_post` on the wire: the simulator answers the authorize
/// request with a page that POSTs the callback, and the runtime takes it through
/// `handleCallback(formBody:)` or the loopback redirect server; the first sign-in's `user` member fills in
/// the name the ID token lacks, never the identity.
@Suite("form_post callbacks (Apple)")
struct FormPostCallbackTests {
    static let secret = "apple-client-secret-jwt"

    /// A client for `spec` on the simulator, with the client secret Apple's token endpoint needs.
    static func client(_ spec: ProviderSpec, _ simulator: ProviderSimulator, redirect: URL?) throws -> AuthClient {
        var configuration = simulator.configuration(redirectURI: redirect)
        configuration.clientSecret = secret
        let options = AuthClientOptions(transport: simulator.transport, store: InMemorySessionStore())
        return try AuthClient(provider: spec, configuration: configuration, options: options)
    }

    static func claims(of idToken: String?) throws -> [String: Any] {
        let parts = try #require(idToken).split(separator: ".")
        let bytes = try #require(Base64URL.decode(String(parts[1])))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test("the POSTed form completes the sign-in; the first sign-in's user member names the user")
    func serverSideFormPost() async throws {
        let spec = AppleClient.provider
        #expect(spec.callback.location == .formPost)
        let redirect = URL(string: "https://app.example/auth/apple/callback")!
        try await withSimulator(spec) { simulator in
            let client = try Self.client(spec, simulator, redirect: redirect)
            let request = try await client.prepareAuthorization()
            let page = try await simulator.browser.formPostCallback(request.url)
            #expect(page.action == redirect)
            let authorize = try #require(simulator.requests(to: .authorize).first)
            #expect(authorize.method == "GET")
            #expect(authorize.parameter("response_mode") == "form_post")
            let form = Dictionary(uniqueKeysWithValues: page.url.queryPairs)
            #expect(form["state"] == request.state)
            #expect(form["code"] != nil)
            let userMember = try #require(form["user"], "the first sign-in carries the user member")
            #expect(userMember.contains("\"firstName\":\"Ada\""))
            #expect(simulator.tokenRequests.isEmpty, "nothing is exchanged before the callback is handled")

            let session = try await client.handleCallback(formBody: page.body, redirectURI: page.action)
            let exchange = try #require(simulator.requests(to: .request("exchangeCode")).first)
            #expect(exchange.method == "POST")
            #expect(exchange.path == "/auth/token")
            #expect(exchange.formBody["code"] == form["code"])
            #expect(exchange.formBody["client_secret"] == Self.secret)
            #expect(exchange.formBody["redirect_uri"] == redirect.absoluteString)
            let claims = try Self.claims(of: session.idToken)
            #expect(claims["name"] == nil, "the simulated Apple ID token carries no name")
            #expect(session.user?.id == SimulatedUser.demo.id)
            #expect(session.user?.email == SimulatedUser.demo.email)
            #expect(session.user?.name == "Ada Lovelace", "the name comes from the callback's user member")

            // Used once: the same POST again sends nothing.
            let replay = await #expect(throws: AuthError.self) {
                try await client.handleCallback(formBody: page.body, redirectURI: page.action)
            }
            #expect(replay?.code == .invalidCallback)
            #expect(simulator.tokenRequests.count == 1)

            // A later sign-in has no user member: the name is unknown, the identity the same.
            try await client.signOut()
            let second = try await simulator.browser.formPostCallback(
                try await client.prepareAuthorization().url)
            #expect(!second.body.contains("user="))
            let again = try await client.handleCallback(formBody: second.body, redirectURI: redirect)
            #expect(again.subject == SimulatedUser.demo.id, "the identity is the ID token's sub")
            #expect(again.user?.name == nil, "no user member, no name")
        }
    }

    @Test("a forged user member never changes the identity or the ID token's email")
    func forgedUserMember() async throws {
        let spec = AppleClient.provider
        let redirect = URL(string: "https://app.example/callback")!
        try await withSimulator(spec) { simulator in
            let client = try Self.client(spec, simulator, redirect: redirect)
            let page = try await simulator.browser.formPostCallback(try await client.prepareAuthorization().url)
            let forged =
                #"{"email":"mallory@evil.example","sub":"mallory","name":{"firstName":"Mallory","lastName":"M"}}"#
            let body = page.url.queryPairs.map { name, value in
                (name, name == "user" ? forged : value)
            }.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
                .joined(separator: "&")
            let session = try await client.handleCallback(formBody: body, redirectURI: redirect)
            #expect(session.user?.id == SimulatedUser.demo.id)
            #expect(session.user?.email == SimulatedUser.demo.email, "the verified ID token's email wins")
            #expect(session.user?.name == "Mallory M", "only the missing display name is filled in")
        }
    }

    @Test("a form body that is not form-encoded or too large is refused with no request")
    func refusedBodies() async throws {
        let spec = AppleClient.provider
        let redirect = URL(string: "https://app.example/callback")!
        try await withSimulator(spec) { simulator in
            let client = try Self.client(spec, simulator, redirect: redirect)
            _ = try await client.prepareAuthorization()
            for body in ["code=1&state=2#x", "code=1 2", String(repeating: "a", count: 70_000)] {
                let error = await #expect(throws: AuthError.self) {
                    try await client.handleCallback(formBody: body, redirectURI: redirect)
                }
                #expect(error?.code == .invalidCallback)
            }
            #expect(simulator.tokenRequests.isEmpty)
        }
    }

    @Test("over a loopback redirect the browser POSTs the form to the loopback server")
    func loopbackFormPost() async throws {
        var spec = AppleClient.provider
        spec.callback.allowedRedirectKinds = [.loopback]
        try await withSimulator(spec) { simulator in
            let client = try Self.client(spec, simulator, redirect: nil)
            let browser = simulator.browser
            let session = try await client.signInWithLoopback(
                open: { url throws(AuthError) in try await browser.open(url) }, timeout: .seconds(60))
            let exchange = try #require(simulator.requests(to: .request("exchangeCode")).first)
            #expect(exchange.formBody["redirect_uri"]?.hasPrefix("http://127.0.0.1:") == true)
            #expect(session.user?.name == "Ada Lovelace")
            #expect(session.user?.id == SimulatedUser.demo.id)
        }
    }
}

extension URL {
    /// The decoded query items, in order.
    var queryPairs: [(String, String)] {
        (URLComponents(url: self, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }
    }
}
