import Foundation
import LatchkeyTokens

/// The versioned envelopes Latchkey writes into a ``SessionStore``.
///
/// Version 2 envelopes name the provider and carry the client's ``ProviderIdentity/digest``
/// (`{"version":2,"provider":…,"binding":…,"session":…}`); one with another binding is refused. Version 1
/// envelopes (written before records were bound) are read only as ``SessionReading/legacy(_:)``, for
/// ``LegacySessionMigration`` to decide.
enum StoredRecords {
    /// The current envelope version.
    static let version = 2
    /// The version of the unbound envelopes written before.
    static let legacyVersion = 1

    /// What a stored session record turned out to be.
    enum SessionReading: Sendable, Equatable {
        /// A current record of this client.
        case bound(Session)
        /// An unbound record of an earlier version: usable only once proven to be this client's.
        case legacy(Session)
        /// A current record of another provider, issuer or client: never used.
        case otherBinding
        /// Corrupt, or of an unknown version.
        case unreadable
    }

    private struct SessionEnvelope: Decodable {
        var version: Int
        var provider: String?
        var binding: String?
        var session: Session
    }

    private struct PendingEnvelope: Codable {
        var version: Int
        var provider: String?
        var binding: String?
        var pending: [PendingFlow]
    }

    private struct VersionProbe: Decodable {
        var version: Int
    }

    /// Encodes a session bound to a client.
    ///
    /// Written through ``SessionRecordCoding`` (no `JSONEncoder` on every commit); the text is what
    /// `JSONEncoder` wrote, so earlier versions read it.
    static func encode(_ session: Session, identity: ProviderIdentity) throws(AuthError) -> Data {
        let envelope = SessionRecordCoding.Envelope(
            version: version, provider: identity.provider, binding: identity.digest, session: session)
        guard let data = SessionRecordCoding.encode(envelope) else {
            throw AuthError(.storeFailed, "Could not encode the record: a date or number in it is not finite.")
        }
        return data
    }

    /// Decodes a session record for a client.
    static func readSession(_ data: Data, identity: ProviderIdentity) -> SessionReading {
        guard let envelope = sessionEnvelope(data) else { return .unreadable }
        switch envelope.version {
        case legacyVersion:
            return .legacy(envelope.session)
        case version:
            guard envelope.binding == identity.digest, envelope.provider == identity.provider,
                envelope.session.provider == identity.provider
            else { return .otherBinding }
            return .bound(envelope.session)
        default:
            return .unreadable
        }
    }

    /// The session envelope of a record of a known version; `nil` when corrupt or of an unknown version.
    ///
    /// ``SessionRecordCoding`` reads records of the expected shape in one pass; anything else goes to
    /// `JSONDecoder`, which decides it as it always did.
    private static func sessionEnvelope(_ data: Data) -> SessionRecordCoding.Envelope? {
        if let document = JSON(data: data) {
            if let envelope = SessionRecordCoding.envelope(document) { return envelope }
            // A DPoP key this device cannot use (another device's Secure Enclave key, another platform's) makes
            // the record no session: `Codable` leaves the key out, and would restore the session without it.
            if let key = document["session"]?["dpopKey"], !key.isNull { return nil }
        }
        guard let probe = try? decoder.decode(VersionProbe.self, from: data),
            probe.version == legacyVersion || probe.version == version,
            let envelope = try? decoder.decode(SessionEnvelope.self, from: data)
        else { return nil }
        return SessionRecordCoding.Envelope(
            version: envelope.version, provider: envelope.provider, binding: envelope.binding,
            session: envelope.session)
    }

    /// Decodes a session record of this client; `nil` for anything else (another binding, a legacy,
    /// corrupt or unknown record).
    static func decodeSession(_ data: Data, identity: ProviderIdentity) -> Session? {
        guard case .bound(let session) = readSession(data, identity: identity) else { return nil }
        return session
    }

    /// Encodes pending browser sign-ins bound to a client.
    static func encode(_ pending: [PendingFlow], identity: ProviderIdentity) throws(AuthError) -> Data {
        try encode(
            PendingEnvelope(version: version, provider: identity.provider, binding: identity.digest, pending: pending))
    }

    /// Decodes pending sign-ins; `nil` when the record is corrupt, of another version or of another client.
    static func decodePending(_ data: Data, identity: ProviderIdentity) -> [PendingFlow]? {
        guard let envelope = try? decoder.decode(PendingEnvelope.self, from: data), envelope.version == version,
            envelope.binding == identity.digest, envelope.provider == identity.provider
        else { return nil }
        return envelope.pending
    }

    private static func encode(_ value: some Encodable) throws(AuthError) -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        do {
            return try encoder.encode(value)
        } catch {
            throw AuthError(.storeFailed, "Could not encode the record: \(error.localizedDescription)")
        }
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
