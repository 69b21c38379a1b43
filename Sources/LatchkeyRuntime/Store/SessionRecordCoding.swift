import Foundation
import LatchkeyTokens

/// Writes and reads the session envelope of ``StoredRecords`` through ``JSON`` instead of `Codable`.
///
/// The text is the one `JSONEncoder` wrote (`.sortedKeys`, dates as seconds since 1970, `nil` members left
/// out), up to number formatting and `/` escaping, so every earlier and later version reads it. Reading is
/// deliberately narrower than `Codable`: a record whose members are not exactly the expected types yields
/// `nil`, and ``StoredRecords`` then falls back to `JSONDecoder`, which decides as it always did.
enum SessionRecordCoding {
    /// The members of a session envelope.
    struct Envelope: Equatable {
        /// The envelope version.
        var version: Int
        /// The descriptor name, in version 2.
        var provider: String?
        /// The client's identity digest, in version 2.
        var binding: String?
        /// The session.
        var session: Session
    }

    /// The envelope's JSON text; `nil` when a date or number is not finite (JSON cannot carry it).
    ///
    /// Written member by member in the order of their names (`JSONObjectWriter`), the text `JSON.serialized`
    /// gives for the same members, without building a `JSON` value first: this runs on every sign-in and
    /// refresh.
    static func encode(_ envelope: Envelope) -> Data? {
        let session = envelope.session
        guard session.issuedAt.timeIntervalSince1970.isFinite,
            session.expiresAt?.timeIntervalSince1970.isFinite ?? true,
            session.user.map({ isFinite($0.attributes) }) ?? true
        else { return nil }
        var writer = JSONObjectWriter()
        if let binding = envelope.binding { writer.member("binding", string: binding) }
        if let provider = envelope.provider { writer.member("provider", string: provider) }
        writer.member("session") { write(session, to: &$0) }
        writer.member("version", number: Double(envelope.version))
        return Data(writer.finish())
    }

    /// The envelope version of a record: its top-level `version`, an integral number.
    static func version(of document: JSON) -> Int? {
        guard let number = document["version"]?.double, number.rounded(.towardZero) == number,
            abs(number) <= 9_007_199_254_740_992
        else { return nil }
        return Int(number)
    }

    /// The envelope of a parsed record; `nil` when any member is missing or of another type.
    static func envelope(_ document: JSON) -> Envelope? {
        guard let version = version(of: document), let session = document["session"].flatMap(session(from:)),
            let provider = optionalString(document["provider"]), let binding = optionalString(document["binding"])
        else { return nil }
        return Envelope(version: version, provider: provider, binding: binding, session: session)
    }

    // MARK: - Writing

    /// The session's members, in order of their names.
    private static func write(_ session: Session, to writer: inout JSONObjectWriter) {
        writer.member("accessToken", string: session.accessToken)
        if !session.captures.isEmpty { writer.member("captures", .object(session.captures.mapValues(JSON.string))) }
        if let dpopKey = session.dpopKey { writer.member("dpopKey", string: dpopKey.storedForm) }
        if let expiresAt = session.expiresAt { writer.member("expiresAt", number: expiresAt.timeIntervalSince1970) }
        if let idToken = session.idToken { writer.member("idToken", string: idToken) }
        writer.member("issuedAt", number: session.issuedAt.timeIntervalSince1970)
        writer.member("provider", string: session.provider)
        if let refreshToken = session.refreshToken { writer.member("refreshToken", string: refreshToken) }
        if let scope = session.scope { writer.member("scope", string: scope) }
        writer.member("tokenType", string: session.tokenType)
        if let user = session.user { writer.member("user") { write(user, to: &$0) } }
    }

    /// The user's members, in order of their names.
    private static func write(_ user: User, to writer: inout JSONObjectWriter) {
        writer.member("attributes", user.attributes)
        if let email = user.email { writer.member("email", string: email) }
        writer.member("id", string: user.id)
        if let name = user.name { writer.member("name", string: name) }
        if let role = user.role { writer.member("role", string: role) }
        writer.member("scopes", .array(user.scopes.map(JSON.string)))
    }

    /// Whether every number in a value is finite (`JSONEncoder` refused the others).
    private static func isFinite(_ value: JSON) -> Bool {
        switch value {
        case .number(let number): number.isFinite
        case .array(let elements): elements.allSatisfy(isFinite)
        case .object(let members): members.values.allSatisfy(isFinite)
        case .string, .bool, .null: true
        }
    }

    // MARK: - Reading

    private static func session(from document: JSON) -> Session? {
        guard case .object = document, let accessToken = document["accessToken"]?.string,
            let tokenType = document["tokenType"]?.string, let issuedAt = document["issuedAt"]?.double,
            let provider = document["provider"]?.string, let refreshToken = optionalString(document["refreshToken"]),
            let idToken = optionalString(document["idToken"]), let scope = optionalString(document["scope"]),
            let expiresAt = optionalNumber(document["expiresAt"])
        else { return nil }
        var captures: [String: String] = [:]
        if let captured = document["captures"], !captured.isNull {
            guard case .object(let members) = captured else { return nil }
            for (name, value) in members {
                guard let text = value.string else { return nil }
                captures[name] = text
            }
        }
        var dpopKey: DPoPKey?
        if let stored = document["dpopKey"], !stored.isNull {
            // A key this platform cannot read leaves the session unusable for proofs: not a session at all.
            guard let text = stored.string, let key = DPoPKey(storedForm: text) else { return nil }
            dpopKey = key
        }
        var user: User?
        if let userDocument = document["user"], !userDocument.isNull {
            guard let decoded = self.user(from: userDocument) else { return nil }
            user = decoded
        }
        var session = Session(
            accessToken: accessToken, refreshToken: refreshToken, idToken: idToken, tokenType: tokenType,
            expiresAt: expiresAt.map(Date.init(timeIntervalSince1970:)),
            issuedAt: Date(timeIntervalSince1970: issuedAt),
            scope: scope, user: user, provider: provider, captures: captures)
        session.dpopKey = dpopKey
        return session
    }

    private static func user(from document: JSON) -> User? {
        guard case .object = document, let id = document["id"]?.string, let scopeValues = document["scopes"]?.array,
            let attributes = document["attributes"], !attributes.isNull,
            let email = optionalString(document["email"]), let name = optionalString(document["name"]),
            let role = optionalString(document["role"])
        else { return nil }
        var scopes: [String] = []
        scopes.reserveCapacity(scopeValues.count)
        for value in scopeValues {
            guard let scope = value.string else { return nil }
            scopes.append(scope)
        }
        return User(id: id, email: email, name: name, role: role, scopes: scopes, attributes: attributes)
    }

    /// `.some(nil)` for a missing or `null` member, `.some(text)` for a string, `nil` for another type.
    private static func optionalString(_ value: JSON?) -> String?? {
        guard let value, !value.isNull else { return .some(nil) }
        return value.string.map { .some($0) }
    }

    /// `.some(nil)` for a missing or `null` member, `.some(number)` for a number, `nil` for another type.
    private static func optionalNumber(_ value: JSON?) -> Double?? {
        guard let value, !value.isNull else { return .some(nil) }
        return value.double.map { .some($0) }
    }
}
