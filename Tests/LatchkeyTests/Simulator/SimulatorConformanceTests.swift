import Foundation
import Latchkey
import LatchkeyTesting
import Testing

/// Every generated client's declared flows, round-tripped against the simulator built from its spec.
@Suite("ProviderSimulator conformance")
struct SimulatorConformanceTests {
    static let standardAuthorizeVariables: Set<String> = [
        "redirect_uri", "state", "nonce", "scope", "code_challenge", "code_challenge_method", "prompt", "login_hint",
        "max_age",
    ]

    @Test("Every declared flow round-trips", arguments: ["oidc", "supabase", "base-idp", "sap-cdc"])
    func roundTrip(name: String) async throws {
        let spec = try #require(GeneratedProviders.all[name])
        let simulator = try ProviderSimulator(provider: spec)
        defer { simulator.stop() }
        let redirect = URL(string: "dev.latchkey.conformance://callback")!
        let client = try AuthClient(
            provider: spec, configuration: simulator.configuration(redirectURI: redirect),
            options: AuthClientOptions(transport: simulator.transport, store: InMemorySessionStore()))
        let agent = HeadlessUserAgent()

        if let flow = spec.flows.authorizationCode {
            var extra: [String: String] = [:]
            for parameter in flow.authorizeQuery {
                if case .string(let template) = parameter.value, let variable = template.soleVariable,
                    !variable.contains("."), !Self.standardAuthorizeVariables.contains(variable),
                    !spec.inputs.contains(where: { $0.name == variable })
                {
                    extra[parameter.name] = "github"
                }
            }
            let session = try await client.signInWithBrowser(using: agent, additionalParameters: extra)
            try await checkSession(session, client: client, spec: spec, simulator: simulator)
            if flow.returnsState, spec.callback.allowedRedirectKinds.contains(.loopback) {
                let loopback = try await client.signInWithLoopback(open: { url throws(AuthError) in try await agent.open(url) })
                try await checkSession(loopback, client: client, spec: spec, simulator: simulator)
            }
        }
        if spec.flows.password != nil {
            let user = try #require(simulator.users.first)
            let session = try await client.signIn(username: user.email, password: user.password)
            try await checkSession(session, client: client, spec: spec, simulator: simulator)
            let wrong = await #expect(throws: AuthError.self) {
                try await client.signIn(username: user.email, password: "wrong-password")
            }
            #expect(wrong?.code == .invalidCredentials)
        }
        #expect(spec.flows.authorizationCode != nil || spec.flows.password != nil)
    }

    private func checkSession(
        _ session: Session, client: AuthClient, spec: ProviderSpec, simulator: ProviderSimulator
    ) async throws {
        #expect(session.refreshToken != nil)
        var current = session
        if spec.flows.userInfo != nil {
            let user = try await client.fetchUser()
            #expect(user.name == "Ada Lovelace")
            #expect(user.email == "ada@example.com")
        }
        if spec.flows.refresh != nil {
            current = try await client.currentSession(forceRefresh: true)
            #expect(current.accessToken != session.accessToken)
        }
        let protected = try await simpleRequest(simulator.protectedURL, bearer: try await client.validAccessToken())
        #expect(protected.json["message"] as? String == "Hello, Ada Lovelace")
        try await client.signOut()
        #expect(await client.cachedSession == nil)
        if spec.flows.signOut?.request != nil {
            let after = try await simpleRequest(simulator.protectedURL, bearer: current.accessToken)
            #expect(after.status == 401)
        }
    }
}
