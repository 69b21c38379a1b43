import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A headless browser for real login pages, in tests: a cookie jar, redirects followed by hand, HTML
/// forms read from the page and submitted with overrides.
///
/// Each instance is one "browser" (one cookie jar, one session at the provider). It never sends an
/// `Origin` header. Redirects are never followed by URLSession (a session-level delegate refuses them;
/// swift-corelibs-foundation ignores per-task delegates): ``navigate(_:stoppingAt:deliverLoopback:)``
/// follows them itself, and stops at a redirect to the app's redirect URI: a loopback one
/// (`http://127.0.0.1:PORT/...`) is requested, so that the runtime's loopback redirect server receives
/// it; a custom-scheme one is only returned.
///
/// ``signIn(authorizeURL:username:password:approve:redirectURI:deliverLoopbackCallback:)`` and
/// ``approveDevice(verificationURI:username:password:approve:userCode:)`` script django-oauth-toolkit's
/// login, consent and device pages on top of it.
public final class FormUserAgent: Sendable {
    /// One HTTP response, as the browser saw it.
    public struct Page: Sendable {
        /// The URL requested.
        public let url: URL
        /// The method used.
        public let method: String
        /// The status code.
        public let status: Int
        /// Header fields, names lower-cased.
        public let headers: [String: String]
        /// The body as text (UTF-8, or Latin-1 when it is not UTF-8).
        public let body: String

        /// The `Location` header resolved against ``url``, for a redirect.
        public var location: URL? {
            guard (300..<400).contains(status), let value = headers["location"] else { return nil }
            return URL(string: value, relativeTo: url)?.absoluteURL
        }

        /// Whether the body contains a text.
        public func contains(_ text: String) -> Bool { body.range(of: text) != nil }

        /// Every `<form>` of the page, in document order.
        public var forms: [Form] { HTMLForms.parse(body, pageURL: url) }

        /// The form with this `id`, or the first form when `id` is `nil`.
        public func form(id: String? = nil) -> Form? {
            guard let id else { return forms.first }
            return forms.first { $0.id == id }
        }
    }

    /// An HTML form as found on a page.
    public struct Form: Sendable {
        /// The `id` attribute.
        public var id: String?
        /// Where it is submitted: the `action` resolved against the page URL (the page URL itself when
        /// `action` is missing or empty).
        public var action: URL
        /// `GET` or `POST` (upper case; `GET` when the form names none).
        public var method: String
        /// The fields a submission sends (inputs of every type but the buttons, unchecked boxes and
        /// disabled fields; textareas), in document order, attribute values HTML-unescaped.
        public var fields: [(name: String, value: String)]
        /// The named submit buttons (`<input type="submit">`, `<button>`): sent only when clicked.
        public var submitters: [(name: String, value: String)]

        /// The value of the first field with this name.
        public subscript(name: String) -> String? { fields.first { $0.name == name }?.value }

        /// The fields with overrides applied: a named field takes the override's value, an override with
        /// a new name is appended (a clicked button, say `allow=Authorize`).
        public func values(overriding overrides: [(name: String, value: String)]) -> [(name: String, value: String)] {
            var out = fields
            for (name, value) in overrides {
                if let index = out.firstIndex(where: { $0.name == name }) {
                    out[index].value = value
                } else {
                    out.append((name, value))
                }
            }
            return out
        }
    }

    /// Where a navigation ended.
    public enum Outcome: Sendable {
        /// A page that is not a redirect.
        case page(Page)
        /// A redirect to the redirect URI (or to a URL a browser cannot fetch, such as a custom scheme).
        case callback(URL)
    }

    /// One request the browser sent.
    public struct Exchange: Sendable {
        /// The method.
        public let method: String
        /// The URL.
        public let url: URL
        /// The status of the answer.
        public let status: Int
    }

    /// The most redirects followed in one navigation.
    public let maximumHops: Int
    private let session: URLSession
    private let jar = CookieJar()
    private let log = Locked<[Exchange]>([])

