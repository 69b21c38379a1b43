import Foundation

/// Fetches an issuer's JWKS and keeps it.
///
/// The set is fetched on first use and kept for ``maximumAge``. When a token names a `kid` the cached set
/// lacks (the issuer rotated its keys), the set is fetched again once, but never more often than once
/// per ``minimumRefetchInterval``, so that tokens with made-up `kid`s cannot make the client hammer the
/// issuer. Concurrent callers share one request.
public actor JWKSCache {
    /// The default minimum time between two fetches triggered by unknown `kid`s: 60 seconds.
    public static let defaultMinimumRefetchInterval: TimeInterval = 60
    /// The default time a fetched set is kept: one hour.
    public static let defaultMaximumAge: TimeInterval = 3600

    /// The JWKS URL.
    public nonisolated let url: URL
    /// The minimum time between two fetches triggered by unknown `kid`s, in seconds.
    public nonisolated let minimumRefetchInterval: TimeInterval
    /// How long a fetched set is used before it is fetched again, in seconds.
    public nonisolated let maximumAge: TimeInterval
    /// How many JWKS requests the cache has sent.
    public private(set) var fetchCount = 0

    private let transport: any HTTPTransport
    private let failureCode: AuthError.Code
    private let now: @Sendable () -> Date
    private var cached: (keys: JSONWebKeySet, fetchedAt: Date)?
    private var lastFetchStart: Date?
    private var inFlight: Task<Result<JSONWebKeySet, AuthError>, Never>?

    /// Creates a cache; nothing is fetched until a key is needed.
    /// - Parameters:
    ///   - url: The JWKS URL (the discovery document's `jwks_uri`).
    ///   - transport: The transport that fetches it.
    ///   - minimumRefetchInterval: The minimum time between fetches triggered by unknown `kid`s (default 60 s).
    ///   - maximumAge: How long a set is kept (default one hour; never less than `minimumRefetchInterval`).
    ///   - failureCode: The code of the error thrown for an unknown `kid` (default `invalid_id_token`).
    ///   - now: The clock.
    public init(
        url: URL, transport: any HTTPTransport,
        minimumRefetchInterval: TimeInterval = JWKSCache.defaultMinimumRefetchInterval,
        maximumAge: TimeInterval = JWKSCache.defaultMaximumAge, failureCode: AuthError.Code = .invalidIDToken,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        precondition(minimumRefetchInterval >= 0 && maximumAge >= 0, "intervals must not be negative")
        self.url = url
        self.transport = transport
        self.minimumRefetchInterval = minimumRefetchInterval
        self.maximumAge = max(maximumAge, minimumRefetchInterval)
        self.failureCode = failureCode
        self.now = now
    }

    /// The key set: the cached one while it is fresh, otherwise a newly fetched one.
    /// - Returns: The key set.
    /// - Throws: ``AuthError`` when the JWKS cannot be fetched or decoded.
    public func keySet() async throws(AuthError) -> JSONWebKeySet {
        if let inFlight { return try await inFlight.value.get() }
        if let cached, now().timeIntervalSince(cached.fetchedAt) < maximumAge { return cached.keys }
        return try await fetch()
    }

    /// A key set that has a key with this `kid`: the cached one if it has it, otherwise a newly fetched one
    /// unless the last fetch started less than ``minimumRefetchInterval`` ago.
    /// - Parameter keyID: The token's `kid`.
    /// - Returns: The key set.
    /// - Throws: ``AuthError`` with the failure code (`invalid_id_token` by default) "no key with kid …"
    ///   when no set has it; fetch errors otherwise.
    public func keySet(containingKeyID keyID: String) async throws(AuthError) -> JSONWebKeySet {
        let current = try await keySet()
        if current.containsKey(withID: keyID) { return current }
        // keySet() joined any fetch under way, so a refetch here is a new request: rate-limit it.
        let mayRefetch = lastFetchStart.map { now().timeIntervalSince($0) >= minimumRefetchInterval } ?? true
        if mayRefetch {
            let fresh = try await fetch()
            if fresh.containsKey(withID: keyID) { return fresh }
        }
        throw AuthError(
            failureCode, "no key with kid \(MessageText.quoted(keyID)) in the JWKS at \(url.absoluteString)")
    }

    /// Forgets the cached set (the next use fetches), without resetting the refetch limit.
    public func invalidate() {
        cached = nil
    }

    /// Fetches the set, or joins the fetch under way.
    private func fetch() async throws(AuthError) -> JSONWebKeySet {
        if let inFlight { return try await inFlight.value.get() }
        lastFetchStart = now()
        fetchCount += 1
        let task = Task { [url, transport] in await Self.download(url: url, transport: transport) }
        inFlight = task
        let result = await task.value
        inFlight = nil
        if case .success(let keys) = result { cached = (keys, now()) }
        return try result.get()
    }

    private static func download(url: URL, transport: any HTTPTransport) async -> Result<JSONWebKeySet, AuthError> {
        let request = TransportRequest(method: "GET", url: url, headers: [("Accept", "application/json")])
        do {
            let response = try await transport.send(request)
            guard response.status == 200 else {
                let code: AuthError.Code = response.status >= 500 ? .serverError : .invalidResponse
                return .failure(
                    AuthError(code, "the JWKS endpoint answered HTTP \(response.status)", status: response.status))
            }
            return .success(try JSONWebKeySet(data: response.body))
        } catch {
            return .failure(error)
        }
    }
}
