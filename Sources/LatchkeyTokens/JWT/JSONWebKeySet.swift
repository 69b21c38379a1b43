import Foundation

/// A JSON Web Key Set (RFC 7517 §5): the public keys an issuer signs with.
///
/// Decoding keeps the signature keys Latchkey can use (RSA; EC on P-256 or P-384; OKP Ed25519) and skips
/// the rest (encryption keys, symmetric keys, other curves, unknown algorithms, malformed keys) without
/// failing, so that one odd key does not break sign-in.
public struct JSONWebKeySet: Sendable, Hashable {
    /// The largest JWKS document accepted, in bytes (1 MiB).
    public static let maximumDocumentBytes = 1 << 20

    /// The usable keys, in document order.
    public let keys: [JSONWebKey]
    /// How many keys the document had that were skipped.
    public let skippedKeyCount: Int

    /// Creates a set from keys.
    /// - Parameter keys: The keys.
    public init(keys: [JSONWebKey]) {
        self.keys = keys
        self.skippedKeyCount = 0
    }

    /// Decodes a JWKS document.
    /// - Parameter data: The document: a JSON object with a `keys` array.
    /// - Throws: ``AuthError`` `invalid_response` when the document is too large, is not JSON, or has no
    ///   `keys` array. Unusable keys are skipped, not fatal.
    public init(data: Data) throws(AuthError) {
        guard data.count <= Self.maximumDocumentBytes else {
            throw AuthError(
                .invalidResponse, "the JWKS is \(data.count) bytes; at most \(Self.maximumDocumentBytes) are accepted")
        }
        guard let document = JSON(data: data)?.object else {
            throw AuthError(.invalidResponse, "the JWKS is not a JSON object")
        }
        guard let entries = document["keys"]?.array else {
            throw AuthError(.invalidResponse, "the JWKS has no keys array")
        }
        let keys = entries.compactMap { entry in entry.object.flatMap(JSONWebKey.init(jwk:)) }
        self.keys = keys
        self.skippedKeyCount = entries.count - keys.count
    }

    /// The keys with a `kid`.
    /// - Parameter keyID: The `kid`.
    /// - Returns: The keys that have it (normally one), in document order.
    public func keys(withID keyID: String) -> [JSONWebKey] {
        keys.filter { $0.keyID == keyID }
    }

    /// Whether a key has this `kid`.
    /// - Parameter keyID: The `kid`.
    public func containsKey(withID keyID: String) -> Bool {
        keys.contains { $0.keyID == keyID }
    }
}