    /// Creates a browser with an empty cookie jar.
    /// - Parameter maximumHops: The most redirects followed in one navigation (default 10).
    public init(maximumHops: Int = 10) {
        self.maximumHops = maximumHops
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = 30
        self.session = URLSession(
            configuration: configuration, delegate: RedirectRefusingDelegate(), delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Every request sent so far, in order.
    public var history: [Exchange] { log.withLock { $0 } }

    /// The cookies the jar would send to a URL, as `name=value` pairs.
    public func cookies(for url: URL) -> [(name: String, value: String)] { jar.cookies(for: url, now: Date()) }

    // MARK: - Requests

    /// Requests a URL with `GET`, without following a redirect.
    public func get(_ url: URL) async throws(AuthError) -> Page {
        try await send(method: "GET", url: url, form: nil)
    }

    /// Posts a form body (`application/x-www-form-urlencoded`), without following a redirect.
    public func post(_ url: URL, form: [(name: String, value: String)]) async throws(AuthError) -> Page {
        try await send(method: "POST", url: url, form: form)
    }

    /// Submits a form with overrides, without following a redirect.
    /// - Parameters:
    ///   - form: The form.
    ///   - overrides: Values that replace the fields of the same name, or are appended (a clicked button).
    public func submit(_ form: Form, overrides: [(name: String, value: String)] = []) async throws(AuthError) -> Page {
        let values = form.values(overriding: overrides)
        if form.method == "GET" {
            var components = URLComponents(url: form.action, resolvingAgainstBaseURL: false)
            components?.percentEncodedQuery = FormBody.encode(values)
            guard let url = components?.url else {
                throw AuthError(.webAuthStartFailed, "The form's action \(form.action) cannot take a query.")
            }
            return try await get(url)
        }
        return try await post(form.action, form: values)
    }

    // MARK: - Navigation

    /// Requests a URL and follows redirects until a page that is not a redirect, or a redirect to
    /// `redirectURI` (same scheme, host, port and path).
    /// - Parameters:
    ///   - url: Where to start.
    ///   - redirectURI: The app's redirect URI, or `nil`.
    ///   - deliverLoopback: Whether a loopback (`http`) callback is requested before it is returned.
    public func navigate(_ url: URL, stoppingAt redirectURI: URL? = nil, deliverLoopback: Bool = true)
        async throws(AuthError) -> Outcome
    {
        try await follow(try await get(url), stoppingAt: redirectURI, deliverLoopback: deliverLoopback)
    }

    /// Submits a form with overrides, then follows redirects as ``navigate(_:stoppingAt:deliverLoopback:)``.
    public func submit(
        _ form: Form, overrides: [(name: String, value: String)] = [], stoppingAt redirectURI: URL?,
        deliverLoopback: Bool = true
    ) async throws(AuthError) -> Outcome {
        try await follow(
            try await submit(form, overrides: overrides), stoppingAt: redirectURI, deliverLoopback: deliverLoopback)
    }

    /// Follows the redirects that start at a response.
    public func follow(_ first: Page, stoppingAt redirectURI: URL?, deliverLoopback: Bool = true)
        async throws(AuthError) -> Outcome
    {
        var page = first
        for _ in 0...maximumHops {
            guard let next = page.location else { return .page(page) }
            let scheme = next.scheme?.lowercased() ?? ""
            let isWeb = scheme == "http" || scheme == "https"
            if let redirectURI, Self.sameEndpoint(next, redirectURI) {
                if isWeb, deliverLoopback { try await deliver(next) }
                return .callback(next)
            }
            guard isWeb else { return .callback(next) }
            if page.status == 307 || page.status == 308, page.method == "POST" {
                throw AuthError(.webAuthStartFailed, "A \(page.status) redirect of a POST is not supported.")
            }
            page = try await get(next)
        }
        throw AuthError(.webAuthStartFailed, "More than \(maximumHops) redirects.")
    }

    /// Same scheme, host (case-insensitive), port and path.
    static func sameEndpoint(_ url: URL, _ redirect: URL) -> Bool {
        guard let a = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let b = URLComponents(url: redirect, resolvingAgainstBaseURL: false)
        else { return false }
        let pathA = a.percentEncodedPath.isEmpty ? "/" : a.percentEncodedPath
        let pathB = b.percentEncodedPath.isEmpty ? "/" : b.percentEncodedPath
        return a.scheme?.lowercased() == b.scheme?.lowercased()
            && (a.host ?? "").lowercased() == (b.host ?? "").lowercased()
            && a.port == b.port && pathA == pathB
    }

    // MARK: - Transport

    /// Hands a loopback callback to whoever listens there (no cookies: it is the app, not the provider).
    private func deliver(_ callback: URL) async throws(AuthError) {
        _ = try await send(method: "GET", url: callback, form: nil, cookies: false)
    }

    private func send(method: String, url: URL, form: [(name: String, value: String)]?, cookies: Bool = true)
        async throws(AuthError) -> Page
    {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw AuthError(.webAuthStartFailed, "A browser cannot request \(url.scheme ?? "this") URLs here.")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("text/html,application/xhtml+xml,*/*;q=0.8", forHTTPHeaderField: "Accept")
        if cookies {
            let pairs = jar.cookies(for: url, now: Date())
            if !pairs.isEmpty {
                request.setValue(
                    pairs.map { "\($0.name)=\($0.value)" }.joined(separator: "; "), forHTTPHeaderField: "Cookie")
            }
        }
        if let form {
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(FormBody.encode(form).utf8)
        }
        let data: Data
        let http: HTTPURLResponse
        do {
            let (body, response) = try await session.data(for: request)
            guard let response = response as? HTTPURLResponse else {
                throw AuthError(.networkError, "No HTTP response from \(url.host ?? "the server").")
            }
            data = body
            http = response
        } catch let error as AuthError {
            throw error
        } catch {
            throw AuthError(
                .networkError,
                "The browser request \(method) \(url.absoluteString) failed: \(error.localizedDescription)")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        if cookies, let setCookie = headers["set-cookie"] {
            jar.store(setCookie, from: url, now: Date())
        }
        let body = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1) ?? ""
        let page = Page(url: url, method: method, status: http.statusCode, headers: headers, body: body)
        log.withLock { $0.append(Exchange(method: method, url: url, status: http.statusCode)) }
        return page
    }
}

/// `application/x-www-form-urlencoded` encoding, as browsers do it (space as `+`).
enum FormBody {
    private static let unreserved: CharacterSet = {
        var set = CharacterSet()
        set.insert(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789*-._ ")
        return set
    }()

    static func encode(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { component($0.name) + "=" + component($0.value) }.joined(separator: "&")
    }

    private static func component(_ text: String) -> String {
        (text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "").replacingOccurrences(of: " ", with: "+")
    }
}
