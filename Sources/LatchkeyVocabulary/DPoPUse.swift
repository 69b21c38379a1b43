/// Whether a provider's tokens are bound to a DPoP key (RFC 9449), as a descriptor's `dpop` declares it.
public enum DPoPUse: String, VocabularyTerm {
    /// The provider does not do DPoP: no proof is ever sent (the default).
    case never
    /// The provider can bind tokens to a key when the app asks for it (`AuthClientOptions.usesDPoP`):
    /// Okta, Auth0 and Keycloak enable DPoP per client, and a bound access token works only with resource
    /// servers that accept DPoP, so the app decides.
    case optional
    /// Every token request carries a proof, and a `Bearer` token response is refused.
    case required
}

/// When a browser sign-in pushes its authorization request (RFC 9126), as a descriptor's
/// `pushedAuthorization.use` declares it.
public enum PushedAuthorizationUse: String, VocabularyTerm {
    /// When discovery says `require_pushed_authorization_requests: true`, or the app asks for it.
    case whenRequired
    /// Every browser sign-in (a FAPI 2.0 provider).
    case always
}
