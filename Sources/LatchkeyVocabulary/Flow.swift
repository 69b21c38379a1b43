/// A flow (grant or session operation) a descriptor may declare: the keys of its `flows` object.
public enum Flow: String, VocabularyTerm {
    /// Sign-in with an identifier and a password.
    case password
    /// Authorization code with PKCE, through a browser.
    case authorizationCode
    /// Refresh of the session's tokens.
    case refresh
    /// Sign-out at the provider.
    case signOut
    /// The user document of the signed-in user.
    case userInfo
    /// The device authorization grant (RFC 8628).
    case deviceCode
    /// The client credentials grant (server-side tools).
    case clientCredentials
    /// RP-initiated logout (OpenID Connect).
    case endSession
}
