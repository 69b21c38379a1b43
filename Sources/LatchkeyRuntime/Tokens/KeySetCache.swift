import Foundation
import LatchkeyTokens

/// A key set fetched from one URL and kept: the one cache of the ID-token JWKS (``JWKSCache``) and of the
/// PASETO access-token keys.
///
/// The set is fetched on first use and kept for ``Policy/maximumAge``. When a token names a `kid` the cached set
/// lacks (the issuer rotated its keys), the set is fetched again at once, so that a sign-in right after a
/// rotation succeeds. The refetches are bounded, so that tokens with made-up `kid`s cannot make the client
/// hammer the issuer:
/// - concurrent callers share one request, and a caller whose set was fetched while it waited does not
///   fetch again;
/// - a token without `kid` that no cached key verifies counts as one unknown `kid`;
/// - a `kid` that a refetch did not find triggers no other refetch for ``Policy/minimumRefetchInterval``;
/// - at most ``Policy/unknownKeyRefetchBudget`` refetches for unknown `kid`s start within any
///   ``Policy/minimumRefetchInterval``.
package actor KeySetCache<KeySet: Sendable & Equatable> {
    /// The bounds of the cache.
    package struct Policy: Sendable, Equatable {
        /// The window of the refetch bounds, in seconds.
        package let minimumRefetchInterval: TimeInterval
        /// How many refetches unknown `kid`s may trigger within the window (at least 1).
        package let unknownKeyRefetchBudget: Int
        /// How long a fetched set is used before it is fetched again, in seconds (never less than the window).
        package let maximumAge: TimeInterval

        /// Creates bounds.
        /// - Parameters:
        ///   - minimumRefetchInterval: The window of the refetch bounds; not negative.
        ///   - unknownKeyRefetchBudget: The refetches unknown `kid`s may trigger within the window (raised to 1).
        ///   - maximumAge: How long a set is kept; not negative (raised to the window).
        package init(minimumRefetchInterval: TimeInterval, unknownKeyRefetchBudget: Int, maximumAge: TimeInterval) {
            precondition(minimumRefetchInterval >= 0 && maximumAge >= 0, "intervals must not be negative")
            self.minimumRefetchInterval = minimumRefetchInterval
            self.unknownKeyRefetchBudget = max(unknownKeyRefetchBudget, 1)
            self.maximumAge = max(maximumAge, minimumRefetchInterval)
        }
    }

    /// The most `kid`s remembered as missed; the oldest are forgotten first.
    static var maximumMissedKeyIDs: Int { 64 }

    /// The key set's URL.
    package nonisolated let url: URL
    /// The bounds.
    package nonisolated let policy: Policy
    /// How many key-set requests the cache has sent.
    package private(set) var fetchCount = 0

    private let download: @Sendable () async -> Result<KeySet, AuthError>
    private let hasKey: @Sendable (KeySet, String) -> Bool
    private let unknownKeyError: @Sendable (String) -> AuthError
    private let now: @Sendable () -> Date
    private var cached: (keys: KeySet, fetchedAt: Date)?
    private var inFlight: Task<Result<KeySet, AuthError>, Never>?
    /// How many fetches have ended (successfully or not).
    private var completedFetches = 0
    /// When the refetches for unknown `kid`s started, within the last window.
    private var unknownKeyRefetches: [Date] = []
    /// The `kid`s a refetch did not find, with when.
    private var missedKeyIDs: [String: Date] = [:]

    /// Creates a cache; nothing is fetched until a key is needed.
    /// - Parameters:
    ///   - url: The key set's URL (for messages; `download` fetches it).
    ///   - policy: The bounds.
    ///   - now: The clock.
    ///   - hasKey: Whether a set has a key with a `kid`.
    ///   - unknownKeyError: The error for a `kid` no set has (it names no secret).
    ///   - download: Fetches and decodes the set once.
    package init(
        url: URL, policy: Policy, now: @escaping @Sendable () -> Date,
        hasKey: @escaping @Sendable (KeySet, String) -> Bool,
        unknownKeyError: @escaping @Sendable (String) -> AuthError,
        download: @escaping @Sendable () async -> Result<KeySet, AuthError>
    ) {
        self.url = url
        self.policy = policy
        self.now = now
        self.hasKey = hasKey
        self.unknownKeyError = unknownKeyError
        self.download = download
    }

    /// The key set: the cached one while it is fresh, otherwise a newly fetched one.
    /// - Returns: The key set.
    /// - Throws: The download's error.
    package func keySet() async throws(AuthError) -> KeySet {
        if let inFlight { return try await inFlight.value.get() }
        if let cached, now().timeIntervalSince(cached.fetchedAt) < policy.maximumAge { return cached.keys }
        return try await fetch()
    }

    /// A key set that has a key with this `kid`: the cached one if it has it, otherwise a newly fetched one,
    /// within the refetch bounds.
    /// - Parameter keyID: The token's (unauthenticated) `kid`; only used to look a trusted key up.
    /// - Returns: The key set.
    /// - Throws: The unknown-key error when no set has it; the download's errors otherwise.
    package func keySet(containingKeyID keyID: String) async throws(AuthError) -> KeySet {
        let completedBefore = completedFetches
        let current = try await keySet()
        if hasKey(current, keyID) { return current }
        // keySet() fetched or joined a fetch: that set is as fresh as a refetch would be.
        if completedFetches == completedBefore, mayRefetch(forUnknownKeyID: keyID) {
            unknownKeyRefetches.append(now())
            let fresh = try await fetch()
            if hasKey(fresh, keyID) { return fresh }
        }
        rememberMiss(keyID)
        throw unknownKeyError(keyID)
    }

    /// A key set for a token without `kid` that none of `failed`'s keys verifies: a newly fetched one when the
    /// issuer may have rotated its keys, within the refetch bounds; otherwise `nil`.
    /// - Parameter failed: The set the signature did not verify with.
    /// - Returns: A newer set, or `nil` when none may be fetched or it is the same set.
    /// - Throws: The download's errors.
    package func keySetReplacing(failed: KeySet) async throws(AuthError) -> KeySet? {
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

    /// Forgets the cached set (the next use fetches), without resetting the refetch bounds.
    package func invalidate() {
        cached = nil
    }

    /// Stands for "a token without `kid`" among the missed `kid`s (no `kid` can hold a NUL).
    private static var keylessIdentifier: String { "\u{0}no-kid" }

    /// Whether an unknown `kid` may trigger a refetch now: it was not missed within the window, and the
    /// window's budget is not spent.
    private func mayRefetch(forUnknownKeyID keyID: String) -> Bool {
        let now = now()
        let window = policy.minimumRefetchInterval
        unknownKeyRefetches.removeAll { now.timeIntervalSince($0) >= window || $0 > now }
        if let missed = missedKeyIDs[keyID], now.timeIntervalSince(missed) < window, missed <= now {
            return false
        }
        return unknownKeyRefetches.count < policy.unknownKeyRefetchBudget
    }

    private func rememberMiss(_ keyID: String) {
        missedKeyIDs[keyID] = now()
        if missedKeyIDs.count > Self.maximumMissedKeyIDs, let oldest = missedKeyIDs.min(by: { $0.value < $1.value }) {
            missedKeyIDs[oldest.key] = nil
        }
    }

    /// Fetches the set, or joins the fetch under way.
    private func fetch() async throws(AuthError) -> KeySet {
        if let inFlight { return try await inFlight.value.get() }
        fetchCount += 1
        let task = Task { [download] in await download() }
        inFlight = task
        let result = await task.value
        inFlight = nil
        completedFetches += 1
        if case .success(let keys) = result { cached = (keys, now()) }
        return try result.get()
    }
}
