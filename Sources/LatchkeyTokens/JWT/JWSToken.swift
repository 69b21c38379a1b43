import Foundation

/// A JWS in compact serialization (RFC 7515 §7.1), parsed strictly but **not verified**.
///
/// Parsing accepts exactly three dot-separated parts of unpadded, canonical base64url; the header and
/// the payload must be UTF-8 JSON objects with unique member names. Nothing here trusts the content:
/// see ``verifySignature(keys:allowedAlgorithms:)`` and `IDTokenValidator`. Parsing never traps,
/// whatever the input, and its errors never quote the token.
public struct JWSToken: Sendable, Hashable {
    /// The longest compact token accepted, in bytes (64 KiB).
    public static let maximumCompactLength = 64 * 1024

    /// The protected header.
    public let header: JWSHeader
    /// The payload's members (for a JWT, its claims).
    public let payload: [String: JSON]
    /// The bytes the signature covers: `ASCII(BASE64URL(header) || "." || BASE64URL(payload))`.
    public let signingInput: [UInt8]
    /// The signature bytes (for ECDSA, raw `r || s`).
    public let signature: [UInt8]
    /// The code of the errors this token's checks throw.
    package let failureCode: AuthError.Code

    /// Parses a compact JWS.
    /// - Parameters:
    ///   - compact: The token text.
    ///   - failureCode: The code of the errors thrown: `invalid_token` (the default) for access tokens,
    ///     ``AuthError/Code/invalidIDToken`` for ID tokens.
    /// - Throws: ``AuthError`` with `failureCode` when the text is not a well-formed compact JWS.
    public init(compact: String, failureCode: AuthError.Code = .invalidToken) throws(AuthError) {
        let bytes = Array(compact.utf8)
        guard bytes.count <= Self.maximumCompactLength else {
            throw AuthError(
                failureCode, "the token is \(bytes.count) bytes; at most \(Self.maximumCompactLength) are accepted")
        }
        let dot = UInt8(ascii: ".")
        let dots = bytes.indices.filter { bytes[$0] == dot }
        guard dots.count == 2 else {
            throw AuthError(failureCode, "a compact JWS has 3 dot-separated parts; the token has \(dots.count + 1)")
        }
        let headerBytes = try Self.decodePart(bytes[..<dots[0]], name: "header", failureCode: failureCode)
        let payloadBytes = try Self.decodePart(
            bytes[(dots[0] + 1)..<dots[1]], name: "payload", failureCode: failureCode)
        let signature = try Self.decodePart(bytes[(dots[1] + 1)...], name: "signature", failureCode: failureCode)
        guard let headerMembers = StrictJSONObject.decode(headerBytes) else {
            throw AuthError(failureCode, "the JWS header is not a UTF-8 JSON object with unique member names")
        }
        guard let payload = StrictJSONObject.decode(payloadBytes) else {
            throw AuthError(failureCode, "the JWS payload is not a UTF-8 JSON object with unique member names")
        }
        self.header = try JWSHeader(members: headerMembers, failureCode: failureCode)
        self.payload = payload
        self.signingInput = Array(bytes[..<dots[1]])
        self.signature = signature
        self.failureCode = failureCode
    }

    private static func decodePart(
        _ part: ArraySlice<UInt8>, name: String, failureCode: AuthError.Code
    ) throws(AuthError) -> [UInt8] {
        // JWS base64url has no padding (RFC 7515 §2); Base64URL.decode checks the alphabet and canonical form.
        guard !part.contains(UInt8(ascii: "=")), let decoded = Base64URL.decode(String(decoding: part, as: UTF8.self))
        else {
            throw AuthError(failureCode, "the JWS \(name) is not unpadded base64url")
        }
        return decoded
    }
}

extension JWSToken: CustomStringConvertible, CustomReflectable {
    /// A summary that names the algorithm and key, never the token's content.
    public var description: String {
        "JWSToken(alg: \(MessageText.quoted(header.algorithm)), kid: \(header.keyID.map { MessageText.quoted($0) } ?? "none"))"
    }

    /// A mirror with the summary only, so that `dump` does not print claims or the signature.
    public var customMirror: Mirror {
        Mirror(self, children: ["summary": description], displayStyle: .struct)
    }
}
