import Foundation
import LatchkeyTokens

/// Keeps OpenID discovery documents in the session store between launches, each with a lifetime, so a
/// relaunch does not fetch discovery again.
///
/// A record is `{"version": 2, "provider", "binding", "issuer", "fetchedAt", "expiresAt", "document"}`
/// (dates in seconds since 1970) under a key derived from the client's store key and the issuer, bound to
/// the client's ``ProviderIdentity``. A record that is stale, of another version, of another client, for
/// another issuer, or corrupt is ignored (and discovery fetched again).
enum DiscoveryCache {
    /// The lifetime of a document whose response has no `Cache-Control: max-age`: 24 hours.
    static let defaultLifetime: TimeInterval = 24 * 60 * 60
    /// The longest lifetime kept, whatever `max-age` says: 7 days.
    static let maximumLifetime: TimeInterval = 7 * 24 * 60 * 60
    /// The record format.
    static let version = 2

    /// A document read from the store.
    struct Entry: Sendable {
        /// The (merged) discovery document.
        let document: JSON
        /// When it stops being used.
        let expiresAt: Date
    }

    /// The store key of a client's discovery record for an issuer:
    /// `<storeKey>.discovery.<first 16 hex digits of SHA-256(issuer)>`.
    static func key(storeKey: String, issuer: String) -> String {
        let digest = SHA2Hash.sha256(Data(issuer.utf8)).prefix(8)
        return storeKey + ".discovery." + digest.map { String(format: "%02x", $0) }.joined()
    }

    /// How long a fetched document may be used, from its response's `Cache-Control`: `no-store` or
    /// `no-cache` keep it for this process only (`0`); `max-age=N` keeps it N seconds (at most
    /// ``maximumLifetime``); otherwise ``defaultLifetime``.
    static func lifetime(cacheControl: String?) -> TimeInterval {
        guard let cacheControl else { return defaultLifetime }
        var lifetime = defaultLifetime
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }
            switch parts.first {
            case "no-store", "no-cache":
                return 0
            case "max-age":
                guard parts.count == 2, let seconds = Int(parts[1].trimmingCharacters(in: ["\""])), seconds >= 0
                else { continue }
                lifetime = min(TimeInterval(seconds), maximumLifetime)
            default:
                continue
            }
        }
        return lifetime
    }

    /// Encodes a record.
    static func encode(
        document: JSON, identity: ProviderIdentity, issuer: String, fetchedAt: Date, expiresAt: Date
    ) -> Data {
        JSON.object([
            "version": .number(Double(version)), "provider": .string(identity.provider),
            "binding": .string(identity.digest), "issuer": .string(issuer),
            "fetchedAt": .number(fetchedAt.timeIntervalSince1970.rounded()),
            "expiresAt": .number(expiresAt.timeIntervalSince1970.rounded()), "document": document,
        ]).serialized
    }

    /// Decodes a record, or `nil` when it is corrupt, of another version, of another client or for another
    /// issuer (the record's and the document's `issuer` must both equal `issuer` exactly).
    static func decode(_ data: Data, identity: ProviderIdentity, issuer: String) -> Entry? {
        guard let record = JSON(data: data), record["version"]?.int == version,
            record["binding"]?.string == identity.digest, record["provider"]?.string == identity.provider,
            record["issuer"]?.string == issuer, let expiresAt = record["expiresAt"]?.double,
            let document = record["document"], document.object != nil, document["issuer"]?.string == issuer
        else { return nil }
        return Entry(document: document, expiresAt: Date(timeIntervalSince1970: expiresAt))
    }
}
