import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime

/// A passkey authenticator for the one-call ceremonies on Linux: it answers with fixed W3C credential JSON (the
/// bodies supabase-swift's recorded requests carry) and records what it was asked, or throws `failure`.
final class FixedPasskeyAuthenticator: PasskeyAuthenticator {
    /// One request the authenticator was given.
    enum Asked: Sendable, Equatable {
        case registration(PasskeyRegistrationRequest)
        case assertion(PasskeyAssertionRequest)
    }

    /// supabase-swift's `verifyPasskeyRegistration` / `mfaVerifyWebAuthn` snapshot credential.
    static let registrationJSON: [String: JSON] = [
        "id": .string("credential-id"), "rawId": .string("cmF3LWNyZWRlbnRpYWwtaWQ"), "type": .string("public-key"),
        "response": .object([
            "attestationObject": .string("YXR0ZXN0YXRpb24tb2JqZWN0"), "clientDataJSON": .string("Y2xpZW50LWRhdGE"),
        ]),
    ]

    /// supabase-swift's `verifyPasskeyAuthentication` snapshot credential.
    static let assertionJSON: [String: JSON] = [
        "id": .string("credential-id"), "rawId": .string("cmF3LWNyZWRlbnRpYWwtaWQ"), "type": .string("public-key"),
        "response": .object([
            "authenticatorData": .string("YXV0aGVudGljYXRvci1kYXRh"), "clientDataJSON": .string("Y2xpZW50LWRhdGE"),
            "signature": .string("c2lnbmF0dXJl"), "userHandle": .string("dXNlci1oYW5kbGU"),
        ]),
    ]

    /// The error every ceremony throws, if any.
    let failure: AuthError?
    private let log = Locked<[Asked]>([])

    init(failure: AuthError? = nil) {
        self.failure = failure
    }

    /// What it was asked, in order.
    var asked: [Asked] { log.withLock { $0 } }

    func registrationCredential(for request: PasskeyRegistrationRequest) async throws(AuthError) -> [String: JSON] {
        log.withLock { $0.append(.registration(request)) }
        if let failure { throw failure }
        return Self.registrationJSON
    }

    func assertionCredential(for request: PasskeyAssertionRequest) async throws(AuthError) -> [String: JSON] {
        log.withLock { $0.append(.assertion(request)) }
        if let failure { throw failure }
        return Self.assertionJSON
    }

    /// The credential as a Foundation object, for comparing a recorded body.
    static func foundation(_ credential: [String: JSON]) -> Any {
        (try? JSONSerialization.jsonObject(with: JSON.object(credential).serialized)) ?? [:]
    }
}
