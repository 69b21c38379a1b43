import Foundation
import LatchkeyTokens

/// Builds sessions and users from provider documents through ``SessionMapping`` and ``UserMapping``.
struct SessionDecoder: Sendable {
    let provider: String
    let sessionMapping: SessionMapping
    let userMapping: UserMapping
    /// Whether the descriptor declares PASETO access tokens, whose `token_type` may be `PASETO`.
    var acceptsPasetoTokenType = false
    /// Whether the descriptor declares DPoP, whose `token_type` may be `DPoP` (whether a proof was sent is checked
    /// by ``AuthClient/decodeSession(_:_:request:proofKey:)``).
    var acceptsDPoPTokenType = false

    /// Decodes a token response.
    /// - Parameters:
    ///   - document: The response body.
    ///   - now: The local clock at receipt.
    ///   - serverDate: The response's `Date` header, used to correct an absolute expiry for clock skew.
    /// The expiry follows ``expiry(_:accessToken:now:serverDate:)``.
    /// - Throws: `invalid_response` when there is no access token, when it holds characters outside RFC 6750's
    ///   token characters and `!` (it is copied into the `Authorization` header; see ``TokenSyntax``), when the token type is not one the
    ///   descriptor declares (`Bearer`, or `PASETO` for PASETO access tokens), or when the embedded user is
    ///   malformed.
    func session(from document: JSON, now: Date, serverDate: Date?) throws(AuthError) -> Session {
        guard let accessToken = document.value(at: sessionMapping.accessToken)?.string, !accessToken.isEmpty else {
            throw AuthError(.invalidResponse, "The token response has no access token.", provider: provider)
        }
        guard TokenSyntax.isBearerToken(accessToken) else {
            throw AuthError(
                .invalidResponse, "The access token holds characters a token may not hold (RFC 6750).",
                provider: provider)
        }
        let tokenType = nonEmptyString(document, sessionMapping.tokenType) ?? "bearer"
        guard
            TokenSyntax.isAcceptedTokenType(
                tokenType, acceptsPaseto: acceptsPasetoTokenType, acceptsDPoP: acceptsDPoPTokenType)
        else {
            let shown = tokenType.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }
            throw AuthError(
                .invalidResponse,
                "The token type \(shown ? "'\(tokenType.prefix(32))'" : "sent") is not one this provider declares "
                    + "(Bearer).", provider: provider)
        }
        var user: User?
        if let pointer = sessionMapping.user, let userDocument = document.value(at: pointer), !userDocument.isNull {
            user = try self.user(from: userDocument)
        }
        return Session(
            accessToken: accessToken,
            refreshToken: nonEmptyString(document, sessionMapping.refreshToken),
            idToken: nonEmptyString(document, sessionMapping.idToken),
            tokenType: tokenType,
            expiresAt: expiry(document, accessToken: accessToken, now: now, serverDate: serverDate),
            issuedAt: now,
            scope: nonEmptyString(document, sessionMapping.scope),
            user: user,
            provider: provider
        )
    }

    /// Whether a document carries an access token (for responses that are a session or a user).
    func hasAccessToken(_ document: JSON) -> Bool {
        nonEmptyString(document, sessionMapping.accessToken) != nil
    }

    /// Decodes a user document.
    /// - Throws: `invalid_response` when the document has no identifier.
    func user(from document: JSON) throws(AuthError) -> User {
        guard let id = Self.text(document.value(at: userMapping.id)), !id.isEmpty else {
            throw AuthError(
                .invalidResponse, "The user document has no identifier at \(userMapping.id).", provider: provider)
        }
        return User(
            id: id,
            email: nonEmptyString(document, userMapping.email),
            name: nonEmptyString(document, userMapping.name) ?? joinedName(document),
            role: nonEmptyString(document, userMapping.role),
            scopes: scopes(document),
            attributes: document
        )
    }

    /// When a new session's access token expires, by the first rule that applies:
    ///
    /// 1. an `expires_in` above zero: `now` plus that many seconds;
    /// 2. an `expires_at` (seconds since 1970), moved by the skew between the response's `Date` and `now`;
    /// 3. the `exp` of an access token that is a JWT, read **without** verifying it and moved by the same
    ///    skew: it only ever makes the session refresh sooner, it never makes a token accepted;
    /// 4. an `expires_in` of zero or less with none of the above: `now`, a token issued already expired (the
    ///    next ``AuthClient/validAccessToken()`` refreshes it);
    /// 5. otherwise `nil`: unknown, never expiring as far as the client can tell.
    ///
    /// - Parameters:
    ///   - document: The token response.
    ///   - accessToken: The access token it carries.
    ///   - now: The local clock at receipt.
    ///   - serverDate: The response's `Date` header.
    /// - Returns: The expiry, or `nil` when nothing says.
    func expiry(_ document: JSON, accessToken: String, now: Date, serverDate: Date?) -> Date? {
        let lifetime = sessionMapping.expiresIn.flatMap { Self.number(document.value(at: $0)) }
        if let lifetime, lifetime > 0 { return now.addingTimeInterval(lifetime) }
        let skew = serverDate.map { now.timeIntervalSince($0) } ?? 0
        if let pointer = sessionMapping.expiresAt, let seconds = Self.number(document.value(at: pointer)) {
            return Date(timeIntervalSince1970: seconds).addingTimeInterval(skew)
        }
        if let seconds = Self.unverifiedExpiry(ofJWT: accessToken) {
            return Date(timeIntervalSince1970: seconds).addingTimeInterval(skew)
        }
        return lifetime == nil ? nil : now
    }

    /// The `exp` of a token that parses as a compact JWS, read without verification, or `nil`.
    static func unverifiedExpiry(ofJWT token: String) -> Double? {
        guard token.utf8.count(where: { $0 == UInt8(ascii: ".") }) == 2,
            let jws = try? JWSToken(compact: token, failureCode: .invalidToken)
        else { return nil }
        return number(jws.payload["exp"])
    }

    private func scopes(_ document: JSON) -> [String] {
        guard let pointer = userMapping.scopes, let value = document.value(at: pointer) else { return [] }
        if let text = value.string { return text.split(separator: " ").map(String.init) }
        return value.array?.compactMap(\.string) ?? []
    }

    private func nonEmptyString(_ document: JSON, _ pointer: String?) -> String? {
        guard let pointer, let text = document.value(at: pointer)?.string, !text.isEmpty else { return nil }
        return text
    }

    /// A string, or an integer written as text (some providers use numeric ids).
    static func text(_ value: JSON?) -> String? {
        if let text = value?.string { return text }
        return value?.int.map(String.init)
    }

    /// A finite number, or a number written as text.
    static func number(_ value: JSON?) -> Double? {
        let number = value?.double ?? value?.string.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard let number, number.isFinite else { return nil }
        return number
    }
}

extension SessionDecoder {
    /// This decoder with another session mapping (a request's own), or itself when `mapping` is `nil`.
    func mapping(_ mapping: SessionMapping?) -> SessionDecoder {
        guard let mapping else { return self }
        var decoder = SessionDecoder(provider: provider, sessionMapping: mapping, userMapping: userMapping)
        decoder.acceptsPasetoTokenType = acceptsPasetoTokenType
        decoder.acceptsDPoPTokenType = acceptsDPoPTokenType
        return decoder
    }
}

extension SessionDecoder {
    /// The name built from ``UserMapping/nameParts``: the non-empty texts there, joined by a space.
    func joinedName(_ document: JSON) -> String? {
        let parts = userMapping.nameParts.compactMap { pointer -> String? in
            guard let text = document.value(at: pointer)?.string?.trimmingCharacters(in: .whitespaces) else {
                return nil
            }
            return text.isEmpty ? nil : text
        }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}
