/// What an app should do with an error: the kind every error code has.
public enum ErrorKind: String, VocabularyTerm {
    /// The user cancelled. Do nothing; offer to sign in again.
    case cancelled
    /// The provider rejected the credentials or the session: the session is dead, reset it.
    case rejected
    /// The network or the provider was unavailable: keep the session and retry later.
    case transport
    /// The app or the descriptor is misconfigured: a developer must fix it.
    case misconfigured
    /// The input the user or app gave is invalid: correct it and try again.
    case invalidInput = "invalid_input"
    /// The provider sent a response that breaks the protocol or fails validation.
    case invalidResponse = "invalid_response"
}
