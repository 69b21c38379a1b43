import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

/// Plays the browser for the flow table: follows the authorization URL with ``HeadlessUserAgent``,
/// or cancels, or tampers with the callback's state. Remembers which URLs it opened, so that the
/// browser's own requests to the simulator are not counted as the client's.
final class BenchAuthenticator: WebAuthenticator, Sendable {
    enum Mode: Sendable {
        case follow
        case cancel
        case tamperState(parameter: String)
    }

    let mode: Mode
    private let agent = HeadlessUserAgent()
    private let openedPaths = Locked<Set<String>>([])

    init(_ mode: Mode) { self.mode = mode }

    var browserPaths: Set<String> { openedPaths.withLock { $0 } }

    func authenticate(_ request: WebAuthenticationRequest) async throws(AuthError) -> URL {
        openedPaths.withLock { _ = $0.insert(request.url.path) }
        switch mode {
        case .cancel:
            throw AuthError(.loginCancelled, "latchkey-bench: the user closed the browser")
        case .follow:
            return try await agent.authenticate(request)
        case .tamperState(let name):
            let callback = try await agent.authenticate(request)
            guard var components = URLComponents(url: callback, resolvingAgainstBaseURL: false) else { return callback }
            components.queryItems = (components.queryItems ?? []).map {
                $0.name == name ? URLQueryItem(name: name, value: "tampered-state") : $0
            }
            return components.url ?? callback
        }
    }
}

/// Section 4: requests sent per flow, for every generated client, against ``ProviderSimulator``.
struct FlowRequestsBench {
    static let providers: [(name: String, type: String, spec: ProviderSpec)] = [
        ("oidc", "OidcClient", OidcClient.provider),
        ("supabase", "SupabaseClient", SupabaseClient.provider),
        ("base-idp", "BaseIdPClient", BaseIdPClient.provider),
        ("sap-cdc", "SAPCustomerDataCloudClient", SAPCustomerDataCloudClient.provider),
    ]

    static let standardAuthorizeVariables: Set<String> = [
        "redirect_uri", "state", "nonce", "scope", "code_challenge", "code_challenge_method", "prompt", "login_hint",
        "max_age",
    ]

    /// One row's outcome.
    struct Outcome {
        var flow: String
        var requests: Int?
        var expected: Int?
        var expectedWhy: String
        var sent: [String]
        var browser: Int
        var note: String?
    }

