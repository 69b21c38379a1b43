/// Verifies JWS signatures with public keys, through the platform's crypto library.
public enum SignatureVerifier {
    /// The smallest RSA modulus accepted, in bits.
    public static let minimumRSABits = 2048
    /// The largest RSA modulus accepted, in bits.
    public static let maximumRSABits = 16384

    /// Verifies a signature.
    ///
    /// A signature that does not match (including one of the wrong length) returns `false`. A key that
    /// cannot be used (wrong type for the algorithm, RSA under 2048 bits, malformed or off-curve EC
    /// point, Ed25519 key not 32 bytes) throws.
    /// - Parameters:
    ///   - algorithm: The JWS `alg`.
    ///   - key: The public key.
    ///   - message: The signed bytes (for a JWS, `ASCII(header.payload)`).
    ///   - signature: The signature bytes (for ECDSA, raw `r || s`).
    /// - Returns: Whether the signature is valid.
    /// - Throws: ``AuthError`` `invalid_token` when the key is unusable for the algorithm.
    public static func verify(
        algorithm: SignatureAlgorithm, key: PublicKeyMaterial, message: [UInt8], signature: [UInt8]
    ) throws(AuthError) -> Bool {
        try checkKey(key, for: algorithm)
        switch key {
        case .ec(let curve, _, _):
            guard let size = PublicKeyMaterial.coordinateByteCount(curve: curve), signature.count == 2 * size else {
                return false
            }
        case .ed25519:
            guard signature.count == 64 else { return false }
        case .rsa:
            guard !signature.isEmpty else { return false }
        }
        return try PlatformVerifier.verify(algorithm: algorithm, key: key, message: message, signature: signature)
    }

    private static func checkKey(_ key: PublicKeyMaterial, for algorithm: SignatureAlgorithm) throws(AuthError) {
        switch (algorithm, key) {
        case (.rs256, .rsa(let modulus, let exponent)), (.rs384, .rsa(let modulus, let exponent)),
            (.rs512, .rsa(let modulus, let exponent)), (.ps256, .rsa(let modulus, let exponent)),
            (.ps384, .rsa(let modulus, let exponent)), (.ps512, .rsa(let modulus, let exponent)):
            let bits = bitCount(modulus)
            guard bits >= minimumRSABits else {
                throw AuthError(.invalidToken, "RSA key is \(bits) bits; at least \(minimumRSABits) are required")
            }
            guard bits <= maximumRSABits else {
                throw AuthError(.invalidToken, "RSA key is \(bits) bits; at most \(maximumRSABits) are accepted")
            }
            let exponentBits = bitCount(exponent)
            guard exponentBits >= 2, exponentBits <= 64, exponent.last.map({ $0 & 1 == 1 }) == true else {
                throw AuthError(.invalidToken, "RSA public exponent is invalid")
            }
        case (.es256, .ec(let curve, let x, let y)), (.es384, .ec(let curve, let x, let y)):
            let expected = algorithm == .es256 ? "P-256" : "P-384"
            guard curve == expected else {
                throw AuthError(.invalidToken, "\(algorithm.rawValue) needs a \(expected) key, not \(curve)")
            }
            let size = PublicKeyMaterial.coordinateByteCount(curve: curve) ?? 0
            guard x.count == size, y.count == size else {
                throw AuthError(.invalidToken, "\(curve) coordinates must be \(size) bytes each")
            }
        case (.edDSA, .ed25519(let raw)):
            guard raw.count == 32 else { throw AuthError(.invalidToken, "Ed25519 public key must be 32 bytes") }
        default:
            throw AuthError(.invalidToken, "the key type does not match the algorithm \(algorithm.rawValue)")
        }
    }

    /// The number of significant bits in a big-endian unsigned integer.
    package static func bitCount(_ bytes: [UInt8]) -> Int {
        guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return 0 }
        return (bytes.count - first - 1) * 8 + (8 - bytes[first].leadingZeroBitCount)
    }
}
