import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The demo's steps.
struct DemoRun {
    let output: Output

    func run(_ mode: DemoMode) async throws {
        switch mode {
        case .help: print(DemoArguments.help)
        case .simulated(let name, let device): try await runSimulated(name, device: device)
        case .real(let issuer, let clientID, let device, let timeout):
            try await runReal(issuer: issuer, clientID: clientID, device: device, timeout: timeout)
        }
    }

    // MARK: - Simulator

    private func runSimulated(_ name: String, device: Bool) async throws {
        let found = device ? ProviderCatalog.deviceSpec(named: name) : ProviderCatalog.spec(named: name)
        guard let spec = found else {
            throw DemoArgumentError(message: "Unknown provider '\(name)'.")
        }
        let simulator = try ProviderSimulator(provider: spec)
        defer { simulator.stop() }
        output.step("Starting a local identity provider at \(simulator.issuer.absoluteString)")
        output.detail("It simulates \(spec.displayName) from its descriptor (\(spec.name)); the user is Ada Lovelace.")
        // Every request and every page the browser opens goes to the simulator, whatever host the descriptor names.
        let options = AuthClientOptions(transport: simulator.transport, store: InMemorySessionStore())
        let client: AuthClient
        if spec.name == OidcClient.provider.name {
            client = try OidcClient(issuer: simulator.issuer, clientID: "demo-client", options: options).client
        } else {
            var configuration = simulator.configuration(redirectURI: DemoRedirect.uri(for: spec))
            if DemoRedirect.needsSecret(spec) {
                configuration.clientSecret = "demo-client-secret"
                output.detail(
                    "\(spec.displayName) needs a client secret: the demo plays the server-side code that holds it.")
            }
            client = try AuthClient(provider: spec, configuration: configuration, options: options)
        }

        let session =
            device
            ? try await DeviceSignIn(output: output).run(client, approve: { try await simulator.approve($0) })
            : try await signIn(client, spec: spec, simulator: simulator)
        let user = try await userName(of: session, client)
        output.step("Signed in as \(user)")

        if spec.flows.refresh != nil, session.refreshToken != nil {
            output.step("Refreshing the session (the provider rotates the refresh token)…")
            let refreshed = try await client.currentSession(forceRefresh: true)
            output.detail(
                refreshed.accessToken != session.accessToken
                    ? "Got a new access token"
                        + (refreshed.expiresAt.map { ", valid until \($0.formatted(date: .omitted, time: .standard))" }
                            ?? "") + "."
                    : "The session is current.")
        }

        output.step("Calling the protected API with the access token…")
        let message = try await callProtected(simulator.protectedURL, token: try await client.validAccessToken())
        output.detail("The API answered: \(message)")

        output.step("Signing out…")
        try await client.signOut()
        output.step("Signed out.")
    }

    private func signIn(_ client: AuthClient, spec: ProviderSpec, simulator: ProviderSimulator) async throws -> Session
    {
        let browser = simulator.browser
        if let flow = spec.flows.authorizationCode, flow.returnsState,
            spec.callback.allowedRedirectKinds.contains(.loopback)
        {
            output.step("Signing in through the browser flow (authorization code) on a loopback redirect…")
            return try await client.signInWithLoopback(open: { url throws(AuthError) in try await browser.open(url) })
        }
        if spec.flows.password != nil, let user = simulator.users.first {
            output.step("Signing in with the password flow as \(user.email)…")
            return try await client.signIn(username: user.email, password: user.password)
        }
        if spec.flows.authorizationCode != nil {
            output.step("Signing in through the browser flow (authorization code) on \(DemoRedirect.uri(for: spec))…")
            return try await client.signInWithBrowser(using: browser)
        }
        if spec.flows.deviceCode != nil {
            return try await DeviceSignIn(output: output).run(client, approve: { try await simulator.approve($0) })
        }
        throw AuthError(.invalidConfiguration, "\(spec.displayName) has no flow the demo can run.")
    }

    private func userName(of session: Session, _ client: AuthClient) async throws -> String {
        if let user = session.user, let name = user.name ?? user.email { return name }
        if client.provider.flows.userInfo != nil, let user = try? await client.fetchUser() {
            return user.name ?? user.email ?? user.id
        }
        return session.user?.id ?? session.subject ?? "an unnamed user"
    }

    private func callProtected(_ url: URL, token: String) async throws -> String {
        var request = URLRequest(url: url)
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200,
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let message = object["message"] as? String
        else {
            throw AuthError(.invalidResponse, "The protected API answered \(status).", status: status)
        }
        return message
    }

    // MARK: - Real provider

    private func runReal(issuer: URL, clientID: String, device: Bool, timeout: LatchkeyDuration) async throws {
        output.step("Using the OpenID provider at \(issuer.absoluteString) (client \(clientID))")
        // The demo signs in and out once: it keeps nothing on disk (the default store would).
        let client = try OidcClient(
            issuer: issuer, clientID: clientID, options: AuthClientOptions(store: InMemorySessionStore())
        ).client
        let session: Session
        if device {
            try await Self.requireDeviceEndpoint(client, issuer: issuer)
            session = try await DeviceSignIn(output: output).run(client, approve: nil)
        } else {
            session = try await signInWithSystemBrowser(client, timeout: timeout)
        }
        output.step("Signed in as \(try await userName(of: session, client))")
        if OidcClient.provider.flows.refresh != nil, session.refreshToken != nil {
            output.step("Refreshing the session…")
            _ = try await client.currentSession(forceRefresh: true)
            output.detail("Got a new access token.")
        }
        output.step("Signing out…")
        try await client.signOut()
        output.step("Signed out.")
    }

    /// Signs in in the user's browser, with a hint when the redirect never comes back.
    private func signInWithSystemBrowser(_ client: AuthClient, timeout: LatchkeyDuration) async throws -> Session {
        output.step("Signing in through the browser flow (authorization code + PKCE) on a loopback redirect…")
        output.detail("Your browser opens the provider's sign-in page; finish signing in there.")
        do {
            return try await client.signInWithLoopback(open: SystemBrowser().opener, timeout: timeout)
        } catch {
            guard error.code == .timeout else { throw error }
            throw AuthError(
                .timeout,
                "The browser did not come back to the demo (\(error.message)). If it shows an error page, check "
                    + "--client-id and that the client's redirect URIs include http://127.0.0.1/callback.")
        }
    }

    /// Fails with advice when neither discovery nor `LATCHKEY_OIDC_DEVICE_AUTHORIZATION_ENDPOINT` gives the
    /// device authorization endpoint.
    private static func requireDeviceEndpoint(_ client: AuthClient, issuer: URL) async throws {
        let configured = ProcessInfo.processInfo.environment["LATCHKEY_OIDC_DEVICE_AUTHORIZATION_ENDPOINT"] ?? ""
        guard configured.isEmpty, try await client.discover()["device_authorization_endpoint"] == nil else { return }
        throw AuthError(
            .invalidConfiguration,
            "The provider's discovery document lists no device_authorization_endpoint: set "
                + "LATCHKEY_OIDC_DEVICE_AUTHORIZATION_ENDPOINT to it (django-oauth-toolkit: "
                + "\(issuer.absoluteString)/device-authorization/).")
    }
}
