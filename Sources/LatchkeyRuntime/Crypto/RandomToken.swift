import LatchkeyTokens

/// Random, URL-safe tokens for `state`, `nonce` and similar values.
public enum RandomToken {
    /// Makes a base64url token from random bytes.
    /// - Parameters:
    ///   - bytes: How many random bytes (default 32, giving 43 characters).
    ///   - random: The byte source.
    /// - Returns: The token.
    public static func make(bytes: Int = 32, using random: some RandomSource = SystemRandomSource()) -> String {
        Base64URL.encode(random.bytes(count: bytes))
    }
}
