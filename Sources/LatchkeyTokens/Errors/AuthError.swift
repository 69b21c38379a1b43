import LatchkeyPlatform
import LatchkeyVocabulary

/// An authentication failure, with a stable code shared by every provider.
///
/// Apps switch on ``kind`` to decide what to do and log ``code`` for support. The provider's own
/// error code, HTTP status and description are kept for developers. An `AuthError` never holds a token:
/// its ``description`` is safe to log.
public struct AuthError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stored fields, behind one reference: every `throws(AuthError)` call site moves one pointer.
    private struct Fields: Sendable, Hashable {
        var code: Code
        var message: String
        var providerCode: String?
        var providerMessage: String?
        var status: Int?
        var provider: String?
        var verificationFailure: TokenVerificationFailure?
    }
    private var storage: SharedFields<Fields>

    /// The stable, provider-neutral code, for example `invalid_credentials`.
    public var code: Code {
        get { storage.fields.code }
        set { storage = storage.updating { $0.code = newValue } }
    }
    /// What the app should do about it.
    public var kind: Kind { code.kind }
    /// A message for developers. Never shown to end users as is, never contains a token.
    public var message: String {
        get { storage.fields.message }
        set { storage = storage.updating { $0.message = newValue } }
    }
    /// The provider's own error code (`error`, `error_code`, `errorCode`, ...), when it sent one.
    public var providerCode: String? {
        get { storage.fields.providerCode }
        set { storage = storage.updating { $0.providerCode = newValue } }
    }
    /// The provider's own error message, verbatim (GoTrue's `msg`, `message` or `error_description`; the
    /// descriptor's `errors.messageFields`, first found), when it sent one. Every secret the request carried
    /// (a password, code, verifier or token the provider may echo) is cut out, and it is at most 1,000
    /// characters. It is the provider's text: show it to developers, not as is to end users.
    public var providerMessage: String? {
        get { storage.fields.providerMessage }
        set { storage = storage.updating { $0.providerMessage = newValue } }
    }
    /// The HTTP status of the response that carried the error, when there was one.
    public var status: Int? {
        get { storage.fields.status }
        set { storage = storage.updating { $0.status = newValue } }
    }
    /// The descriptor name of the provider that produced the error, when known.
    public var provider: String? {
        get { storage.fields.provider }
        set { storage = storage.updating { $0.provider = newValue } }
    }
    /// Why a token failed verification, when the error is such a failure (mapped to a provider's code through
    /// the descriptor's `errors.verification`).
    package var verificationFailure: TokenVerificationFailure? {
        get { storage.fields.verificationFailure }
        set { storage = storage.updating { $0.verificationFailure = newValue } }
    }

    /// Creates an error.
    /// - Parameters:
    ///   - code: The stable code.
    ///   - message: A message for developers.
    ///   - providerCode: The provider's own code.
    ///   - status: The HTTP status.
    ///   - provider: The descriptor name of the provider.
    public init(
        _ code: Code, _ message: String, providerCode: String? = nil, status: Int? = nil, provider: String? = nil
    ) {
        storage = SharedFields(
            Fields(
                code: code, message: message, providerCode: providerCode, status: status, provider: provider))
    }

    /// The code, kind and message, with the provider's code and status: safe to log.
    public var description: String {
        var parts = ["AuthError(\(code.rawValue), \(kind.rawValue)): \(message)"]
        if let providerCode { parts.append("provider code: \(providerCode)") }
        if let providerMessage { parts.append("provider message: \(providerMessage)") }
        if let status { parts.append("HTTP \(status)") }
        if let provider { parts.append("provider: \(provider)") }
        return parts.joined(separator: "; ")
    }
}

extension AuthError {
    /// What an app should do with an error.
    public typealias Kind = ErrorKind
}

extension AuthError: CustomReflectable {
    /// The fields as stored properties, as `dump` and debuggers showed them before they moved behind one
    /// reference.
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: storage.fields).children, displayStyle: .struct)
    }
}
