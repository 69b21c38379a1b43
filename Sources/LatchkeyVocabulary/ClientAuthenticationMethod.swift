/// How a client authenticates itself to the provider (RFC 6749 §2.3; a request's `clientAuthentication`).
public enum ClientAuthenticationMethod: String, VocabularyTerm {
    /// A public client: `client_id` only, where the body template puts it.
    case none
    /// HTTP Basic with the client id and a secret supplied at run time.
    case basic
    /// `client_id` and `client_secret` form fields, the secret supplied at run time.
    case post
    /// HTTP Basic when the app supplies a secret at run time; a public client's request otherwise.
    case basicIfSecret = "basic_if_secret"
    /// `client_secret` in the body when the app supplies a secret at run time; left out otherwise.
    case postIfSecret = "post_if_secret"
    /// HTTP Basic always: the client id with the app's secret, or with an empty password when the app supplies
    /// none or an empty one (`Authorization: Basic base64("id:")`, Reddit's installed apps).
    case basicSecretOrEmpty = "basic_secret_or_empty"

    /// Whether a request may go without a secret (the `…_if_secret` methods, `basic_secret_or_empty`, and
    /// `none`).
    public var isOptional: Bool { self == .none || needsFormatVersion2 }

    /// Whether the method needs descriptor format version 2 (the `…_if_secret` methods and
    /// `basic_secret_or_empty`).
    public var needsFormatVersion2: Bool {
        self == .basicIfSecret || self == .postIfSecret || self == .basicSecretOrEmpty
    }
}
