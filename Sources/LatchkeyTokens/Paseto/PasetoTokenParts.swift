/// The pieces of a `v4.public` token, split and base64url-decoded but not yet verified.
package struct PasetoTokenParts: Sendable {
    /// The signed message `m`.
    package let message: [UInt8]
    /// The Ed25519 signature `sig` (64 bytes).
    package let signature: [UInt8]
    /// The decoded footer `f`; empty when the token has none.
    package let footer: [UInt8]

    /// The length of an Ed25519 signature.
    package static let signatureByteCount = 64

    /// Splits and decodes a token.
    ///
    /// Checks, in order: the size cap, the exact `v4.public.` header, one or two dot-separated segments
    /// after it (a present footer segment must not be empty), and strict unpadded canonical base64url
    /// in each segment; the body must hold at least the 64-byte signature.
    /// - Parameter token: The token text.
    /// - Throws: ``AuthError`` `invalid_token` describing the first check that failed.
    package init(_ token: String) throws(AuthError) {
        let segments = try Self.split(token)
        guard let bodyBytes = Self.decode(segments.body) else {
            throw AuthError(.invalidToken, "PASETO body is not canonical unpadded base64url")
        }
        guard bodyBytes.count >= Self.signatureByteCount else {
            throw AuthError(.invalidToken, "PASETO body is shorter than an Ed25519 signature")
        }
        var footer: [UInt8] = []
        if let encodedFooter = segments.footer {
            guard let bytes = Self.decode(encodedFooter) else {
                throw AuthError(.invalidToken, "PASETO footer is not canonical unpadded base64url")
            }
            footer = bytes
        }
        self.message = Array(bodyBytes.dropLast(Self.signatureByteCount))
        self.signature = Array(bodyBytes.suffix(Self.signatureByteCount))
        self.footer = footer
    }

    /// Decodes only the footer, without touching the body beyond its syntax.
    /// - Parameter token: The token text.
    /// - Returns: The footer bytes (empty when there is none), or `nil` when the token is malformed.
    package static func footer(of token: String) -> [UInt8]? {
        guard let segments = try? split(token) else { return nil }
        guard let encodedFooter = segments.footer else { return [] }
        return decode(encodedFooter)
    }

    /// Checks the size and header and returns the body and footer segments.
    private static func split(_ token: String) throws(AuthError) -> (body: Substring, footer: Substring?) {
        guard token.utf8.count <= PasetoV4Public.maximumTokenLength else {
            throw AuthError(
                .invalidToken, "PASETO token is longer than \(PasetoV4Public.maximumTokenLength) bytes")
        }
        // Bytes, not Characters: String comparison would apply Unicode equivalence.
        let header = PasetoV4Public.header.utf8
        guard token.utf8.starts(with: header) else {
            throw AuthError(.invalidToken, "not a PASETO v4.public token (the header must be \"v4.public.\")")
        }
        let rest = token[token.utf8.index(token.utf8.startIndex, offsetBy: header.count)...]
        let segments = rest.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        switch segments.count {
        case 1:
            return (segments[0], nil)
        case 2 where !segments[1].isEmpty:
            return (segments[0], segments[1])
        case 2:
            throw AuthError(.invalidToken, "PASETO token ends with an empty footer segment")
        default:
            throw AuthError(.invalidToken, "PASETO v4.public token has too many segments")
        }
    }

    /// Strict PASETO base64url: no `=` padding at all, canonical trailing bits.
    private static func decode(_ segment: Substring) -> [UInt8]? {
        guard !segment.utf8.contains(UInt8(ascii: "=")) else { return nil }
        return Base64URL.decode(String(segment))
    }
}
