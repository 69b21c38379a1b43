import Foundation

/// Runs a WebAuthn ceremony between a server's options and its verification call: what a generated one-call
/// passkey method (Supabase's `signInWithPasskey(authenticator:)`, `registerPasskey(authenticator:)`,
/// `mfa.enrollWebAuthnFactor(friendlyName:authenticator:)`) drives between its requests.
///
/// On Apple platforms `PlatformPasskeyAuthenticator` runs the platform's passkey sheet (the generated
/// `presentationAnchor:` overloads create one); any other type (a security-key library, a test) can run the
/// ceremony instead. The relying party comes from the server's options (`rp.id`, `rpId`), never from the app.
///
/// Throwing (``AuthError/Code/loginCancelled`` when the user closes the sheet) ends the call: the verification
/// request is not sent.
public protocol PasskeyAuthenticator: Sendable {
    /// Creates a passkey for the server's creation options.
    /// - Parameter request: The W3C creation options, read (``PasskeyRegistrationRequest/options`` holds them as
    ///   the server sent them).
    /// - Returns: The W3C `RegistrationResponseJSON` (``PasskeyRegistration/credentialJSON``), sent to the server
    ///   as it is.
    /// - Throws: `login_cancelled` when the user cancels; any other ``AuthError``.
    func registrationCredential(for request: PasskeyRegistrationRequest) async throws(AuthError) -> [String: JSON]

    /// Signs the server's challenge with a passkey.
    /// - Parameter request: The W3C request options, read (``PasskeyAssertionRequest/options`` holds them as the
    ///   server sent them).
    /// - Returns: The W3C `AuthenticationResponseJSON` (``PasskeyAssertion/credentialJSON``), sent to the server
    ///   as it is.
    /// - Throws: `login_cancelled` when the user cancels; any other ``AuthError``.
    func assertionCredential(for request: PasskeyAssertionRequest) async throws(AuthError) -> [String: JSON]
}

/// The kind of WebAuthn ceremony an action's follow-up runs (a descriptor's `ceremony.kind`).
@_spi(Generated) public enum PasskeyCeremonyKind: String, Sendable, Hashable {
    /// A new passkey (`navigator.credentials.create`), from `PublicKeyCredentialCreationOptions`.
    case registration
    /// A signature with an existing passkey (`navigator.credentials.get`), from
    /// `PublicKeyCredentialRequestOptions`.
    case assertion
}

/// The ceremony between two chained actions: where the first answer holds the W3C options, and which parameter
/// of the next action receives the credential JSON.
@_spi(Generated) public struct PasskeyCeremonySpec: Sendable {
    /// Registration or assertion.
    public var kind: PasskeyCeremonyKind
    /// Where the previous answer holds the W3C options (a JSON pointer).
    public var optionsPointer: String
    /// The next action's parameter (type `object`) that receives the credential.
    public var credentialParameter: String

    /// Creates the spec.
    public init(kind: PasskeyCeremonyKind, optionsPointer: String, credentialParameter: String) {
        self.kind = kind
        self.optionsPointer = optionsPointer
        self.credentialParameter = credentialParameter
    }
}

extension PasskeyCeremonySpec {
    /// Reads the options at ``optionsPointer`` of `answer` and runs the ceremony.
    /// - Returns: The credential JSON the authenticator produced.
    /// - Throws: `invalid_response` when the answer has no usable options (the authenticator is not asked);
    ///   the authenticator's errors.
    func run(on answer: JSON?, with authenticator: any PasskeyAuthenticator) async throws(AuthError) -> [String: JSON] {
        guard let options = answer?.value(at: optionsPointer), options.object != nil else {
            throw AuthError(.invalidResponse, "The answer has no passkey options at \(optionsPointer).")
        }
        switch kind {
        case .registration:
            return try await authenticator.registrationCredential(for: PasskeyRegistrationRequest(options: options))
        case .assertion:
            return try await authenticator.assertionCredential(for: PasskeyAssertionRequest(options: options))
        }
    }
}
