import LatchkeyPlatform

/// A `v4.public` token whose signature checked out. Its claims are authentic but not yet validated
/// (expiry, issuer, audience): see ``PasetoClaimsValidator``.
public struct PasetoVerifiedToken: Sendable, Hashable {
    /// The signed message `m`: the payload's UTF-8 JSON bytes, exactly as signed.
    public let payload: [UInt8]
    /// The footer bytes, authenticated by the signature; empty when the token has none.
    public let footer: [UInt8]
    /// The payload's top-level JSON object.
    public let claims: [String: JSON]
    /// The footer's `kid`, when the footer is a JSON object with a string `kid`.
    public let keyID: String?

    /// Creates a verified token. ``PasetoV4Public/verify(_:publicKey:footer:implicitAssertion:)``
    /// builds these; the initializer is public for tests and adapters.
    /// - Parameters:
    ///   - payload: The signed message bytes.
    ///   - footer: The footer bytes.
    ///   - claims: The payload's JSON object.
    ///   - keyID: The footer's `kid`.
    public init(payload: [UInt8], footer: [UInt8], claims: [String: JSON], keyID: String?) {
        self.payload = payload
        self.footer = footer
        self.claims = claims
        self.keyID = keyID
    }

    /// The footer as UTF-8 text, or `nil` when it is not valid UTF-8.
    public var footerText: String? {
        String(validatingUTF8Bytes: footer)
    }
}
