import Foundation

/// A browser sign-in (or an emailed link's PKCE flow) that waits for its callback, persisted so that a
/// callback after a relaunch completes.
struct PendingFlow: Sendable, Codable, Hashable {
    /// The state sent in the authorization request.
    var state: String
    /// The PKCE code verifier.
    var codeVerifier: String
    /// The nonce sent in the authorization request, if any.
    var nonce: String?
    /// The redirect URI the callback must come back to.
    var redirectURI: URL
    /// When the flow started (local clock).
    var createdAt: Date
    /// How long this flow may wait, in seconds, when it differs from the provider's pending lifetime
    /// (an emailed link's, say).
    var lifetime: Double? = nil
    /// The event published once the flow completes (`password_recovery`), if any.
    var event: String? = nil
    /// The `max_age` sent in the authorization request, in seconds, if any: the ID token's `auth_time`
    /// must be at most this old (records written before it existed decode without it).
    var maxAge: Int? = nil
    /// The DPoP key the code exchange proves possession of (``DPoPKey/storedForm``), when the client uses DPoP:
    /// made when the sign-in is prepared, so that a pushed request's `dpop_jkt` names it.
    var dpopKey: String? = nil

    /// Whether the flow is older than its lifetime at a moment.
    func isStale(at now: Date, lifetime defaultLifetime: Double) -> Bool {
        let lifetime = self.lifetime ?? defaultLifetime
        return now.timeIntervalSince(createdAt) > lifetime || createdAt.timeIntervalSince(now) > lifetime
    }
}
