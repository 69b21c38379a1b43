import Foundation

/// Fetches a provider's PASETO key document (`{"keys": [...]}`) and keeps its usable entries
/// (``PasetoKeySet/usableEntries(of:)``: entries of other versions or purposes, and broken ones, are skipped as
/// Base IdP's SDKs skip them). Entries without an `implicit_assertion` get the descriptor's
/// (``TokenSpec/implicitAssertion``): Base IdP's SDK signs every access token with one whether or not its key
/// document names it.
///
/// The set is fetched on first use and kept. When a token names a `kid` the cached set lacks (the issuer
/// rotated its keys), the set is fetched again once, but never more often than once per
/// ``minimumRefetchInterval``, so that tokens with made-up `kid`s cannot make the client hammer the issuer.
/// Concurrent callers share one request.
actor AccessTokenKeyCache {
    /// The minimum time between two fetches triggered by unknown `kid`s, in seconds.
    static let minimumRefetchInterval: TimeInterval = 60

    /// The key document's URL.
    nonisolated let url: URL
    /// How many key-document requests the cache has sent.
    private(set) var fetchCount = 0

    private let transport: any HTTPTransport
    private let userAgent: String?
    private let defaultImplicitAssertion: [UInt8]
    private let now: @Sendable () -> Date
    private var cached: PasetoKeySet?
    private var lastFetchStart: Date?
    private var inFlight: Task<Result<PasetoKeySet, AuthError>, Never>?

    init(
        url: URL, transport: any HTTPTransport, userAgent: String?, defaultImplicitAssertion: [UInt8],
        now: @escaping @Sendable () -> Date
    ) {
        self.url = url
        self.transport = transport
        self.userAgent = userAgent
        self.defaultImplicitAssertion = defaultImplicitAssertion
        self.now = now
    }

    /// A key set that has a key with this `kid`: the cached one if it has it, otherwise a newly fetched one
    /// unless the last fetch started less than ``minimumRefetchInterval`` ago.
    /// - Parameter keyID: The token's (unauthenticated) `kid`; only used to look a trusted key up.
    /// - Returns: The key set.
    /// - Throws: `invalid_token` (``TokenVerificationFailure/unknownKey``) when no set has the key; fetch errors
    ///   (``TokenVerificationFailure/keyFetchFailed``) otherwise.
    func keySet(containingKeyID keyID: String) async throws(AuthError) -> PasetoKeySet {
        let current: PasetoKeySet
        if let cached, inFlight == nil { current = cached } else { current = try await fetch() }
        if current.key(for: keyID) != nil { return current }
        let mayRefetch = lastFetchStart.map { now().timeIntervalSince($0) >= Self.minimumRefetchInterval } ?? true
        if mayRefetch {
            let fresh = try await fetch()
            if fresh.key(for: keyID) != nil { return fresh }
        }
        throw AuthError(
            .invalidToken, "No key in the access-token key set at \(url.absoluteString) has the token's kid."
        ).because(.unknownKey)
    }

    /// Fetches the set, or joins the fetch under way.
    private func fetch() async throws(AuthError) -> PasetoKeySet {
        if let inFlight { return try await inFlight.value.get() }
        lastFetchStart = now()
        fetchCount += 1
        let task = Task { [url, transport, userAgent, defaultImplicitAssertion] in
            await Self.download(
                url: url, transport: transport, userAgent: userAgent, defaultImplicitAssertion: defaultImplicitAssertion
            )
        }
        inFlight = task
        let result = await task.value
        inFlight = nil
        if case .success(let keys) = result { cached = keys }
        return try result.get()
    }

    private static func download(
        url: URL, transport: any HTTPTransport, userAgent: String?, defaultImplicitAssertion: [UInt8]
    ) async -> Result<PasetoKeySet, AuthError> {
        var request = TransportRequest(method: "GET", url: url, headers: [("Accept", "application/json")])
        if let userAgent { request.setHeader("User-Agent", userAgent) }
        do throws(AuthError) {
            let response = try await transport.send(request)
            guard response.status == 200 else {
                let code: AuthError.Code = response.status >= 500 ? .serverError : .invalidResponse
                return .failure(
                    AuthError(
                        code, "The access-token key set endpoint answered HTTP \(response.status).",
                        status: response.status
                    ).because(.keyFetchFailed))
            }
            let published = try PasetoKeySet.usableEntries(of: response.body).keySet
            guard !defaultImplicitAssertion.isEmpty else { return .success(published) }
            var keys: [PasetoKeySet.Key] = []
            for key in published.keys {
                keys.append(
                    key.implicitAssertion.isEmpty
                        ? try PasetoKeySet.Key(
                            keyID: key.keyID, publicKey: key.publicKey, implicitAssertion: defaultImplicitAssertion)
                        : key)
            }
            return .success(try PasetoKeySet(keys: keys))
        } catch {
            return .failure(error.because(.keyFetchFailed))
        }
    }
}
