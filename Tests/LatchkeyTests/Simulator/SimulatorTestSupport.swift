import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A generated client's spec, its simulator and a runtime client on it, set up from the spec alone, so
/// that every descriptor in `LatchkeyProviders.all` is tested without Swift written for it.
struct ConformanceHarness {
    let spec: ProviderSpec
    let simulator: ProviderSimulator
    let client: AuthClient
    /// The redirect URI of browser sign-ins: a custom scheme when the provider accepts one, else https.
    let redirectURI: URL
    /// The device-flow pauses the client asked for (they return at once).
    let sleeps: SleepLog

    /// The client secret given to providers whose requests authenticate the client.
    static let clientSecret = "conformance-client-secret"

    /// The spec of a generated provider (or a ``variants`` entry), by descriptor name.
    static func spec(named name: String) throws -> ProviderSpec {
        try #require(
            (LatchkeyProviders.all + variants).first { $0.name == name }, "No generated provider named '\(name)'.")
    }

    /// Test-only variants of catalog providers for shapes the catalog must be able to grow into: a provider whose
    /// user has no email and that issues no refresh token (Reddit's and Strava's kind of user document).
    static let variants: [ProviderSpec] = {
        var spec = GitHubClient.provider
        spec.name = "github-without-email-or-refresh"
        spec.user.email = nil
        spec.flows.refresh = nil
        spec.session.refreshToken = nil
        return [spec]
    }()

    /// Runs `body` with a harness for the provider `name`; the simulator is shut down afterwards (off the
    /// concurrency pool), also when `body` throws.
    static func run(
        _ name: String, users: [SimulatedUser] = [.demo], _ body: (ConformanceHarness) async throws -> Void
    ) async throws {
        let spec = try spec(named: name)
        try await withSimulator(spec, users: users) { simulator in
            try await body(try make(spec, simulator))
        }
    }

    private static func make(_ spec: ProviderSpec, _ simulator: ProviderSimulator) throws -> ConformanceHarness {
        let redirect = redirectURI(for: spec)
        var configuration = simulator.configuration(redirectURI: redirect)
        if needsClientSecret(spec) { configuration.clientSecret = clientSecret }
        let sleeps = SleepLog()
        let options = AuthClientOptions(
            transport: simulator.transport, store: InMemorySessionStore(),
            sleep: { duration in sleeps.record(duration) })
        let client = try AuthClient(provider: spec, configuration: configuration, options: options)
        return ConformanceHarness(
            spec: spec, simulator: simulator, client: client, redirectURI: redirect, sleeps: sleeps)
    }

    /// Whether any request authenticates the client with a secret (`basic` or `post`).
    static func needsClientSecret(_ spec: ProviderSpec) -> Bool {
        spec.requests.values.contains { $0.clientAuthentication != .none }
    }

    static func redirectURI(for spec: ProviderSpec) -> URL {
        let kinds = spec.callback.allowedRedirectKinds
        if kinds.contains(.customScheme) { return URL(string: "dev.latchkey.conformance://callback")! }
        if kinds.contains(.https) { return URL(string: "https://conformance.latchkey.dev/callback")! }
        return URL(string: "http://127.0.0.1:9/callback")!
    }

    /// Values for authorize-query variables that are neither standard, inputs nor discovered (Supabase's
    /// `{provider}`): the app passes them as additional parameters.
    var extraAuthorizeParameters: [String: String] {
        let standard: Set<String> = [
            "redirect_uri", "state", "nonce", "scope", "code_challenge", "code_challenge_method", "prompt",
            "login_hint", "max_age",
        ]
        var extra: [String: String] = [:]
        for parameter in spec.flows.authorizationCode?.authorizeQuery ?? [] {
            if case .string(let template) = parameter.value, let variable = template.soleVariable,
                !variable.contains("."), !standard.contains(variable),
                !spec.inputs.contains(where: { $0.name == variable })
            {
                extra[variable] = "github"
            }
        }
        return extra
    }

    /// The sign-in that issues the first session: the password flow when declared (one request), else
    /// the browser flow.
    @discardableResult
    func signIn() async throws(AuthError) -> Session {
        if spec.flows.password != nil, let user = simulator.users.first {
            return try await client.signIn(username: user.email, password: user.password)
        }
        return try await client.signInWithBrowser(
            using: simulator.browser, additionalParameters: extraAuthorizeParameters)
    }

    /// The browser part of a sign-in: prepares it and follows the simulator to the callback URL.
    func browserCallback() async throws(AuthError) -> URL {
        let request = try await client.prepareAuthorization(additionalParameters: extraAuthorizeParameters)
        return try await simulator.browser.follow(request.url, until: request.redirectURI)
    }

    /// The name of the request the error-mapping tests make fail: the password request when declared,
    /// else the code exchange.
    var tokenRequestName: String? {
        spec.flows.password?.request ?? spec.flows.authorizationCode?.exchangeRequest
    }

    /// Sends exactly one token request (``tokenRequestName``) and returns what it threw.
    func failingTokenRequest() async throws -> AuthError? {
        do {
            if spec.flows.password != nil {
                let user = try #require(simulator.users.first)
                try await client.signIn(username: user.email, password: user.password)
            } else {
                try await client.handleCallback(try await browserCallback())
            }
            return nil
        } catch let error as AuthError {
            return error
        }
    }

    /// The name of the parameter whose value is exactly `{variable}` in a parameter list.
    static func carrier(of variable: String, in parameters: [ParameterSpec]) -> String? {
        parameters.first { parameter in
            if case .string(let template) = parameter.value { return template.soleVariable == variable }
            return false
        }?.name
    }

    /// The first row that matches a provider code and status: the runtime's documented rule.
    static func firstMatch(
        _ rules: [ErrorMappingSpec.Rule], providerCode: String?, status: Int?, request: String? = nil,
        members: [String: String] = [:]
    ) -> ErrorMappingSpec.Rule? {
        rules.first {
            $0.matches(providerCode: providerCode, status: status, request: request, member: { members[$0] })
        }
    }

    /// The members a row's `match` names (pointer → value), which the simulator puts in the error body.
    static func members(of rule: ErrorMappingSpec.Rule) -> [String: String] {
        Dictionary(rule.match.map { ($0.pointer, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// A provider code that triggers a row: its code, or its prefix followed by `x`; `nil` for a row
    /// that matches on the status only.
    static func triggeringCode(of rule: ErrorMappingSpec.Rule) -> String? {
        rule.providerCode ?? rule.providerCodePrefix.map { $0 + "x" }
    }
}

/// Runs `body` with a simulator for `provider`, then shuts it down off the concurrency pool (also when
/// `body` throws): `stop()` waits for the server's threads, which a test must not do on the pool.
func withSimulator(
    _ provider: ProviderSpec, users: [SimulatedUser] = [.demo], _ body: (ProviderSimulator) async throws -> Void
) async throws {
    let simulator = try ProviderSimulator(provider: provider, users: users)
    do {
        try await body(simulator)
    } catch {
        await simulator.shutdown()
        throw error
    }
    await simulator.shutdown()
}

/// The durations an injected `sleep` was asked for.
final class SleepLog: Sendable {
    private let durations = Locked<[LatchkeyDuration]>([])

    func record(_ duration: LatchkeyDuration) { durations.withLock { $0.append(duration) } }

    var all: [LatchkeyDuration] { durations.withLock { $0 } }
}

extension RecordedRequest {
    /// A parameter from the query, the form body or the JSON body.
    func parameter(_ name: String) -> String? {
        if let value = query(name) { return value }
        if let value = formBody[name] { return value }
        if let object = jsonBody as? [String: Any], let value = object[name] { return value as? String ?? "\(value)" }
        return nil
    }
}

/// Sends a request and returns the status and the JSON object of the answer.
func simpleRequest(
    _ url: URL, method: String = "GET", bearer: String? = nil, form: [String: String]? = nil
) async throws -> (status: Int, json: [String: Any]) {
    var request = URLRequest(url: url)
    request.httpMethod = method
    if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
    if let form {
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        request.httpBody = Data(
            form.sorted { $0.key < $1.key }.map {
                "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.value)"
            }.joined(separator: "&").utf8)
    }
    let (data, response) = try await URLSession.shared.data(for: request)
    let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, json)
}

extension URL {
    /// The URL with one more query item.
    func addingQuery(_ name: String, _ value: String) -> URL {
        var components = URLComponents(url: self, resolvingAgainstBaseURL: false)!
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: name, value: value)]
        return components.url!
    }
}
