import Foundation
import LatchkeyTokens

/// A session's DPoP key pair (RFC 9449): an ECDSA P-256 key made for one sign-in, kept with the session it
/// signed in, and used for every proof of that session (token requests, refreshes, resource requests).
///
/// On Apple platforms the key is made in the Secure Enclave when the device has one (``DPoPKeyKind``), and the
/// session record then holds only the enclave's opaque handle; elsewhere it is a software key.
///
/// The private key never leaves this value except into the session record of the store (see
/// ``SessionRecordCoding``): ``description``, ``debugDescription`` and `dump` show only the public key's
/// thumbprint.
package struct DPoPKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Where the private key lives.
    let kind: DPoPKeyKind
    /// The private key in the platform's form (libcrypto: DER; CryptoKit: the raw scalar; Secure Enclave: its
    /// opaque `dataRepresentation`).
    let privateKey: [UInt8]
    /// The public point's x coordinate (32 bytes).
    let x: [UInt8]
    /// The public point's y coordinate (32 bytes).
    let y: [UInt8]
    /// The key, ready to sign (parsed once: reading the key again for each proof cost most of it).
    let signer: DPoPSigner
    /// The proof header for this key, base64url, then `.`: it is the same in every proof (see ``DPoPProof``).
    let encodedHeader: [UInt8]

    /// Makes a new key pair: in the Secure Enclave when the device has one, otherwise (or when the enclave
    /// refuses) in software.
    /// - Throws: `invalid_configuration` when the platform's crypto library cannot make one.
    package static func generate() throws(AuthError) -> DPoPKey {
        try DPoPKeyKind.first(
            of: DPoPKeyKind.preferred(secureEnclaveAvailable: DPoPKeyBackend.secureEnclaveAvailable),
            DPoPKeyBackend.generate)
    }

    /// Reads a key from its stored form (``storedForm``); `nil` when it is not a key this device can use (a
    /// software key of another platform, or a Secure Enclave key of another device): the session it belongs to
    /// then cannot prove possession, and is signed in again.
    init?(storedForm: String) {
        guard let (kind, bytes) = DPoPKeyKind.parse(storedForm: storedForm),
            let key = DPoPKeyBackend.load(kind: kind, privateKey: bytes)
        else { return nil }
        self = key
    }

    init(kind: DPoPKeyKind, privateKey: [UInt8], x: [UInt8], y: [UInt8], signer: DPoPSigner) {
        self.kind = kind
        self.privateKey = privateKey
        self.x = x
        self.y = y
        self.signer = signer
        var header: [UInt8] = []
        DPoPEncoding.appendBase64URL(DPoPProof.header(x: x, y: y), to: &header)
        header.append(UInt8(ascii: "."))
        self.encodedHeader = header
    }

    /// The private key as the session record stores it (``DPoPKeyKind/storedForm(kind:bytes:)``).
    var storedForm: String { DPoPKeyKind.storedForm(kind: kind, bytes: privateKey) }

    /// Signs a message with ES256.
    /// - Returns: The JWS signature, `r || s` (64 bytes).
    package func sign(_ message: [UInt8]) throws(AuthError) -> [UInt8] {
        try signer.sign(message)
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

    /// Two keys are equal when they are the same key (the prepared signer is derived from it).
    package static func == (lhs: DPoPKey, rhs: DPoPKey) -> Bool {
        lhs.kind == rhs.kind && lhs.privateKey == rhs.privateKey && lhs.x == rhs.x && lhs.y == rhs.y
    }

    /// Hashes the public point (it identifies the key).
    package func hash(into hasher: inout Hasher) {
        hasher.combine(x)
        hasher.combine(y)
    }

    /// The public key's thumbprint only: the private key is never shown.
    package var description: String { "DPoPKey(jkt: \(thumbprint))" }

    /// The same as ``description``.
    package var debugDescription: String { description }

    /// A mirror that shows only the thumbprint, so `dump` never prints the private key.
    package var customMirror: Mirror { Mirror(self, children: ["jkt": thumbprint]) }
}
