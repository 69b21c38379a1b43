import Foundation
import LatchkeyPlatform
import LatchkeyTokens
import LatchkeyVocabulary

/// Fetches a provider's PASETO key document (`{"keys": [...]}`) and keeps its usable entries
/// (``PasetoKeySet/usableEntries(of:)``: entries of other versions or purposes, and broken ones, are skipped as
/// Base IdP's SDKs skip them). When the descriptor names an implicit assertion (``TokenSpec/implicitAssertion``),
/// every entry gets it and an entry's own `implicit_assertion` is ignored: Base IdP's TypeScript, Go and Rust
/// SDKs verify with their constant one whatever the key document says. Without one, an entry's own is used.
///
/// It is a ``KeySetCache`` (the one the ID-token JWKS uses too): one request for concurrent callers, the set
/// kept for an hour, and at most one refetch for unknown `kid`s a minute (a `kid` a refetch missed triggers
/// none for a minute), so that tokens with made-up `kid`s cannot make the client hammer the issuer.
typealias AccessTokenKeyCache = KeySetCache<PasetoKeySet>

extension KeySetCache where KeySet == PasetoKeySet {
    /// The bounds of the access-token key cache: a one-minute window with one refetch for unknown `kid`s in
    /// it, and a set kept for an hour.
    static var accessTokenKeyPolicy: Policy {
        Policy(minimumRefetchInterval: 60, unknownKeyRefetchBudget: 1, maximumAge: 3600)
    }

    /// Creates the cache of the PASETO key document at `url`; nothing is fetched until a key is needed.
    /// - Parameters:
    ///   - url: The key document's URL.
    ///   - transport: The transport that fetches it.
    ///   - userAgent: The `User-Agent` header, if any.
    ///   - defaultImplicitAssertion: The descriptor's implicit assertion, which replaces every entry's own
    ///     (empty: each entry's own, or none).
    ///   - now: The clock.
    static func accessTokenKeys(
        url: URL, transport: any HTTPTransport, userAgent: String?, defaultImplicitAssertion: [UInt8],
        now: @escaping @Sendable () -> Date
    ) -> KeySetCache<PasetoKeySet> {
        // The `kid`s of the last document's unusable Ed25519 entries (``PasetoKeySet/unusableKeyIDs(of:)``).
        let unusable = Locked<Set<String>>([])
        return KeySetCache(
            url: url, policy: accessTokenKeyPolicy, now: now, hasKey: { $0.key(for: $1) != nil },
            unknownKeyError: { keyID in
                if unusable.withLock({ $0.contains(keyID) }) {
                    return AuthError(
                        .invalidToken,
                        "The access-token key set at \(url.absoluteString) lists the token's kid with an unusable key."
                    ).because(.invalidKey)
                }
                return AuthError(
                    .invalidToken, "No key in the access-token key set at \(url.absoluteString) has the token's kid."
                ).because(.unknownKey)
            },
            download: {
                await download(
                    url: url, transport: transport, userAgent: userAgent,
                    defaultImplicitAssertion: defaultImplicitAssertion, unusable: unusable)
            })
    }

    private static func download(
        url: URL, transport: any HTTPTransport, userAgent: String?, defaultImplicitAssertion: [UInt8],
        unusable: Locked<Set<String>>
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
            let unusableKeyIDs = PasetoKeySet.unusableKeyIDs(of: response.body)
            unusable.withLock { $0 = unusableKeyIDs }
            let published = try PasetoKeySet.usableEntries(of: response.body).keySet
            guard !defaultImplicitAssertion.isEmpty else { return .success(published) }
            var keys: [PasetoKeySet.Key] = []
            for key in published.keys {
                keys.append(
                    try PasetoKeySet.Key(
                        keyID: key.keyID, publicKey: key.publicKey, implicitAssertion: defaultImplicitAssertion))
            }
            return .success(try PasetoKeySet(keys: keys))
        } catch {
            return .failure(error.because(.keyFetchFailed))
        }
    }
}
