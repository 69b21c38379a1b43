import Foundation

/// A browser sign-in that waits for its callback, persisted so that a callback after a relaunch completes.
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

    /// Whether the flow is older than its lifetime at a moment.
    func isStale(at now: Date, lifetime: Double) -> Bool {
        now.timeIntervalSince(createdAt) > lifetime || createdAt.timeIntervalSince(now) > lifetime
    }
}
