import Foundation
import LatchkeyTokens

/// The refresh grant (RFC 6749 §6) as a unit: the token request a session is refreshed with, and how the answer
/// becomes the next session. When it is sent, and what a failure does to the session, is the lifecycle's
/// (``SessionLifecycle``), not the grant's.
struct RefreshGrant: Sendable {
    /// The flow.
    let flow: RefreshFlowSpec
    /// The session being refreshed.
    let base: Session
    /// The client's configured redirect URI (the one its browser sign-ins use), for a refresh request that names
    /// `{redirect_uri}` as some providers' refresh does (Yahoo's); `nil` leaves such a member out.
    var redirectURI: URL? = nil

    /// The token request: the session's refresh token as `{refresh_token}`, the configured redirect URI as
    /// `{redirect_uri}`, and the session's access token for a request that carries one.
    var request: GrantRequest {
        GrantRequest(
            name: flow.request,
            variables: [
                "refresh_token": base.refreshToken.map(JSON.string),
                "redirect_uri": redirectURI.map { .string($0.absoluteString) },
            ],
            isTokenRequest: true, accessToken: base.accessToken)
    }

    /// The next session: the decoded answer, keeping the refresh token, ID token and user the answer leaves
    /// out, and the captures (one the answer carries again is updated).
    /// - Parameter answer: The decoded token response.
    func session(from answer: Session) -> Session {
        var fresh = answer
        fresh.refreshToken = fresh.refreshToken ?? base.refreshToken
        fresh.idToken = fresh.idToken ?? base.idToken
        fresh.user = fresh.user ?? base.user
        fresh.captures = base.captures.merging(fresh.captures) { _, new in new }
        return fresh
    }

    /// Whether a failure says the refresh token was already used (one of the flow's `reuseCodes`): the store
    /// may hold a newer session another process refreshed.
    func isReuse(_ error: AuthError) -> Bool {
        flow.reuseCodes.contains(error.providerCode ?? "")
    }
}
