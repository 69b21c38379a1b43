import Foundation
import LatchkeyTokens

/// The authorization-code exchange (RFC 6749 §4.1.3, RFC 7636) as a unit: the token request a callback's code
/// is exchanged with, and the checks on its answer that need nothing but the sign-in it completes.
struct CodeExchangeGrant: Sendable {
    /// The flow.
    let flow: AuthorizationCodeFlowSpec
    /// The callback's code.
    let code: String
    /// The sign-in it completes: verifier, redirect URI, state and nonce.
    let pending: PendingFlow

    /// The token request.
    var request: GrantRequest {
        GrantRequest(
            name: flow.exchangeRequest,
            variables: [
                "code": .string(code), "code_verifier": .string(pending.codeVerifier),
                "redirect_uri": .string(pending.redirectURI.absoluteString), "state": .string(pending.state),
                "nonce": pending.nonce.map(JSON.string),
            ], isTokenRequest: true)
    }

    /// The answer's session with the granted scopes only the callback reports (Strava's), when the answer has
    /// none, after checking that its ID token carries the sign-in's nonce.
    /// - Parameters:
    ///   - session: The decoded token response.
    ///   - callback: The callback's parameters.
    ///   - scopeParameter: The callback parameter that reports the granted scopes, if any.
    ///   - provider: The provider's descriptor name, for errors.
    /// - Throws: `invalid_id_token` for an ID token whose `nonce` is not the sign-in's.
    func interpret(
        _ session: Session, callback: CallbackParameters, scopeParameter: String?, provider: String
    ) throws(AuthError) -> Session {
        var fresh = session
        if fresh.scope == nil, let name = scopeParameter {
            fresh.scope = callback[name]
        }
        if let nonce = pending.nonce, let idToken = fresh.idToken,
            JWTPayload.claims(of: idToken)?["nonce"]?.string != nonce
        {
            throw AuthError(
                .invalidIDToken, "The ID token's nonce does not match the sign-in's nonce.", provider: provider)
        }
        return fresh
    }
}