    func run() async throws -> SectionResult {
        var table = Table(
            "Requests per flow: the generated clients against ProviderSimulator (requests the client sent)",
            [
                ("client", "client", false), ("flow", "flow", false), ("requests", "requests", true),
                ("minimum", "minimum", true), ("minimum is", "minimumBreakdown", false), ("sent", "sent", false),
                ("verdict", "verdict", false),
            ])
        var bugs: [String] = []
        var failures: [String] = []
        for provider in Self.providers {
            let outcomes = await flows(provider.spec)
            for outcome in outcomes {
                let verdict: String
                if let note = outcome.note, outcome.requests == nil {
                    verdict = note
                    if note.hasPrefix("ERROR") { failures.append("\(provider.name) \(outcome.flow)") }
                } else if let requests = outcome.requests, let expected = outcome.expected {
                    if requests > expected {
                        verdict = "BUG (+\(requests - expected))"
                        bugs.append("\(provider.name) \(outcome.flow)")
                    } else if requests < expected {
                        verdict = "ok, \(expected - requests) fewer" + (outcome.note.map { ": \($0)" } ?? "")
                    } else {
                        verdict = "ok" + (outcome.note.map { " (\($0))" } ?? "")
                    }
                } else {
                    verdict = outcome.note ?? "n/a"
                }
                let sentText =
                    outcome.sent.isEmpty
                    ? "-"
                    : outcome.sent.joined(separator: ", ")
                        + (outcome.browser > 0 ? "  [+\(outcome.browser) browser]" : "")
                table.add([
                    .text(provider.type), .text(outcome.flow),
                    outcome.requests.map { .int($0) } ?? .none, outcome.expected.map { .int($0) } ?? .none,
                    .text(outcome.expectedWhy), Cell(sentText, .array(outcome.sent.map(JSONOut.string))),
                    .text(verdict),
                ])
            }
        }
        table.notes = [
            "One ProviderSimulator per client; the client is the generated client's ProviderSpec in the runtime"
                + " AuthClient the generated wrapper forwards to, with simulator.transport and an InMemorySessionStore.",
            "Counted: the simulator's recorded requests during the call, minus the browser's (HeadlessUserAgent's GET of"
                + " the authorization URL, shown as [+1 browser]). Sign-in runs twice on one client: first use (discovery,"
                + " JWKS) and again.",
            "minimum: 1 token request; + discovery, + JWKS (when the descriptor validates ID tokens) and + the access-token"
                + " key set (PASETO descriptors) on first use only;"
                + " + user info where the descriptor declares fetchesUser; sign-out 1 with a sign-out request, 0 when local.",
            "Cancellation = the browser is closed (authenticator throws login_cancelled); state mismatch = the callback's"
                + " state replaced. Both run after a sign-in, so discovery is cached. BUG = more requests than the minimum.",
        ]
        var targets = [
            TargetResult.check(
                "requests per flow at the minimum (no BUG rows)", bugs.isEmpty,
                bugs.isEmpty ? "every row at or under its minimum" : "BUG: " + bugs.joined(separator: "; "))
        ]
        if !failures.isEmpty {
            targets.append(.check("every flow ran", false, failures.joined(separator: "; ")))
        }
        return SectionResult(key: "requestsPerFlow", tables: [table], targets: targets)
    }

