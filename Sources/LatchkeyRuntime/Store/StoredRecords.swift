import Foundation

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

    private struct SessionEnvelope: Codable {
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
    static func encode(_ session: Session, identity: ProviderIdentity) throws(AuthError) -> Data {
        try encode(
            SessionEnvelope(version: version, provider: identity.provider, binding: identity.digest, session: session))
    }

    /// Decodes a session record for a client.
    static func readSession(_ data: Data, identity: ProviderIdentity) -> SessionReading {
        guard let probe = try? decoder.decode(VersionProbe.self, from: data) else { return .unreadable }
        switch probe.version {
        case legacyVersion:
            guard let envelope = try? decoder.decode(SessionEnvelope.self, from: data) else { return .unreadable }
            return .legacy(envelope.session)
        case version:
            guard let envelope = try? decoder.decode(SessionEnvelope.self, from: data) else { return .unreadable }
            guard envelope.binding == identity.digest, envelope.provider == identity.provider,
                envelope.session.provider == identity.provider
            else { return .otherBinding }
            return .bound(envelope.session)
        default:
            return .unreadable
        }
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
