import LatchkeyTokens

#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
    import AuthenticationServices
    import Foundation

    /// Runs the WebAuthn ceremony with the platform's passkeys (`ASAuthorizationPlatformPublicKeyCredentialProvider`,
    /// iOS 15, macOS 12, visionOS 1): the HTTP half (the options, the verification) is the server's calls, such as
    /// Supabase's `getPasskeyRegistrationOptions()` and `verifyPasskeyRegistration(challengeId:credential:)`. As a
    /// ``PasskeyAuthenticator`` it drives the generated one-call methods (`signInWithPasskey(presentationAnchor:)`
    /// creates one).
    ///
    /// The app must have an associated domain (`webcredentials:`) for the relying party. Closing the sheet, or
    /// cancelling the waiting task, is `login_cancelled`; any other failure is `web_auth_start_failed`.
    @MainActor
    public final class PlatformPasskeyAuthenticator: NSObject, ASAuthorizationControllerDelegate,
        ASAuthorizationControllerPresentationContextProviding
    {
        private let anchor: @MainActor () -> ASPresentationAnchor
        /// The running ceremonies (a controller must be kept alive while it shows), by controller.
        private var running: [ObjectIdentifier: (ASAuthorizationController, OnceResumption<Outcome>)] = [:]

        /// What a ceremony ended with, copied out of the platform's objects.
        private enum Credential: Sendable {
            case registration(PasskeyRegistration)
            case assertion(PasskeyAssertion)
        }

        private typealias Outcome = Result<Credential, AuthError>

        /// Creates an authenticator.
        /// - Parameter anchor: The window the sheet is presented from.
        public init(anchor: @escaping @MainActor () -> ASPresentationAnchor) {
            self.anchor = anchor
        }

        /// Creates a passkey for the request.
        /// - Parameter request: The server's creation options, read with ``PasskeyRegistrationRequest/init(options:)``.
        /// - Returns: The new credential; send its ``PasskeyRegistration/credentialJSON`` to the server.
        /// - Throws: `login_cancelled` or `web_auth_start_failed`.
        public func register(_ request: PasskeyRegistrationRequest) async throws(AuthError) -> PasskeyRegistration {
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(
                relyingPartyIdentifier: request.relyingPartyID)
            let platformRequest = provider.createCredentialRegistrationRequest(
                challenge: request.challenge, name: request.userName, userID: request.userID)
            guard case .registration(let registration) = try await perform(platformRequest) else {
                throw AuthError(.webAuthStartFailed, "The platform returned no passkey registration.")
            }
            return registration
        }

        /// Signs with a passkey for the request.
        /// - Parameter request: The server's request options, read with ``PasskeyAssertionRequest/init(options:)``.
        /// - Returns: The assertion; send its ``PasskeyAssertion/credentialJSON`` to the server.
        /// - Throws: `login_cancelled` or `web_auth_start_failed`.
        public func assert(_ request: PasskeyAssertionRequest) async throws(AuthError) -> PasskeyAssertion {
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(
                relyingPartyIdentifier: request.relyingPartyID)
            let platformRequest = provider.createCredentialAssertionRequest(challenge: request.challenge)
            platformRequest.allowedCredentials = request.allowedCredentialIDs.map {
                ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
            }
            guard case .assertion(let assertion) = try await perform(platformRequest) else {
                throw AuthError(.webAuthStartFailed, "The platform returned no passkey assertion.")
            }
            return assertion
        }

        private func perform(_ request: ASAuthorizationRequest) async throws(AuthError) -> Credential {
            let controller = ASAuthorizationController(authorizationRequests: [request])
            let outcome = OnceResumption<Outcome>()
            let key = ObjectIdentifier(controller)
            running[key] = (controller, outcome)
            controller.delegate = self
            controller.presentationContextProvider = self
            let result = await withTaskCancellationHandler {
                controller.performRequests()
                return await outcome.value()
            } onCancel: {
                outcome.resolve(.failure(AuthError(.loginCancelled, "The passkey ceremony was cancelled.")))
                Task { @MainActor in self.cancel(key) }
            }
            running[key] = nil
            return try result.get()
        }

        /// Closes a running ceremony's sheet; before iOS 16 and macOS 13 only the user can close it.
        private func cancel(_ key: ObjectIdentifier) {
            guard let controller = running[key]?.0 else { return }
            if #available(iOS 16.0, macOS 13.0, *) { controller.cancel() }
        }

        /// The window the sheet is presented from.
        public nonisolated func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
            MainActor.assumeIsolated { anchor() }
        }

        /// Delivers the credential.
        public nonisolated func authorizationController(
            controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
        ) {
            let key = ObjectIdentifier(controller)
            let outcome: Outcome
            if let created = authorization.credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration,
                let attestation = created.rawAttestationObject
            {
                outcome = .success(
                    .registration(
                        PasskeyRegistration(
                            credentialID: created.credentialID, clientDataJSON: created.rawClientDataJSON,
                            attestationObject: attestation)))
            } else if let signed = authorization.credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion,
                let authenticatorData = signed.rawAuthenticatorData, let signature = signed.signature
            {
                outcome = .success(
                    .assertion(
                        PasskeyAssertion(
                            credentialID: signed.credentialID, clientDataJSON: signed.rawClientDataJSON,
                            authenticatorData: authenticatorData, signature: signature, userHandle: signed.userID)))
            } else {
                outcome = .failure(AuthError(.webAuthStartFailed, "The platform returned no passkey credential."))
            }
            MainActor.assumeIsolated { _ = running[key]?.1.resolve(outcome) }
        }

        /// Delivers the failure: the user's cancellation is `login_cancelled`.
        public nonisolated func authorizationController(
            controller: ASAuthorizationController, didCompleteWithError error: any Error
        ) {
            let key = ObjectIdentifier(controller)
            let cancelled = (error as? ASAuthorizationError)?.code == .canceled
            let failure =
                cancelled
                ? AuthError(.loginCancelled, "The passkey sheet was closed.")
                : AuthError(.webAuthStartFailed, "The passkey ceremony failed.")
            MainActor.assumeIsolated { _ = running[key]?.1.resolve(.failure(failure)) }
        }
    }

    extension PlatformPasskeyAuthenticator: PasskeyAuthenticator {
        /// Creates a passkey with the platform's sheet, for the generated one-call methods.
        /// - Parameter request: The server's creation options.
        /// - Returns: The new credential's ``PasskeyRegistration/credentialJSON``.
        /// - Throws: `login_cancelled` or `web_auth_start_failed`.
        public func registrationCredential(for request: PasskeyRegistrationRequest) async throws(AuthError)
            -> [String: JSON]
        {
            try await register(request).credentialJSON
        }

        /// Signs with a passkey through the platform's sheet, for the generated one-call methods.
        /// - Parameter request: The server's request options.
        /// - Returns: The assertion's ``PasskeyAssertion/credentialJSON``.
        /// - Throws: `login_cancelled` or `web_auth_start_failed`.
        public func assertionCredential(for request: PasskeyAssertionRequest) async throws(AuthError)
            -> [String: JSON]
        {
            try await assert(request).credentialJSON
        }
    }
#endif
