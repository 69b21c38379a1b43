import Foundation

extension PasetoKeySet {
    /// The largest key document accepted, in bytes (1 MiB).
    public static let maximumDocumentLength = 1 << 20

    /// Decodes a key document:
    /// `{"keys": [{"kid", "alg": "v4.public", "kty": "OKP", "crv": "Ed25519", "public_key_base64",
    /// "implicit_assertion"?}]}`.
    ///
    /// `public_key_base64` may be standard base64 or base64url, padded or not, and must decode to
    /// exactly 32 bytes; `implicit_assertion`, when present, is a string used as UTF-8 bytes. Other
    /// members are ignored. Any entry that breaks these rules rejects the whole document.
    /// - Parameter document: The JSON document.
    /// - Throws: ``AuthError`` `invalid_response` describing the first problem.
    public init(document: Data) throws(AuthError) {
        let entries = try Self.entries(of: document)
        var keys: [Key] = []
        for (index, entry) in entries.enumerated() {
            keys.append(try Self.key(from: entry, at: index))
        }
        do {
            try self.init(keys: keys)
        } catch {
            throw AuthError(.invalidResponse, error.message)
        }
    }

    /// The entries of a key document's `keys` array: the one reading of the document's shape and size that the
    /// strict (``init(document:)``) and the lenient (``usableEntries(of:)``) readers share.
    /// - Parameter document: The JSON document `{"keys": [...]}`.
    /// - Returns: The entries, not yet decoded.
    /// - Throws: ``AuthError`` `invalid_response` when the document is too large, too deep, not a JSON object,
    ///   or has no `keys` array.
    static func entries(of document: Data) throws(AuthError) -> [JSON] {
        guard document.count <= Self.maximumDocumentLength,
            PasetoJSONLimits.keyDocument.allows(Array(document)),
            let root = JSON(data: document)?.object
        else {
            throw AuthError(.invalidResponse, "the PASETO key document is not a JSON object")
        }
        guard let entries = root["keys"]?.array else {
            throw AuthError(.invalidResponse, "the PASETO key document has no keys array")
        }
        return entries
    }

    /// Decodes one entry of the `keys` array.
    package static func key(from entry: JSON, at index: Int) throws(AuthError) -> Key {
        let place = "PASETO key document entry \(index)"
        guard let members = entry.object else { throw AuthError(.invalidResponse, "\(place) is not an object") }
        guard let keyID = members["kid"]?.string, !keyID.isEmpty else {
            throw AuthError(.invalidResponse, "\(place) has no kid string")
        }
        for (name, expected) in [("alg", "v4.public"), ("kty", "OKP"), ("crv", "Ed25519")] {
            guard let value = members[name]?.string, value.utf8.elementsEqual(expected.utf8) else {
                throw AuthError(.invalidResponse, "\(place) (kid \"\(keyID)\") must have \(name) \"\(expected)\"")
            }
        }
        guard let encoded = members["public_key_base64"]?.string, let publicKey = decodeBase64(encoded) else {
            throw AuthError(.invalidResponse, "\(place) (kid \"\(keyID)\") has no valid public_key_base64")
        }
        guard publicKey.count == Key.publicKeyByteCount else {
            throw AuthError(
                .invalidResponse,
                "\(place) (kid \"\(keyID)\") public key is \(publicKey.count) bytes; Ed25519 needs 32")
        }
        var implicitAssertion: [UInt8] = []
        if let value = members["implicit_assertion"] {
            guard let text = value.string else {
                throw AuthError(.invalidResponse, "\(place) (kid \"\(keyID)\") implicit_assertion is not a string")
            }
            implicitAssertion = Array(text.utf8)
        }
        do {
            return try Key(keyID: keyID, publicKey: publicKey, implicitAssertion: implicitAssertion)
        } catch {
            throw AuthError(.invalidResponse, error.message)
        }
    }

    /// Decodes standard base64 or base64url (not a mix of both alphabets), padded or not, canonical.
    package static func decodeBase64(_ text: String) -> [UInt8]? {
        let utf8 = text.utf8
        let standard = utf8.contains { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") }
        let urlSafe = utf8.contains { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
        guard !(standard && urlSafe) else { return nil }
        return Base64URL.decode(String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 }))
    }
}
