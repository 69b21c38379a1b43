/// A PKCE code challenge method (RFC 7636 §4.2), as sent in `code_challenge_method`.
///
/// Only the SHA-256 method is ever used; GoTrue spells it in lower case in its emailed-link flows
/// (an action's `pkce.method`).
public enum PKCEMethod: String, VocabularyTerm {
    /// `S256`: the challenge is the unpadded base64url SHA-256 of the verifier.
    case s256 = "S256"
    /// GoTrue's lower-case spelling of `S256`.
    case s256LowerCase = "s256"
}
