/// A kind of redirect URI a provider accepts (`callback.redirectKinds`).
public enum RedirectKind: String, VocabularyTerm {
    /// A private-use scheme such as `dev.example.app://auth-callback`.
    case customScheme = "custom_scheme"
    /// A claimed `https` URL (universal link).
    case https
    /// `http://127.0.0.1:<port>/path` (RFC 8252 loopback).
    case loopback
}
