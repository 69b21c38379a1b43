import Foundation
import LatchkeyTokens

/// What a platform authenticator needs to create a passkey, read from the W3C
/// `PublicKeyCredentialCreationOptions` a server sends as JSON (Supabase's `getPasskeyRegistrationOptions()`
/// answers them under `/options`).
public struct PasskeyRegistrationRequest: Sendable, Hashable {
    /// The relying party's identifier (`rp.id`), a domain.
    public var relyingPartyID: String
    /// The server's challenge (`challenge`, base64url on the wire).
    public var challenge: Data
    /// The user handle (`user.id`, base64url on the wire).
    public var userID: Data
    /// The account's name (`user.name`).
    public var userName: String
    /// The options as the server sent them (for an authenticator that reads more members).
    public var options: JSON

    /// Reads the options.
    /// - Parameter options: The W3C creation options, as JSON.
    /// - Throws: `invalid_response` when a member is missing, not base64url, or out of bounds.
    public init(options: JSON) throws(AuthError) {
        let publicKey = options.value(at: "/publicKey") ?? options
        relyingPartyID = try PasskeyCeremony.text(publicKey, "/rp/id")
        challenge = try PasskeyCeremony.bytes(publicKey, "/challenge")
        userID = try PasskeyCeremony.bytes(publicKey, "/user/id")
        userName = try PasskeyCeremony.text(publicKey, "/user/name")
        self.options = options
    }
}

/// What a platform authenticator needs to sign in with a passkey, read from the W3C
/// `PublicKeyCredentialRequestOptions` JSON (Supabase's `getPasskeyAuthenticationOptions()` under `/options`).
public struct PasskeyAssertionRequest: Sendable, Hashable {
    /// The relying party's identifier (`rpId`).
    public var relyingPartyID: String
    /// The server's challenge.
    public var challenge: Data
    /// The credentials the server accepts (`allowCredentials[].id`); empty: any discoverable one.
    public var allowedCredentialIDs: [Data]
    /// The options as the server sent them (for an authenticator that reads more members).
    public var options: JSON

    /// Reads the options.
    /// - Parameter options: The W3C request options, as JSON.
    /// - Throws: `invalid_response` when a member is missing, not base64url, or out of bounds.
    public init(options: JSON) throws(AuthError) {
        let publicKey = options.value(at: "/publicKey") ?? options
        relyingPartyID = try PasskeyCeremony.text(publicKey, "/rpId")
        challenge = try PasskeyCeremony.bytes(publicKey, "/challenge")
        let allowed = publicKey.value(at: "/allowCredentials")?.array ?? []
        guard allowed.count <= PasskeyCeremony.maximumAllowedCredentials else {
            throw AuthError(.invalidResponse, "The passkey options list too many credentials.")
        }
        var ids: [Data] = []
        for entry in allowed { ids.append(try PasskeyCeremony.bytes(entry, "/id")) }
        allowedCredentialIDs = ids
        self.options = options
    }
}

/// A passkey the platform authenticator created, as the W3C `RegistrationResponseJSON` a server verifies.
public struct PasskeyRegistration: Sendable, Hashable {
    /// The credential's id.
    public var credentialID: Data
    /// The client data the authenticator signed (`clientDataJSON`).
    public var clientDataJSON: Data
    /// The attestation object.
    public var attestationObject: Data

    /// Creates a registration.
    public init(credentialID: Data, clientDataJSON: Data, attestationObject: Data) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
    }

    /// The W3C JSON form (base64url members): pass it as `credential:` to the server's verification call.
    public var credentialJSON: [String: JSON] {
        PasskeyCeremony.credential(
            id: credentialID,
            response: [
                "clientDataJSON": .string(Base64URL.encode(clientDataJSON)),
                "attestationObject": .string(Base64URL.encode(attestationObject)),
            ])
    }
}

/// A passkey assertion the platform authenticator made, as the W3C `AuthenticationResponseJSON`.
public struct PasskeyAssertion: Sendable, Hashable {
    /// The credential's id.
    public var credentialID: Data
    /// The client data the authenticator signed.
    public var clientDataJSON: Data
    /// The authenticator data.
    public var authenticatorData: Data
    /// The signature.
    public var signature: Data
    /// The user handle, when the authenticator returned one.
    public var userHandle: Data?

    /// Creates an assertion.
    public init(
        credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data?
    ) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }

    /// The W3C JSON form (base64url members): pass it as `credential:` to the server's verification call.
    public var credentialJSON: [String: JSON] {
        var response: [String: JSON] = [
            "clientDataJSON": .string(Base64URL.encode(clientDataJSON)),
            "authenticatorData": .string(Base64URL.encode(authenticatorData)),
            "signature": .string(Base64URL.encode(signature)),
        ]
        if let userHandle { response["userHandle"] = .string(Base64URL.encode(userHandle)) }
        return PasskeyCeremony.credential(id: credentialID, response: response)
    }
}

/// The WebAuthn JSON rules the passkey types share.
enum PasskeyCeremony {
    /// The most bytes a challenge, user handle or credential id may have.
    static var maximumBinaryBytes: Int { 1024 }
    /// The most `allowCredentials` entries read.
    static var maximumAllowedCredentials: Int { 64 }

    static func text(_ json: JSON, _ pointer: String) throws(AuthError) -> String {
        guard let text = json.value(at: pointer)?.string, !text.isEmpty, text.utf8.count <= 512 else {
            throw AuthError(.invalidResponse, "The passkey options have no usable \(pointer).")
        }
        return text
    }

    static func bytes(_ json: JSON, _ pointer: String) throws(AuthError) -> Data {
        let text = try text(json, pointer)
        // Servers send unpadded base64url; a padded value is read too.
        let unpadded = text.hasSuffix("=") ? String(text.prefix { $0 != "=" }) : text
        guard let bytes = Base64URL.decode(unpadded), !bytes.isEmpty, bytes.count <= maximumBinaryBytes else {
            throw AuthError(.invalidResponse, "The passkey options' \(pointer) is not base64url.")
        }
        return Data(bytes)
    }

    static func credential(id: Data, response: [String: JSON]) -> [String: JSON] {
        let encoded = Base64URL.encode(id)
        return [
            "id": .string(encoded), "rawId": .string(encoded), "type": .string("public-key"),
            "response": .object(response), "clientExtensionResults": .object([:]),
            "authenticatorAttachment": .string("platform"),
        ]
    }
}
