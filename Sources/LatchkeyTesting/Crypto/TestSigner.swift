@_spi(Generated) import LatchkeyRuntime
import LatchkeyTokens

/// A signing key for tests and the simulator: generates RSA, P-256, P-384 or Ed25519 keys, signs
/// JWS messages and exports the public JWK parameters. Uses libcrypto on Linux and CryptoKit/Security
/// on Apple platforms; never use it to protect anything real.
public struct TestSigner: Sendable {
    /// The kind of key to generate.
    public enum KeyType: Sendable, Hashable {
        /// An RSA key of the given size in bits (2048 by default).
        case rsa(bits: Int = 2048)
        /// An EC key on P-256.
        case p256
        /// An EC key on P-384.
        case p384
        /// An Ed25519 key.
        case ed25519
    }

    /// The kind of key.
    public let keyType: KeyType
    /// The public key, for ``SignatureVerifier``.
    public let publicKey: PublicKeyMaterial
    /// The private key in the platform's serialized form.
    let privateKey: [UInt8]

    /// Generates a new key.
    /// - Parameter keyType: The kind of key.
    /// - Throws: ``TestSignerError`` when the crypto library fails.
    public init(_ keyType: KeyType) throws(TestSignerError) {
        let generated = try TestSignerBackend.generate(keyType)
        self.keyType = keyType
        self.privateKey = generated.privateKey
        self.publicKey = generated.publicKey
    }

    /// The algorithms this key can sign with.
    public var algorithms: [SignatureAlgorithm] {
        switch keyType {
        case .rsa: [.rs256, .rs384, .rs512, .ps256, .ps384, .ps512]
        case .p256: [.es256]
        case .p384: [.es384]
        case .ed25519: [.edDSA]
        }
    }

    /// Signs a message. ECDSA signatures come back raw (`r || s`), as JWS wants them.
    /// - Parameters:
    ///   - message: The bytes to sign.
    ///   - algorithm: The algorithm; it must be one of ``algorithms``.
    /// - Returns: The signature.
    /// - Throws: ``TestSignerError`` when the algorithm does not fit the key or signing fails.
    public func sign(_ message: [UInt8], algorithm: SignatureAlgorithm) throws(TestSignerError) -> [UInt8] {
        guard algorithms.contains(algorithm) else {
            throw TestSignerError("a \(keyType) key cannot sign \(algorithm.rawValue)")
        }
        return try TestSignerBackend.sign(message, algorithm: algorithm, keyType: keyType, privateKey: privateKey)
    }

    /// The public key as JWK members (base64url values), for a JWKS document.
    /// - Parameters:
    ///   - keyID: The `kid`, if any.
    ///   - algorithm: The `alg`, if any.
    /// - Returns: The JWK members, for example `kty`, `n`, `e` for RSA.
    public func publicJWK(keyID: String? = nil, algorithm: SignatureAlgorithm? = nil) -> [String: String] {
        var jwk: [String: String]
        switch publicKey {
        case .rsa(let modulus, let exponent):
            jwk = ["kty": "RSA", "n": Base64URL.encode(modulus), "e": Base64URL.encode(exponent)]
        case .ec(let curve, let x, let y):
            jwk = ["kty": "EC", "crv": curve, "x": Base64URL.encode(x), "y": Base64URL.encode(y)]
        case .ed25519(let raw):
            jwk = ["kty": "OKP", "crv": "Ed25519", "x": Base64URL.encode(raw)]
        }
        jwk["use"] = "sig"
        if let keyID { jwk["kid"] = keyID }
        if let algorithm { jwk["alg"] = algorithm.rawValue }
        return jwk
    }
}

/// A failure of ``TestSigner``.
public struct TestSignerError: Error, Sendable, CustomStringConvertible {
    /// What failed.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
