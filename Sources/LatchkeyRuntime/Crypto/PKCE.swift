import LatchkeyTokens

/// Proof Key for Code Exchange (RFC 7636) with the S256 method.
public enum PKCE {
    /// The challenge method Latchkey always uses.
    public static let method = "S256"

    /// Makes a code verifier from 32 random bytes: 43 base64url characters.
    /// - Parameter random: The byte source.
    /// - Returns: The verifier.
    public static func makeVerifier(using random: some RandomSource = SystemRandomSource()) -> String {
        Base64URL.encode(random.bytes(count: 32))
    }

    /// The S256 challenge for a verifier: `BASE64URL(SHA256(ASCII(verifier)))`.
    /// - Parameter verifier: The code verifier.
    /// - Returns: The challenge.
    public static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA2Hash.sha256(Array(verifier.utf8)))
    }

    /// Whether a string is a valid verifier: 43 to 128 characters of `A-Z a-z 0-9 - . _ ~`.
    /// - Parameter verifier: The candidate.
    /// - Returns: `true` when it is valid.
    public static func isValidVerifier(_ verifier: String) -> Bool {
        let utf8 = verifier.utf8
        guard (43...128).contains(utf8.count) else { return false }
        // RFC 7636 §4.1: `unreserved` characters of RFC 3986.
        return utf8.allSatisfy(PercentEncoding.isUnreserved)
    }
}
