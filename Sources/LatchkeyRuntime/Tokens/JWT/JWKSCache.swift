import Foundation
import LatchkeyTokens

/// Fetches an issuer's JWKS and keeps it (a ``KeySetCache`` of ``JSONWebKeySet``).
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
public final class JWKSCache: Sendable {
    /// The default window of the refetch bounds: 60 seconds.
    public static let defaultMinimumRefetchInterval: TimeInterval = 60
    /// The default number of refetches unknown `kid`s may trigger within the window: 3.
    public static let defaultUnknownKeyRefetchBudget = 3
    /// The default time a fetched set is kept: one hour.
    public static let defaultMaximumAge: TimeInterval = 3600

    /// The JWKS URL.
    public var url: URL { cache.url }
    /// The window of the refetch bounds, in seconds: a `kid` a refetch missed is not fetched for again
    /// within it, and at most ``unknownKeyRefetchBudget`` refetches start within it.
    public var minimumRefetchInterval: TimeInterval { cache.policy.minimumRefetchInterval }
    /// How many refetches unknown `kid`s may trigger within ``minimumRefetchInterval``.
    public var unknownKeyRefetchBudget: Int { cache.policy.unknownKeyRefetchBudget }
    /// How long a fetched set is used before it is fetched again, in seconds.
    public var maximumAge: TimeInterval { cache.policy.maximumAge }
    /// How many JWKS requests the cache has sent.
    public var fetchCount: Int { get async { await cache.fetchCount } }

    private let cache: KeySetCache<JSONWebKeySet>

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
        cache = KeySetCache(
            url: url,
            policy: .init(
                minimumRefetchInterval: minimumRefetchInterval, unknownKeyRefetchBudget: unknownKeyRefetchBudget,
                maximumAge: maximumAge),
            now: now, hasKey: { $0.containsKey(withID: $1) },
            unknownKeyError: { keyID in
                AuthError(
                    failureCode, "no key with kid \(MessageText.quoted(keyID)) in the JWKS at \(url.absoluteString)")
            },
            download: { await Self.download(url: url, transport: transport) })
    }

    /// The key set: the cached one while it is fresh, otherwise a newly fetched one.
    /// - Returns: The key set.
    /// - Throws: ``AuthError`` when the JWKS cannot be fetched or decoded.
    public func keySet() async throws(AuthError) -> JSONWebKeySet {
        try await cache.keySet()
    }

    /// A key set that has a key with this `kid`: the cached one if it has it, otherwise a newly fetched
    /// one, within the refetch bounds (see ``JWKSCache``).
    /// - Parameter keyID: The token's `kid`.
    /// - Returns: The key set.
    /// - Throws: ``AuthError`` with the failure code (`invalid_id_token` by default) "no key with kid …"
    ///   when no set has it; fetch errors otherwise.
    public func keySet(containingKeyID keyID: String) async throws(AuthError) -> JSONWebKeySet {
        try await cache.keySet(containingKeyID: keyID)
    }

    /// A key set for a token without `kid` that none of `failed`'s keys verifies: a newly fetched one when
    /// the issuer may have rotated its keys, within the refetch bounds (see ``JWKSCache``); otherwise
    /// `nil`.
    /// - Parameter failed: The set the signature did not verify with.
    /// - Returns: A newer set, or `nil` when none may be fetched or it is the same set.
    /// - Throws: Fetch errors.
    public func keySetReplacing(failed: JSONWebKeySet) async throws(AuthError) -> JSONWebKeySet? {
        try await cache.keySetReplacing(failed: failed)
    }

    /// Forgets the cached set (the next use fetches), without resetting the refetch bounds.
    public func invalidate() async {
        await cache.invalidate()
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
