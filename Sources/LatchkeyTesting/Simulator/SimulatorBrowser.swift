import Foundation
@_spi(Generated) import LatchkeyRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A ``HeadlessUserAgent`` that opens authorization URLs on this simulator whatever their host, so that
/// descriptors with a fixed authorize URL (`https://github.com/login/oauth/authorize`) sign in against
/// it too. Redirects are followed as the agent does; the callback is returned (or, for a loopback
/// redirect, requested).
///
/// For a provider whose callback is `form_post`, the authorize endpoint answers a page whose form POSTs
/// the callback parameters to the redirect URI: this browser submits that form to a loopback redirect
/// (``open(_:)``), and otherwise returns the redirect URI with the form body as its query, which is how
/// the runtime takes a `form_post` callback (``AuthClient/handleCallback(formBody:redirectURI:)``).
public struct SimulatorBrowser: WebAuthenticator {
    /// The simulator's base URL.
    public let base: URL
    /// The agent that follows the redirects.
    public let agent: HeadlessUserAgent
    /// Whether the provider's callback is a form POST (`response_mode=form_post`).
    public let postsForms: Bool

    /// Creates a browser for a simulator.
    /// - Parameters:
    ///   - base: The simulator's base URL (``ProviderSimulator/issuer``).
    ///   - agent: The user agent (a new one by default).
    ///   - postsForms: Whether the provider's callback is a form POST.
    public init(base: URL, agent: HeadlessUserAgent = HeadlessUserAgent(), postsForms: Bool = false) {
        self.base = base
        self.agent = agent
        self.postsForms = postsForms
    }

    /// The URL with the simulator's scheme, host and port.
    public func routed(_ url: URL) -> URL { SimulatorTransport.route(url, to: base) }

    /// ``WebAuthenticator``: follows the authorization URL (on the simulator) to the callback.
    public func authenticate(_ request: WebAuthenticationRequest) async throws(AuthError) -> URL {
        if postsForms { return try await formPostCallback(request.url).url }
        var routedRequest = request
        routedRequest.url = routed(request.url)
        return try await agent.authenticate(routedRequest)
    }

    /// Follows redirects from `url` (on the simulator) until one leads to `redirectURI`; returns that callback.
    public func follow(_ url: URL, until redirectURI: URL) async throws(AuthError) -> URL {
        if postsForms { return try await formPostCallback(url).url }
        return try await agent.follow(routed(url), until: redirectURI)
    }

    /// Opens `url` (on the simulator) and requests the loopback callback (POSTs it, for `form_post`), for
    /// ``AuthClient/signInWithLoopback(open:timeout:scopes:)``.
    public func open(_ url: URL) async throws(AuthError) {
        guard postsForms else { return try await agent.open(routed(url)) }
        let callback = try await formPostCallback(url)
        var request = URLRequest(url: callback.action)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(callback.body.utf8)
        _ = try await Self.send(request)
    }

    /// The `form_post` page's form: where it posts, its body, and the callback URL the runtime reads
    /// (the action with the body as its query).
    public func formPostCallback(_ url: URL) async throws(AuthError) -> (action: URL, body: String, url: URL) {
        var request = URLRequest(url: routed(url))
        request.setValue("text/html", forHTTPHeaderField: "Accept")
        let (status, data) = try await Self.send(request)
        guard status == 200, let html = String(data: data, encoding: .utf8),
            let form = HTMLForms.parse(html, pageURL: routed(url)).first(where: { $0.method == "POST" })
        else {
            throw AuthError(.webAuthStartFailed, "The authorize page answered \(status) without a form_post form.")
        }
        let body = FormBody.encode(form.fields)
        guard var components = URLComponents(url: form.action, resolvingAgainstBaseURL: false) else {
            throw AuthError(.webAuthStartFailed, "The form_post action is not a URL.")
        }
        components.percentEncodedQuery = body.isEmpty ? nil : body
        guard let callback = components.url else {
            throw AuthError(.webAuthStartFailed, "The form_post action is not a URL.")
        }
        return (form.action, body, callback)
    }

    private static func send(_ request: URLRequest) async throws(AuthError) -> (Int, Data) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.timeoutIntervalForRequest = 30
        let session = URLSession(
            configuration: configuration, delegate: RedirectRefusingDelegate(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        do {
            let (data, response) = try await session.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
        } catch {
            throw AuthError(.networkError, "The browser request failed: \(error.localizedDescription)")
        }
    }
}