    private func flows(_ spec: ProviderSpec) async -> [Outcome] {
        let simulator: ProviderSimulator
        do {
            simulator = try ProviderSimulator(provider: spec)
        } catch {
            return [Outcome(flow: "start simulator", expectedWhy: "", sent: [], browser: 0, note: "ERROR: \(error)")]
        }
        defer { simulator.stop() }
        let store = InMemorySessionStore()
        let redirect = URL(string: "dev.latchkey.bench://callback")!
        func makeClient() throws(AuthError) -> AuthClient {
            try AuthClient(
                provider: spec, configuration: simulator.configuration(redirectURI: redirect),
                options: AuthClientOptions(transport: simulator.transport, store: store))
        }
        let client: AuthClient
        do {
            client = try makeClient()
        } catch {
            return [Outcome(flow: "create client", expectedWhy: "", sent: [], browser: 0, note: "ERROR: \(error)")]
        }

        var outcomes: [Outcome] = []
        /// Runs one flow and counts what the client sent.
        func measure(
            _ flow: String, expected: Int, why: String, authenticator: BenchAuthenticator? = nil,
            expectError: AuthError.Code? = nil, _ body: () async throws(AuthError) -> Void
        ) async {
            simulator.resetRecording()
            var note: String?
            do {
                try await body()
                if let expectError { note = "ERROR: expected \(expectError.rawValue), got success" }
            } catch {
                if error.code != expectError { note = "ERROR: \(error.code.rawValue): \(error.message)" }
            }
            let browserPaths = authenticator?.browserPaths ?? []
            let recorded = simulator.requests
            let browser = recorded.filter { $0.method == "GET" && browserPaths.contains($0.path) }
            let sent = recorded.filter { !($0.method == "GET" && browserPaths.contains($0.path)) }
            if note == nil, expected > sent.count, why.range(of: "JWKS") != nil,
                !sent.contains(where: { $0.path.range(of: "jwks") != nil })
            {
                note = "no JWKS fetched: ID token signature not checked"
            }
            outcomes.append(
                Outcome(
                    flow: flow, requests: note?.hasPrefix("ERROR") == true ? nil : sent.count, expected: expected,
                    expectedWhy: why, sent: sent.map { "\($0.method) \($0.path)" }, browser: browser.count, note: note))
        }

        let userFetch = spec.flows.authorizationCode?.fetchesUser == true && spec.flows.userInfo != nil
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
            var parts = ["1 token"]
            var first = 1
            if spec.discovery != nil {
                first += 1
                parts.append("1 discovery")
            }
            if spec.tokens.validatesIDToken {
                first += 1
                parts.append("1 JWKS")
            }
            if spec.tokens.accessTokenKeysURL != nil {
                first += 1
                parts.append("1 access-token keys")
            }
            if userFetch {
                first += 1
                parts.append("1 user info")
            }
            let again = 1 + (userFetch ? 1 : 0)
            let follow = BenchAuthenticator(.follow)
            await measure(
                "authorization code, first use", expected: first, why: parts.joined(separator: " + "),
                authenticator: follow
            ) {
                () async throws(AuthError) in
                _ = try await client.signInWithBrowser(using: follow, additionalParameters: extra)
            }
            let followAgain = BenchAuthenticator(.follow)
            await measure(
                "authorization code, again", expected: again, why: userFetch ? "1 token + 1 user info" : "1 token",
                authenticator: followAgain
            ) { () async throws(AuthError) in
                _ = try await client.signInWithBrowser(using: followAgain, additionalParameters: extra)
            }
            let cancel = BenchAuthenticator(.cancel)
            await measure("cancellation", expected: 0, why: "0", authenticator: cancel, expectError: .loginCancelled) {
                () async throws(AuthError) in
                _ = try await client.signInWithBrowser(using: cancel, additionalParameters: extra)
            }
            if flow.returnsState {
                let tamper = BenchAuthenticator(.tamperState(parameter: spec.callback.stateParameter))
                await measure(
                    "state mismatch", expected: 0, why: "0", authenticator: tamper, expectError: .stateMismatch
                ) {
                    () async throws(AuthError) in
                    _ = try await client.signInWithBrowser(using: tamper, additionalParameters: extra)
                }
            } else {
                outcomes.append(
                    Outcome(
                        flow: "state mismatch", expectedWhy: "", sent: [], browser: 0,
                        note: "n/a: the descriptor's callback carries no state (PKCE only)"))
            }
        } else {
            outcomes.append(
                Outcome(flow: "authorization code", expectedWhy: "", sent: [], browser: 0, note: "n/a: not declared"))
        }
        if spec.flows.password != nil, let user = simulator.users.first {
            await measure("password sign-in", expected: 1, why: "1 token") { () async throws(AuthError) in
                _ = try await client.signIn(username: user.email, password: user.password)
            }
        } else {
            outcomes.append(
                Outcome(flow: "password sign-in", expectedWhy: "", sent: [], browser: 0, note: "n/a: not declared"))
        }
        await measure("restore (new client, stored session)", expected: 0, why: "0") { () async throws(AuthError) in
            let fresh = try makeClient()
            guard case .signedIn = await fresh.restore() else {
                throw AuthError(.sessionMissing, "restore did not find the stored session")
            }
        }
        if spec.flows.refresh != nil {
            await measure("refresh", expected: 1, why: "1 token") { () async throws(AuthError) in
                _ = try await client.currentSession(forceRefresh: true)
            }
        } else {
            outcomes.append(Outcome(flow: "refresh", expectedWhy: "", sent: [], browser: 0, note: "n/a: not declared"))
        }
        let remote = spec.flows.signOut?.request != nil
        await measure(
            remote ? "sign-out" : "sign-out (local)", expected: remote ? 1 : 0,
            why: remote ? "1 sign-out request" : "0 (no sign-out request declared)"
        ) { () async throws(AuthError) in
            try await client.signOut()
        }
        return outcomes
    }
}
