import Foundation

extension PasetoKeySet {
    /// Decodes the usable entries of a key document and skips the others, as Base IdP's SDKs read their
    /// issuer's document: an entry of another version or purpose (`alg` other than `v4.public`, `kty`/`crv`
    /// other than `OKP`/`Ed25519`), without a `kid`, or with a key that is not 32 bytes of base64 does not
    /// stop the keys beside it from verifying tokens. A `kid` that appears on more than one usable entry is
    /// ambiguous, so all of its entries are skipped (fail closed).
    ///
    /// ``init(document:)`` is the strict reading, which rejects the whole document for one bad entry.
    /// - Parameter document: The JSON document `{"keys": [...]}`.
    /// - Returns: The key set of the usable entries, and how many entries were skipped.
    /// - Throws: ``AuthError`` `invalid_response` when the document is not a JSON object with a `keys` array,
    ///   or no entry is usable.
    public static func usableEntries(of document: Data) throws(AuthError) -> (keySet: PasetoKeySet, skipped: Int) {
        let entries = try Self.entries(of: document)
        var usable: [Key] = []
        for (index, entry) in entries.enumerated() {
            if let key = try? Self.key(from: entry, at: index) { usable.append(key) }
        }
        var counts: [[UInt8]: Int] = [:]
        for key in usable { counts[Array(key.keyID.utf8), default: 0] += 1 }
        let unique = usable.filter { counts[Array($0.keyID.utf8)] == 1 }
        guard !unique.isEmpty else {
            throw AuthError(.invalidResponse, "the PASETO key document has no usable v4.public Ed25519 key")
        }
        return (try PasetoKeySet(keys: unique), entries.count - unique.count)
    }

    /// The `kid`s of the entries that are `v4.public` `OKP` `Ed25519` entries but whose key is unusable (no
    /// valid base64, or not 32 bytes) and that no usable entry shares: a token naming one fails as Base IdP's
    /// TypeScript SDK fails it, with an invalid key rather than an unknown `kid`.
    /// - Parameter document: The JSON document `{"keys": [...]}`.
    /// - Returns: The `kid`s; empty for a document that cannot be read.
    package static func unusableKeyIDs(of document: Data) -> Set<String> {
        guard let entries = try? Self.entries(of: document) else { return [] }
        var unusable: Set<String> = []
        var usable: Set<String> = []
        for (index, entry) in entries.enumerated() {
            guard let members = entry.object, let keyID = members["kid"]?.string, !keyID.isEmpty else { continue }
            if (try? Self.key(from: entry, at: index)) != nil {
                usable.insert(keyID)
                continue
            }
            let labels = [("alg", "v4.public"), ("kty", "OKP"), ("crv", "Ed25519")]
            if labels.allSatisfy({ members[$0.0]?.string.map { Array($0.utf8) } == Array($0.1.utf8) }) {
                unusable.insert(keyID)
            }
        }
        return unusable.subtracting(usable)
    }
}
