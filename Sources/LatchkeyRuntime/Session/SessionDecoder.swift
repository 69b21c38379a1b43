import Foundation

/// Builds sessions and users from provider documents through ``SessionMapping`` and ``UserMapping``.
struct SessionDecoder: Sendable {
    let provider: String
    let sessionMapping: SessionMapping
    let userMapping: UserMapping
    /// Whether the descriptor declares PASETO access tokens, whose `token_type` may be `PASETO`.
    var acceptsPasetoTokenType = false

    /// Decodes a token response.
    /// - Parameters:
    ///   - document: The response body.
    ///   - now: The local clock at receipt.
    ///   - serverDate: The response's `Date` header, used to correct an absolute expiry for clock skew.
    /// An `expires_in` of zero or less is no lifetime at all: it is read as unknown (no expiry), never as a
    /// token that is already expired (which would make every ``AuthClient/validAccessToken()`` refresh).
    /// - Throws: `invalid_response` when there is no access token, when it holds characters outside RFC 6750's
    ///   token characters (it is copied into the `Authorization` header), when the token type is not one the
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
        guard TokenSyntax.isAcceptedTokenType(tokenType, acceptsPaseto: acceptsPasetoTokenType) else {
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
            expiresAt: expiry(document, now: now, serverDate: serverDate),
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
            name: nonEmptyString(document, userMapping.name),
            role: nonEmptyString(document, userMapping.role),
            scopes: scopes(document),
            attributes: document
        )
    }

    private func expiry(_ document: JSON, now: Date, serverDate: Date?) -> Date? {
        if let pointer = sessionMapping.expiresIn, let seconds = Self.number(document.value(at: pointer)) {
            // Zero or less says nothing about the token's life: unknown, like a missing `expires_in`.
            return seconds > 0 ? now.addingTimeInterval(seconds) : nil
        }
        if let pointer = sessionMapping.expiresAt, let seconds = Self.number(document.value(at: pointer)) {
            let skew = serverDate.map { now.timeIntervalSince($0) } ?? 0
            return Date(timeIntervalSince1970: seconds).addingTimeInterval(skew)
        }
        return nil
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
        return decoder
    }
}
