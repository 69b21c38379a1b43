import Foundation

/// Fetches an issuer's JWKS and keeps it.
///
/// The set is fetched on first use and kept for ``maximumAge``. When a token names a `kid` the cached set
/// lacks (the issuer rotated its keys), the set is fetched again at once, so that a sign-in right after a
/// rotation succeeds. The refetches are bounded, so that tokens with made-up `kid`s cannot make the client
/// hammer the issuer:
/// - concurrent callers share one request, and a caller whose set was fetched while it waited does not
///   fetch again;
/// - a token without `kid` that no cached key verifies counts as one unknown `kid`;
/// - a `kid` that a refetch did not find triggers no other refetch for ``minimumRefetchInterval``;
/// - at most ``unknownKeyRefetchBudget`` refetches for unknown `kid`s start within any
///   ``minimumRefetchInterval``.
public actor JWKSCache {
    /// The default window of the refetch bounds: 60 seconds.
    public static let defaultMinimumRefetchInterval: TimeInterval = 60
    /// The default number of refetches unknown `kid`s may trigger within the window: 3.
    public static let defaultUnknownKeyRefetchBudget = 3
    /// The default time a fetched set is kept: one hour.
    public static let defaultMaximumAge: TimeInterval = 3600
    /// The most `kid`s remembered as missed; the oldest are forgotten first.
    static let maximumMissedKeyIDs = 64

    /// The JWKS URL.
    public nonisolated let url: URL
    /// The window of the refetch bounds, in seconds: a `kid` a refetch missed is not fetched for again
    /// within it, and at most ``unknownKeyRefetchBudget`` refetches start within it.
    public nonisolated let minimumRefetchInterval: TimeInterval
    /// How many refetches unknown `kid`s may trigger within ``minimumRefetchInterval``.
    public nonisolated let unknownKeyRefetchBudget: Int
    /// How long a fetched set is used before it is fetched again, in seconds.
    public nonisolated let maximumAge: TimeInterval
    /// How many JWKS requests the cache has sent.
    public private(set) var fetchCount = 0

    private let transport: any HTTPTransport
    private let failureCode: AuthError.Code
    private let now: @Sendable () -> Date
    private var cached: (keys: JSONWebKeySet, fetchedAt: Date)?
    private var inFlight: Task<Result<JSONWebKeySet, AuthError>, Never>?
    /// How many fetches have ended (successfully or not).
    private var completedFetches = 0
    /// When the refetches for unknown `kid`s started, within the last window.
    private var unknownKeyRefetches: [Date] = []
    /// The `kid`s a refetch did not find, with when.
    private var missedKeyIDs: [String: Date] = [:]

    /// Creates a cache; nothing is fetched until a key is needed.
    /// - Parameters:
    ///   - url: The JWKS URL (the discovery document's `jwks_uri`).
    ///   - transport: The transport that fetches it.
    ///   - minimumRefetchInterval: The window of the refetch bounds (default 60 s).
    ///   - unknownKeyRefetchBudget: The refetches unknown `kid`s may trigger within the window (default 3;
    ///     at least 1).
    ///   - maximumAge: How long a set is kept (default one hour; never less than `minimumRefetchInterval`).
    ///   - failureCode: The code of the error thrown for an unknown `kid` (default `invalid_id_token`).
    ///   - now: The clock.
    public init(
        url: URL, transport: any HTTPTransport,
        minimumRefetchInterval: TimeInterval = JWKSCache.defaultMinimumRefetchInterval,
        unknownKeyRefetchBudget: Int = JWKSCache.defaultUnknownKeyRefetchBudget,
        maximumAge: TimeInterval = JWKSCache.defaultMaximumAge, failureCode: AuthError.Code = .invalidIDToken,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        precondition(minimumRefetchInterval >= 0 && maximumAge >= 0, "intervals must not be negative")
        self.url = url
        self.transport = transport
        self.minimumRefetchInterval = minimumRefetchInterval
        self.unknownKeyRefetchBudget = max(unknownKeyRefetchBudget, 1)
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

    /// A key set that has a key with this `kid`: the cached one if it has it, otherwise a newly fetched
    /// one, within the refetch bounds (see ``JWKSCache``).
    /// - Parameter keyID: The token's `kid`.
    /// - Returns: The key set.
    /// - Throws: ``AuthError`` with the failure code (`invalid_id_token` by default) "no key with kid …"
    ///   when no set has it; fetch errors otherwise.
    public func keySet(containingKeyID keyID: String) async throws(AuthError) -> JSONWebKeySet {
        let completedBefore = completedFetches
        let current = try await keySet()
        if current.containsKey(withID: keyID) { return current }
        // keySet() fetched or joined a fetch: that set is as fresh as a refetch would be.
        if completedFetches == completedBefore, mayRefetch(forUnknownKeyID: keyID) {
            unknownKeyRefetches.append(now())
            let fresh = try await fetch()
            if fresh.containsKey(withID: keyID) { return fresh }
        }
        rememberMiss(keyID)
        throw AuthError(
            failureCode, "no key with kid \(MessageText.quoted(keyID)) in the JWKS at \(url.absoluteString)")
    }

    /// A key set for a token without `kid` that none of `failed`'s keys verifies: a newly fetched one when
    /// the issuer may have rotated its keys, within the refetch bounds (see ``JWKSCache``); otherwise
    /// `nil`.
    /// - Parameter failed: The set the signature did not verify with.
    /// - Returns: A newer set, or `nil` when none may be fetched or it is the same set.
    /// - Throws: Fetch errors.
    public func keySetReplacing(failed: JSONWebKeySet) async throws(AuthError) -> JSONWebKeySet? {
        if let cached, cached.keys != failed { return cached.keys }
        if inFlight != nil {
            let joined = try await fetch()
            return joined == failed ? nil : joined
        }
        guard mayRefetch(forUnknownKeyID: Self.keylessIdentifier) else { return nil }
        unknownKeyRefetches.append(now())
        let fresh = try await fetch()
        guard fresh != failed else {
            rememberMiss(Self.keylessIdentifier)
            return nil
        }
        return fresh
    }

    /// Stands for "a token without `kid`" among the missed `kid`s (no JWK `kid` can hold a NUL).
    private static let keylessIdentifier = "\u{0}no-kid"

    /// Whether an unknown `kid` may trigger a refetch now: it was not missed within the window, and the
    /// window's budget is not spent.
    private func mayRefetch(forUnknownKeyID keyID: String) -> Bool {
        let now = now()
        unknownKeyRefetches.removeAll { now.timeIntervalSince($0) >= minimumRefetchInterval || $0 > now }
        if let missed = missedKeyIDs[keyID], now.timeIntervalSince(missed) < minimumRefetchInterval, missed <= now {
            return false
        }
        return unknownKeyRefetches.count < unknownKeyRefetchBudget
    }

    private func rememberMiss(_ keyID: String) {
        missedKeyIDs[keyID] = now()
        if missedKeyIDs.count > Self.maximumMissedKeyIDs, let oldest = missedKeyIDs.min(by: { $0.value < $1.value }) {
            missedKeyIDs[oldest.key] = nil
        }
    }

    /// Forgets the cached set (the next use fetches), without resetting the refetch bounds.
    public func invalidate() {
        cached = nil
    }

    /// Fetches the set, or joins the fetch under way.
    private func fetch() async throws(AuthError) -> JSONWebKeySet {
        if let inFlight { return try await inFlight.value.get() }
        fetchCount += 1
        let task = Task { [url, transport] in await Self.download(url: url, transport: transport) }
        inFlight = task
        let result = await task.value
        inFlight = nil
        completedFetches += 1
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
