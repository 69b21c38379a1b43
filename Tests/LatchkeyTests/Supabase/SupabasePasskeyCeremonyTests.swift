import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import LatchkeyTokens
import Testing

/// The platform-neutral half of the passkey ceremony: the server's W3C options read into what the platform
/// authenticator needs, and its result written back as the W3C JSON the server verifies (the Apple-only
/// `PlatformPasskeyAuthenticator` only moves bytes between the two).
@Suite("Supabase: passkey ceremony JSON", timeLimit(minutes: 1))
struct SupabasePasskeyCeremonyTests {
    static let challenge = Data([1, 2, 3, 250, 251, 252])
    static let userID = Data([9, 8, 7])

    @Test("Creation options (bare or under publicKey) give the relying party, challenge, user handle and name")
    func registrationOptions() throws {
        let options: JSON = .object([
            "challenge": .string(Base64URL.encode(Self.challenge)),
            "rp": .object(["id": .string("example.com"), "name": .string("Example")]),
            "user": .object([
                "id": .string(Base64URL.encode(Self.userID)), "name": .string("ada@example.com"),
                "displayName": .string("Ada"),
            ]),
        ])
        for document in [options, .object(["publicKey": options])] {
            let request = try PasskeyRegistrationRequest(options: document)
            #expect(request.relyingPartyID == "example.com")
            #expect(request.challenge == Self.challenge)
            #expect(request.userID == Self.userID)
            #expect(request.userName == "ada@example.com")
        }
    }

    @Test("Request options give the relying party, challenge and allowed credentials")
    func assertionOptions() throws {
        let request = try PasskeyAssertionRequest(
            options: .object([
                "challenge": .string(Base64URL.encode(Self.challenge)), "rpId": .string("example.com"),
                "allowCredentials": .array([
                    .object(["id": .string(Base64URL.encode(Data([5, 5]))), "type": .string("public-key")])
                ]),
            ]))
        #expect(request.relyingPartyID == "example.com")
        #expect(request.challenge == Self.challenge)
        #expect(request.allowedCredentialIDs == [Data([5, 5])])
    }

    @Test(
        "Missing, empty or non-base64url members are invalid_response",
        arguments: [
            #"{"rp": {"id": "example.com"}, "user": {"id": "AQ", "name": "a"}}"#,
            #"{"challenge": "", "rp": {"id": "example.com"}, "user": {"id": "AQ", "name": "a"}}"#,
            #"{"challenge": "not base64url!", "rp": {"id": "example.com"}, "user": {"id": "AQ", "name": "a"}}"#,
            #"{"challenge": "AQ", "user": {"id": "AQ", "name": "a"}}"#,
            #"{"challenge": "AQ", "rp": {"id": "example.com"}, "user": {"name": "a"}}"#,
        ])
    func refused(text: String) throws {
        let json = try #require(JSON(data: Data(text.utf8)))
        #expect(throws: AuthError.self) { _ = try PasskeyRegistrationRequest(options: json) }
        do {
            _ = try PasskeyRegistrationRequest(options: json)
        } catch {
            #expect(error.code == .invalidResponse)
        }
    }

    @Test("The platform's results become W3C RegistrationResponseJSON and AuthenticationResponseJSON")
    func credentialJSON() {
        let registration = PasskeyRegistration(
            credentialID: Data([1, 2]), clientDataJSON: Data("{}".utf8), attestationObject: Data([0xA3]))
        #expect(
            registration.credentialJSON == [
                "id": .string("AQI"), "rawId": .string("AQI"), "type": .string("public-key"),
                "response": .object(["clientDataJSON": .string("e30"), "attestationObject": .string("ow")]),
                "clientExtensionResults": .object([:]), "authenticatorAttachment": .string("platform"),
            ])
        let assertion = PasskeyAssertion(
            credentialID: Data([1, 2]), clientDataJSON: Data("{}".utf8), authenticatorData: Data([7]),
            signature: Data([8]), userHandle: Data([9]))
        #expect(
            assertion.credentialJSON["response"]
                == .object([
                    "clientDataJSON": .string("e30"), "authenticatorData": .string("Bw"), "signature": .string("CA"),
                    "userHandle": .string("CQ"),
                ]))
        let anonymous = PasskeyAssertion(
            credentialID: Data([1]), clientDataJSON: Data(), authenticatorData: Data([7]), signature: Data([8]),
            userHandle: nil)
        #expect(anonymous.credentialJSON["response"]?.object?["userHandle"] == nil)
    }
}
