import Foundation

/// A session's DPoP key pair (RFC 9449): an ECDSA P-256 key made for one sign-in, kept with the session it
/// signed in, and used for every proof of that session (token requests, refreshes, resource requests).
///
/// The private key never leaves this value except into the session record of the store (see
/// ``SessionRecordCoding``): ``description``, ``debugDescription`` and `dump` show only the public key's
/// thumbprint.
package struct DPoPKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The private key in the platform's form (libcrypto: DER; CryptoKit: the raw scalar).
    let privateKey: [UInt8]
    /// The public point's x coordinate (32 bytes).
    let x: [UInt8]
    /// The public point's y coordinate (32 bytes).
    let y: [UInt8]

    /// Makes a new key pair.
    /// - Throws: `invalid_configuration` when the platform's crypto library cannot make one.
    package static func generate() throws(AuthError) -> DPoPKey {
        try DPoPKeyBackend.generate()
    }

    /// Reads a key from its stored form (``storedForm``); `nil` when it is not a key of this platform.
    init?(storedForm: String) {
        guard let bytes = Base64URL.decode(storedForm), let key = DPoPKeyBackend.load(privateKey: bytes) else {
            return nil
        }
        self = key
    }

    init(privateKey: [UInt8], x: [UInt8], y: [UInt8]) {
        self.privateKey = privateKey
        self.x = x
        self.y = y
    }

    /// The private key as the session record stores it (base64url of the platform's form).
    var storedForm: String { Base64URL.encode(privateKey) }

    /// Signs a message with ES256.
    /// - Returns: The JWS signature, `r || s` (64 bytes).
    func sign(_ message: [UInt8]) throws(AuthError) -> [UInt8] {
        try DPoPKeyBackend.sign(message, privateKey: privateKey)
    }

    /// The public key as JWK members (`kty`, `crv`, `x`, `y`), for a proof's `jwk` header.
    var publicJWK: JSON {
        .object([
            "crv": .string("P-256"), "kty": .string("EC"), "x": .string(Base64URL.encode(x)),
            "y": .string(Base64URL.encode(y)),
        ])
    }

    /// The public key's JWK thumbprint (RFC 7638, SHA-256, base64url): the `jkt` a server binds tokens to and
    /// the `dpop_jkt` of a pushed authorization request.
    var thumbprint: String { DPoPKey.thumbprint(x: Base64URL.encode(x), y: Base64URL.encode(y)) }

    /// The RFC 7638 thumbprint of a P-256 public JWK given by its base64url coordinates: SHA-256 of the
    /// required members in lexicographic order, without white space.
    static func thumbprint(x: String, y: String) -> String {
        let canonical = #"{"crv":"P-256","kty":"EC","x":""# + x + #"","y":""# + y + #""}"#
        return Base64URL.encode(SHA2Hash.sha256(Array(canonical.utf8)))
    }

    /// The public key's thumbprint only: the private key is never shown.
    package var description: String { "DPoPKey(jkt: \(thumbprint))" }

    /// The same as ``description``.
    package var debugDescription: String { description }

    /// A mirror that shows only the thumbprint, so `dump` never prints the private key.
    package var customMirror: Mirror { Mirror(self, children: ["jkt": thumbprint]) }
}
