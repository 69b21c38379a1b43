/// How the client verifies an access token of a verified format.
package enum AccessTokenVerification: Sendable, Hashable {
    /// The signature against the provider's PASETO key set (Ed25519), then the registered claims.
    case pasetoV4Public
}

/// What an access token format means to Latchkey: decided once, in ``TokenFormat/behaviour``.
///
/// The descriptor decoder, the generator, the runtime and the simulator read these properties and never compare
/// a ``TokenFormat`` themselves, so a new format fails to compile in the one `switch` that must decide them.
package struct TokenFormatBehaviour: Sendable, Hashable {
    /// How the client verifies the access token on every sign-in and refresh; `nil`: it never looks into it.
    /// A verified format needs `tokens.accessTokenKeys` in its descriptor, and only a verified format may
    /// check claims, read the user from the token, or match the user document against it.
    package var verification: AccessTokenVerification?
    /// Whether a token response may name the format as its `token_type` (`"PASETO"`), besides `Bearer`.
    package var acceptsPasetoTokenType: Bool
    /// Whether the client offers a `ServerHandoff`: the verified principal for the app's own backend.
    package var offersServerHandoff: Bool
}

extension TokenFormat {
    /// What this format means to Latchkey (the one place a format is switched over).
    package var behaviour: TokenFormatBehaviour {
        switch self {
        case .opaque, .jwt:
            TokenFormatBehaviour(verification: nil, acceptsPasetoTokenType: false, offersServerHandoff: false)
        case .pasetoV4Public:
            TokenFormatBehaviour(
                verification: .pasetoV4Public, acceptsPasetoTokenType: true, offersServerHandoff: true)
        }
    }
}
