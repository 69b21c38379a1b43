import Foundation

/// The versioned envelopes Latchkey writes into a ``SessionStore``.
enum StoredRecords {
    /// The current envelope version.
    static let version = 1

    private struct SessionEnvelope: Codable {
        var version: Int
        var session: Session
    }

    private struct PendingEnvelope: Codable {
        var version: Int
        var pending: [PendingFlow]
    }

    /// Encodes a session as `{"version":1,"session":…}`.
    static func encode(_ session: Session) throws(AuthError) -> Data {
        try encode(SessionEnvelope(version: version, session: session))
    }

    /// Decodes a session envelope; `nil` when the record is corrupt or of an unknown version.
    static func decodeSession(_ data: Data) -> Session? {
        guard let envelope = try? decoder.decode(SessionEnvelope.self, from: data), envelope.version == version else {
            return nil
        }
        return envelope.session
    }

    /// Encodes pending browser sign-ins as `{"version":1,"pending":[…]}`.
    static func encode(_ pending: [PendingFlow]) throws(AuthError) -> Data {
        try encode(PendingEnvelope(version: version, pending: pending))
    }

    /// Decodes pending sign-ins; `nil` when the record is corrupt or of an unknown version.
    static func decodePending(_ data: Data) -> [PendingFlow]? {
        guard let envelope = try? decoder.decode(PendingEnvelope.self, from: data), envelope.version == version else {
            return nil
        }
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
