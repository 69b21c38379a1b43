import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("ProviderSimulator: pushed authorization requests (RFC 9126) with OktaClient", timeLimit(minutes: 2))
struct SimulatorPushedAuthorizationTests {
    @Test("A browser sign-in through PAR opens the authorize endpoint with client_id and request_uri only")
    func signInThroughPushedRequest() async throws {
        try await withSimulator(OktaClient.provider) { simulator in
            let discovery = try await discoveryDocument(simulator)
            #expect(
                discovery["pushed_authorization_request_endpoint"] as? String
                    == simulator.url("/par").absoluteString)
            #expect(discovery["require_pushed_authorization_requests"] as? Bool == false)

            let okta = try oktaSenderConstrainedClient(simulator, pushes: true)
            let session = try await okta.client.signInWithBrowser(using: simulator.browser)
            #expect(session.user?.name == "Ada Lovelace")

            let pushes = simulator.requests(to: .pushedAuthorization)
            #expect(pushes.count == 1)
            let pushed = try #require(pushes.first).formBody
            #expect(pushed["client_id"] == "demo-client")
            #expect(pushed["redirect_uri"] != nil)
            #expect(pushed["code_challenge_method"] == "S256")
            #expect(pushed["state"] != nil)

            let authorizations = simulator.requests(to: .authorize)
            #expect(authorizations.count == 1)
            let authorize = try #require(authorizations.first)
            #expect(Set(authorize.queryItems.map(\.name)) == ["client_id", "request_uri"])
            #expect(authorize.query("client_id") == "demo-client")
            #expect(authorize.query("request_uri")?.hasPrefix("urn:ietf:params:oauth:request_uri:") == true)

            // The pushed dpop_jkt names the key of the code exchange's proof.
            let exchangeProof = try #require(simulator.tokenRequests.first?.header("DPoP"))
            #expect(pushed["dpop_jkt"] == ProviderSimulator.dpopKeyThumbprint(ofProof: exchangeProof))

            // A request URI is good once.
            let reopened = try await simulator.transport.send(
                TransportRequest(method: "GET", url: simulator.url(authorize.target)))
            #expect(reopened.status == 400)
            #expect(simulator.tokenRequests.count == 1)
        }
    }

    @Test("Parameters mixed into a pushed request's URL are ignored: the pushed ones count (RFC 9101 §5)")
    func mixedParametersIgnored() async throws {
        try await withSimulator(OktaClient.provider) { simulator in
            let okta = try oktaSenderConstrainedClient(simulator, usesDPoP: false, pushes: true)
            let request = try await okta.client.prepareAuthorization()
            let mixed = request.url.addingQuery("state", "forged-state").addingQuery("nonce", "forged-nonce")
                .addingQuery("redirect_uri", "https://attacker.example/callback")
            let callback = try await simulator.browser.follow(mixed, until: request.redirectURI)
            #expect(callback.absoluteString.contains("forged-state") == false)
            let session = try await okta.client.handleCallback(callback)
            #expect(session.user?.name == "Ada Lovelace")
            #expect(simulator.tokenRequests.count == 1)
        }
    }

    @Test("The pushed authorization endpoint checks the request as the authorize endpoint does")
    func pushedRequestValidation() async throws {
        try await withSimulator(OktaClient.provider) { simulator in
            let valid = [
                "client_id": "demo-client", "response_type": "code", "redirect_uri": "dev.example.test://callback",
                "state": "s", "code_challenge": "abc", "code_challenge_method": "S256",
            ]
            let accepted = try await simpleRequest(simulator.url("/par"), method: "POST", form: valid)
            #expect(accepted.status == 201)
            #expect((accepted.json["request_uri"] as? String)?.hasPrefix("urn:ietf:params:oauth:request_uri:") == true)
            #expect(accepted.json["expires_in"] as? Int == 60)
            let refusals: [[String: String?]] = [
                ["redirect_uri": nil], ["client_id": nil], ["code_challenge_method": "plain"],
                ["request_uri": "urn:ietf:params:oauth:request_uri:nested"],
            ]
            for change in refusals {
                var form = valid
                for (name, value) in change { form[name] = value }
                let refused = try await simpleRequest(simulator.url("/par"), method: "POST", form: form)
                #expect(refused.status == 400, "\(change)")
                #expect(refused.json["error"] as? String == "invalid_request", "\(change)")
            }
            #expect(simulator.requests(to: .pushedAuthorization).count == 1 + refusals.count)
        }
    }

    @Test("An expired request_uri ends the sign-in with a typed error and no token request")
    func expiredRequestURI() async throws {
        try await withSimulator(OktaClient.provider) { simulator in
            let okta = try oktaSenderConstrainedClient(simulator, usesDPoP: false, pushes: true)
            let request = try await okta.client.prepareAuthorization()
            simulator.expirePushedRequests()
            let callback = try await simulator.browser.follow(request.url, until: request.redirectURI)
            let error = await #expect(throws: AuthError.self) { try await okta.client.handleCallback(callback) }
            #expect(error?.providerCode == "invalid_request_uri")
            #expect(simulator.requests(to: .authorize).count == 1)
            #expect(simulator.tokenRequests.isEmpty)
        }
    }

    @Test("A request_uri without lifetime is pushed again before the browser opens, and refused when opened")
    func noLifetimeIsPushedAgain() async throws {
        try await withSimulator(OktaClient.provider) { simulator in
            // expires_in 0: the client sees every pushed request as expired, the simulator refuses every one
            // (no clock involved on either side).
            simulator.setPushedRequestLifetime(0)
            let okta = try oktaSenderConstrainedClient(simulator, usesDPoP: false, pushes: true)
            let error = await #expect(throws: AuthError.self) {
                try await okta.client.signInWithBrowser(using: simulator.browser)
            }
            #expect(error?.providerCode == "invalid_request_uri")
            let pushes = simulator.requests(to: .pushedAuthorization)
            #expect(pushes.count == 2)
            #expect(pushes.first?.formBody["state"] == pushes.last?.formBody["state"])
            #expect(simulator.requests(to: .authorize).count == 1)
            #expect(simulator.tokenRequests.isEmpty)
        }
    }

    @Test("When the provider requires PAR the client pushes unasked, and a request that was not pushed is refused")
    func requiredPushedAuthorization() async throws {
        try await withSimulator(OktaClient.provider) { simulator in
            simulator.requirePushedAuthorization()
            let okta = try oktaSenderConstrainedClient(simulator, usesDPoP: false, pushes: false)
            _ = try await okta.client.signInWithBrowser(using: simulator.browser)
            #expect(simulator.requests(to: .pushedAuthorization).count == 1)
            let authorize = try #require(simulator.requests(to: .authorize).first)
            #expect(Set(authorize.queryItems.map(\.name)) == ["client_id", "request_uri"])

            let redirect = ConformanceHarness.redirectURI(for: OktaClient.provider)
            let direct = simulator.url("/authorize")
                .addingQuery("client_id", "demo-client").addingQuery("response_type", "code")
                .addingQuery("redirect_uri", redirect.absoluteString).addingQuery("state", "direct-state")
            let callback = try await simulator.browser.follow(direct, until: redirect)
            let items = URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems ?? []
            #expect(items.first { $0.name == "error" }?.value == "invalid_request")
            #expect(items.first { $0.name == "state" }?.value == "direct-state")
            #expect(simulator.tokenRequests.count == 1)
        }
    }
}
