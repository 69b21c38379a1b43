/// The `at_hash` binding of an access token to an ID token (OpenID Connect Core §3.1.3.6 and §3.2.2.9):
/// base64url of the left half of the access token's hash, the hash being the one of the ID token's `alg`.
package enum AccessTokenHash {
    /// The `at_hash` value for an access token.
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - algorithm: The ID token's `alg`.
    ///   - failureCode: The code of the error thrown.
    /// - Returns: The expected `at_hash`.
    /// - Throws: Nothing today; kept for algorithms whose hash is not known.
    package static func value(
        for accessToken: String, algorithm: SignatureAlgorithm, failureCode: AuthError.Code
    ) throws(AuthError) -> String {
        let function: SHA2Hash.Function =
            switch algorithm {
            case .rs256, .ps256, .es256: .sha256
            case .rs384, .ps384, .es384: .sha384
            // EdDSA with Ed25519 hashes with SHA-512 (OpenID Connect registers at_hash for it this way).
            case .rs512, .ps512, .edDSA: .sha512
            }
        let digest = SHA2Hash.hash(Array(accessToken.utf8), with: function)
        return Base64URL.encode(digest.prefix(function.byteCount / 2))
    }

    /// Checks an `at_hash` claim.
    /// - Parameters:
    ///   - claim: The `at_hash` claim.
    ///   - accessToken: The access token issued with the ID token.
    ///   - algorithm: The ID token's `alg`.
    ///   - failureCode: The code of the error thrown.
    /// - Throws: ``AuthError`` when the hash does not match or cannot be computed.
    package static func check(
        _ claim: String, accessToken: String, algorithm: SignatureAlgorithm, failureCode: AuthError.Code
    ) throws(AuthError) {
        let expected = try value(for: accessToken, algorithm: algorithm, failureCode: failureCode)
        guard ConstantTime.equals(claim, expected) else {
            throw AuthError(failureCode, "the at_hash claim does not match the access token")
        }
    }
}
