import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Every generated provider's declared flows round-trip through its client against the simulator built
/// from its descriptor, and every error-mapping row yields its stable code and kind.
///
/// The providers come from `LatchkeyProviders.all` and every expectation from their specs: a new
/// descriptor is covered by these tests without any Swift written for it.
@Suite("ProviderSimulator conformance")
struct SimulatorConformanceTests {
    /// The catalog, and the harness's variants (an email-less, refresh-less provider).
    /// Server-side clients (`"audience": "server"`) have no sign-in flow to round-trip: their calls are wire-tested
    /// on their own (Supabase admin: `Tests/LatchkeyTests/Supabase/SupabaseAdmin*Tests.swift`).
    static let serverProviders = LatchkeyProviders.all.filter { $0.audience == .server }.map(\.name)
    static let providers =
        LatchkeyProviders.all.filter { $0.audience == .app }.map(\.name) + ConformanceHarness.variants.map(\.name)
    static let deviceProviders = LatchkeyProviders.all.filter { $0.flows.deviceCode != nil }.map(\.name)
    static let callbackProviders = LatchkeyProviders.all.filter {
        $0.flows.authorizationCode != nil && !$0.errors.callbackRules.isEmpty
    }.map(\.name)

    @Test("Every descriptor in Descriptors/ is a generated provider, once")
    func everyDescriptorIsListed() throws {
        #expect(Set(Self.providers).count == Self.providers.count)
        let folder = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Descriptors")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") }
        #expect(!files.isEmpty)
        for file in files {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let name = try #require(object["name"] as? String, "\(file) has no name")
            #expect(
                Self.providers.contains(name) || Self.serverProviders.contains(name),
                "\(file) (\(name)) is not in LatchkeyProviders.all")
        }
    }

    @Test("A server-side provider has no sign-in flow, and every app provider has one")
    func serverProvidersHaveNoFlows() {
        for spec in LatchkeyProviders.all {
            let signsIn = spec.flows.authorizationCode != nil || spec.flows.password != nil
            #expect(signsIn == (spec.audience == .app), "\(spec.name)")
        }
        #expect(Self.serverProviders == ["supabase-admin"])
    }

    // MARK: - Flows

    @Test("Every declared flow round-trips through the generated client", arguments: providers)
    func roundTrip(name: String) async throws {
        try await ConformanceHarness.run(name) { harness in
            let spec = harness.spec
            let simulator = harness.simulator
            let client = harness.client
            #expect(spec.flows.authorizationCode != nil || spec.flows.password != nil, "no sign-in flow")

            if let flow = spec.flows.authorizationCode {
                let session = try await client.signInWithBrowser(
                    using: simulator.browser, additionalParameters: harness.extraAuthorizeParameters)
                try checkBrowserWire(harness, flow: flow, session: session)
                try await checkSession(session, harness, nonceSent: flow.usesNonce)

                let loopbackAllowed = spec.callback.allowedRedirectKinds.contains(.loopback)
                if flow.returnsState, loopbackAllowed, harness.extraAuthorizeParameters.isEmpty {
                    simulator.resetRecording()
                    let browser = simulator.browser
                    let loopback = try await client.signInWithLoopback(
                        open: { url throws(AuthError) in try await browser.open(url) }, timeout: .seconds(60))
                    let authorize = try #require(simulator.requests(to: .authorize).first)
                    let redirect = try #require(
                        authorize.parameter(
                            ConformanceHarness.carrier(of: "redirect_uri", in: flow.authorizeQuery) ?? "redirect_uri"))
                    #expect(redirect.hasPrefix("http://127.0.0.1:"), "the loopback sign-in used \(redirect)")
                    try await checkSession(loopback, harness, nonceSent: flow.usesNonce)
                }
            }

            if spec.flows.password != nil {
                simulator.resetRecording()
                let user = try #require(simulator.users.first)
                let session = try await client.signIn(username: user.email, password: user.password)
                #expect(simulator.tokenRequests.count == 1)
                try await checkSession(session, harness, nonceSent: false)

                let wrong = await #expect(throws: AuthError.self) {
                    try await client.signIn(username: user.email, password: "wrong-password")
                }
                let mapsCredentials = spec.errors.rules.contains {
                    $0.code == AuthError.Code.invalidCredentials.rawValue
                }
                #expect(wrong?.code == (mapsCredentials ? .invalidCredentials : .invalidGrant))
            }
        }
    }

    @Test("The device flow completes after one authorization_pending", arguments: deviceProviders)
    func deviceFlow(name: String) async throws {
        try await ConformanceHarness.run(name) { harness in
            let spec = harness.spec
            let flow = try #require(spec.flows.deviceCode)
            let client = harness.client
            let authorization = try await client.startDeviceAuthorization()
            #expect(!authorization.userCode.isEmpty)
            #expect(authorization.verificationURI.scheme == "http" || authorization.verificationURI.scheme == "https")

            let session = try await client.completeDeviceAuthorization(authorization)
            #expect(harness.simulator.requests(to: .request(flow.authorizationRequest)).count == 1)
            #expect(
                harness.simulator.requests(to: .request(flow.tokenRequest)).count == 2, "one pending poll, then tokens")
            #expect(harness.sleeps.all == [.seconds(authorization.interval), .seconds(authorization.interval)])
            if spec.flows.userInfo != nil || spec.session.user != nil {
                #expect(session.user?.id.isEmpty == false)
                if spec.user.email != nil { #expect(session.user?.email == SimulatedUser.demo.email) }
            }
            if spec.tokens.validatesIDToken, spec.session.idToken != nil {
                #expect(session.idToken != nil)
                #expect(!harness.simulator.requests(to: .jwks).isEmpty, "the ID token was not checked against the JWKS")
            }
            #expect(await client.cachedSession?.accessToken == session.accessToken)
            let protected = try await simpleRequest(harness.simulator.protectedURL, bearer: session.accessToken)
            #expect(protected.json["message"] as? String == "Hello, Ada Lovelace")
        }
    }

    // MARK: - Error mapping

    @Test("Every error-mapping row yields its stable code and kind", arguments: providers)
    func errorRows(name: String) async throws {
        try await ConformanceHarness.run(name) { harness in
            let errors = harness.spec.errors
            guard !errors.rules.isEmpty else { return }
            let request = try #require(harness.tokenRequestName, "no token request to fail")
            let simulator = harness.simulator

            for (index, row) in errors.rules.enumerated() {
                let providerCode = ConformanceHarness.triggeringCode(of: row)
                let trigger = row.providerCode ?? row.providerCodePrefix.map { $0 + "…" } ?? "-"
                let label = "row \(index) [\(trigger) / \(row.status.map(String.init) ?? "-") → \(row.code)]"

                // The row's HTTP error status (or 400), the code at the first code pointer.
                let status = row.status ?? 400
                if status >= 400 {
                    let expected = try #require(
                        ConformanceHarness.firstMatch(
                            errors.rules, providerCode: providerCode, status: status, request: request))
                    simulator.failNext(
                        simulator.errorResponse(providerCode: providerCode, status: status), request: request)
                    try await expectMapped(
                        harness, request: request, expected: expected, providerCode: providerCode, status: status,
                        "\(label), HTTP \(status)")
                }

                // The same error in an HTTP 200 body, for descriptors that read errors there (a row that needs
                // a status only when the body can carry one).
                if errors.successBodyErrorPointer != nil, row.status == nil || errors.statusPointer != nil {
                    let code = providerCode ?? "simulated_error"
                    let realStatus = errors.statusPointer == nil ? 200 : status
                    guard
                        let expected = ConformanceHarness.firstMatch(
                            errors.rules, providerCode: code, status: realStatus, request: request)
                    else {
                        Issue.record("\(label): no row matches the HTTP 200 variant")
                        continue
                    }
                    simulator.failNext(
                        simulator.errorResponse(providerCode: code, status: status, inSuccessBody: true),
                        request: request)
                    try await expectMapped(
                        harness, request: request, expected: expected, providerCode: code, status: realStatus,
                        "\(label), HTTP 200 body")
                }
            }
        }
    }

    @Test("Every callback row yields its stable code with no token request", arguments: callbackProviders)
    func callbackRows(name: String) async throws {
        try await ConformanceHarness.run(name) { harness in
            let spec = harness.spec
            let rules = spec.errors.callbackRules
            for (index, row) in rules.enumerated() {
                // A row that names only a status never matches a callback (callbacks have no status).
                guard let code = ConformanceHarness.triggeringCode(of: row) else { continue }
                let expected = try #require(ConformanceHarness.firstMatch(rules, providerCode: code, status: nil))
                harness.simulator.resetRecording()
                harness.simulator.failNextAuthorization(
                    error: code, errorCode: spec.callback.errorCodeParameter == nil ? nil : code)
                let callback = try await harness.browserCallback()
                let error = await #expect(throws: AuthError.self, "callback row \(index) (\(code))") {
                    try await harness.client.handleCallback(callback)
                }
                #expect(error?.code.rawValue == expected.code, "callback row \(index) (\(code))")
                #expect(error?.kind == expected.kind, "callback row \(index) (\(code))")
                #expect(error?.providerCode == code, "callback row \(index) (\(code))")
                #expect(harness.simulator.tokenRequests.isEmpty, "callback row \(index) (\(code)) sent a token request")
                #expect(await harness.client.cachedSession == nil)
            }
        }
    }

    // MARK: - Checks

    /// Fails the next token request with a prepared answer and checks the thrown error.
    private func expectMapped(
        _ harness: ConformanceHarness, request: String, expected: ErrorMappingSpec.Rule, providerCode: String?,
        status: Int, _ label: String
    ) async throws {
        let before = harness.simulator.requests(to: .request(request)).count
        let error = try await harness.failingTokenRequest()
        #expect(harness.simulator.requests(to: .request(request)).count == before + 1, "\(label): one token request")
        #expect(error != nil, "\(label): the request did not fail")
        guard let error else { return }
        #expect(error.code.rawValue == expected.code, "\(label): \(error)")
        #expect(error.kind == expected.kind, "\(label): \(error)")
        #expect(error.providerCode == providerCode, "\(label): \(error)")
        #expect(error.status == status, "\(label): \(error)")
    }

    /// The browser sign-in's wire: discovery, state, PKCE, nonce and JWKS as the descriptor declares them.
    private func checkBrowserWire(
        _ harness: ConformanceHarness, flow: AuthorizationCodeFlowSpec, session: Session
    ) throws {
        let spec = harness.spec
        let simulator = harness.simulator
        if spec.discovery != nil {
            #expect(!simulator.requests(to: .discovery).isEmpty, "no discovery request")
        }
        let authorize = try #require(simulator.requests(to: .authorize).first, "the browser never reached authorize")
        let stateName = ConformanceHarness.carrier(of: "state", in: flow.authorizeQuery)
        if flow.returnsState {
            let name = try #require(stateName, "returnsState without a {state} parameter")
            #expect(authorize.parameter(name) != nil)
        }
        if flow.usesNonce, let name = ConformanceHarness.carrier(of: "nonce", in: flow.authorizeQuery) {
            #expect(authorize.parameter(name) != nil)
        }
        let exchangeSpec = try #require(spec.requests[flow.exchangeRequest])
        let exchange = try #require(simulator.requests(to: .request(flow.exchangeRequest)).last, "no code exchange")
        if let challengeName = ConformanceHarness.carrier(of: "code_challenge", in: flow.authorizeQuery) {
            let challenge = try #require(authorize.parameter(challengeName))
            let verifierName = try #require(
                ConformanceHarness.carrier(of: "code_verifier", in: exchangeSpec.query + exchangeSpec.body))
            let verifier = try #require(exchange.parameter(verifierName))
            #expect(PKCE.challenge(for: verifier) == challenge)
        }
        if ConformanceHarness.needsClientSecret(spec), exchangeSpec.clientAuthentication != .none {
            let sent =
                exchange.header("Authorization")?.hasPrefix("Basic ") == true
                || exchange.parameter("client_secret") == ConformanceHarness.clientSecret
            #expect(sent, "the exchange did not authenticate the client")
        }
        if spec.tokens.validatesIDToken, spec.session.idToken != nil {
            #expect(session.idToken != nil)
            #expect(!simulator.requests(to: .jwks).isEmpty, "the ID token was not checked against the JWKS")
        }
    }

    /// User, refresh with rotation, the protected resource and sign-out, as the descriptor declares them.
    private func checkSession(_ session: Session, _ harness: ConformanceHarness, nonceSent: Bool) async throws {
        let spec = harness.spec
        let client = harness.client
        let simulator = harness.simulator
        if spec.session.refreshToken != nil { #expect(session.refreshToken != nil) }
        // A provider whose user document has no email (Reddit, Strava) is checked for what it maps.
        if spec.session.user != nil, spec.user.email != nil { #expect(session.user?.email == SimulatedUser.demo.email) }
        if spec.session.refreshToken == nil { #expect(session.refreshToken == nil) }
        if nonceSent, spec.tokens.validatesIDToken, spec.session.idToken != nil { #expect(session.idToken != nil) }
        var current = session
        if spec.flows.userInfo != nil {
            let user = try await client.fetchUser()
            #expect(!user.id.isEmpty)
            if spec.user.name != nil || !spec.user.nameParts.isEmpty { #expect(user.name == SimulatedUser.demo.name) }
            if spec.user.email != nil {
                #expect(user.email == SimulatedUser.demo.email)
            } else {
                #expect(user.email == nil)
            }
        }
        if spec.flows.refresh != nil {
            current = try await client.currentSession(forceRefresh: true)
            #expect(current.accessToken != session.accessToken)
            if session.refreshToken != nil {
                #expect(current.refreshToken != nil && current.refreshToken != session.refreshToken, "not rotated")
            }
        }
        let protected = try await simpleRequest(simulator.protectedURL, bearer: try await client.validAccessToken())
        #expect(protected.json["message"] as? String == "Hello, Ada Lovelace")

        try await client.signOut()
        #expect(await client.cachedSession == nil)
        if let request = spec.flows.signOut?.request {
            #expect(!simulator.requests(to: .request(request)).isEmpty, "no sign-out request")
            let after = try await simpleRequest(simulator.protectedURL, bearer: current.accessToken)
            #expect(after.status == 401, "the sign-out request did not end the session")
        }
    }
}
