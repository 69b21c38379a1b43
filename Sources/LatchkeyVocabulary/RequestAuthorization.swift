/// Which token, if any, a request sends in `Authorization` (a request's `authorization`).
public enum RequestAuthorization: String, VocabularyTerm {
    /// None.
    case none
    /// The current session's access token (refreshed first when it is about to expire).
    case accessToken
}
