/// Why a token failed offline verification: the runtime marks its errors with it, and a descriptor's
/// `errors.verification` maps it (by these spellings, which the descriptor decoder checks) onto the codes a
/// provider's SDKs use (Base IdP's `unknown_kid`, `invalid_signature`, `token_expired`, ...).
///
/// The failure's `AuthError.code` stays the built-in one (`invalid_token`, `server_error`, ...) unless the
/// descriptor maps the reason.
public enum TokenVerificationFailure: String, VocabularyTerm {
    /// The token is not a well-formed token of its format, or its footer or header lacks what is required.
    case malformed
    /// No trusted key has the token's key ID.
    case unknownKey = "unknown_key"
    /// The key document lists the token's key ID for the token's version and purpose, but its key is unusable
    /// (not 32 bytes of Ed25519 key: Base IdP's TypeScript SDK's `invalid_key`).
    case invalidKey = "invalid_key"
    /// The signature does not verify.
    case invalidSignature = "invalid_signature"
    /// A claim is missing or has the wrong value (issuer, audience, token use, a required claim).
    case invalidClaims = "invalid_claims"
    /// The token has expired.
    case expired
    /// The token is not valid yet (`nbf`, or issued in the future).
    case notYetValid = "not_yet_valid"
    /// The key set could not be fetched or holds no usable key.
    case keyFetchFailed = "key_fetch_failed"
}
