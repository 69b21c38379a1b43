/// The `at_hash` binding of an access token to an ID token (OpenID Connect Core §3.1.3.6 and §3.2.2.9):
/// base64url of the left half of the access token's hash, the hash being the one of the ID token's `alg`.
enum AccessTokenHash {
    /// The `at_hash` value for an access token.
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - algorithm: The ID token's `alg`.
    ///   - failureCode: The code of the error thrown.
    /// - Returns: The expected `at_hash`.
    /// - Throws: ``AuthError`` when the algorithm hashes with SHA-384 or SHA-512 (the 384 and 512
    ///   algorithms, and EdDSA with Ed25519): LatchkeyRuntime's crypto provides SHA-256 only, so such an
    ///   `at_hash` cannot be checked and the token is refused rather than accepted unchecked.
    static func value(
        for accessToken: String, algorithm: SignatureAlgorithm, failureCode: AuthError.Code
    ) throws(AuthError) -> String {
        switch algorithm {
        case .rs256, .ps256, .es256:
            return Base64URL.encode(SHA256.hash(Array(accessToken.utf8)).prefix(SHA256.byteCount / 2))
        case .rs384, .ps384, .es384, .rs512, .ps512, .edDSA:
            let hash = algorithm == .edDSA ? "SHA-512" : "SHA-\(algorithm.digestByteCount * 8)"
            throw AuthError(
                failureCode,
                "at_hash for \(algorithm.rawValue) needs \(hash), which LatchkeyRuntime does not provide; "
                    + "the access token cannot be checked against the ID token")
        }
    }

    /// Checks an `at_hash` claim.
    /// - Parameters:
    ///   - claim: The `at_hash` claim.
    ///   - accessToken: The access token issued with the ID token.
    ///   - algorithm: The ID token's `alg`.
    ///   - failureCode: The code of the error thrown.
    /// - Throws: ``AuthError`` when the hash does not match or cannot be computed.
    static func check(
        _ claim: String, accessToken: String, algorithm: SignatureAlgorithm, failureCode: AuthError.Code
    ) throws(AuthError) {
        let expected = try value(for: accessToken, algorithm: algorithm, failureCode: failureCode)
        guard ConstantTime.equals(claim, expected) else {
            throw AuthError(failureCode, "the at_hash claim does not match the access token")
        }
    }
}
