/// A JWS signature algorithm Latchkey verifies (RFC 7518, RFC 8037). `none` and HMAC are not here
/// on purpose.
public enum SignatureAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = "RS256"
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    case rs384 = "RS384"
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    case rs512 = "RS512"
    /// RSASSA-PSS with SHA-256, MGF1 SHA-256, 32-byte salt.
    case ps256 = "PS256"
    /// RSASSA-PSS with SHA-384, MGF1 SHA-384, 48-byte salt.
    case ps384 = "PS384"
    /// RSASSA-PSS with SHA-512, MGF1 SHA-512, 64-byte salt.
    case ps512 = "PS512"
    /// ECDSA on P-256 with SHA-256; signatures are raw `r || s` (64 bytes).
    case es256 = "ES256"
    /// ECDSA on P-384 with SHA-384; signatures are raw `r || s` (96 bytes).
    case es384 = "ES384"
    /// EdDSA; Latchkey supports the Ed25519 curve.
    case edDSA = "EdDSA"

    /// The SHA-2 digest length in bytes the algorithm uses (0 for EdDSA, which hashes internally).
    public var digestByteCount: Int {
        switch self {
        case .rs256, .ps256, .es256: 32
        case .rs384, .ps384, .es384: 48
        case .rs512, .ps512: 64
        case .edDSA: 0
        }
    }

    /// Whether the algorithm uses RSA-PSS padding.
    public var isPSS: Bool { self == .ps256 || self == .ps384 || self == .ps512 }
}

/// A public key, as JWK parameters carry it (big-endian unsigned integers and raw coordinates).
public enum PublicKeyMaterial: Sendable, Hashable {
    /// An RSA key: the JWK `n` and `e`.
    case rsa(modulus: [UInt8], exponent: [UInt8])
    /// An EC key: the JWK `crv` (`P-256` or `P-384`), `x` and `y`.
    case ec(curve: String, x: [UInt8], y: [UInt8])
    /// An Ed25519 key: the JWK `x` (32 bytes), with `kty` `OKP` and `crv` `Ed25519`.
    case ed25519(raw: [UInt8])

    /// The coordinate length in bytes for a supported EC curve name, or `nil`.
    /// - Parameter curve: The JWK `crv`.
    /// - Returns: 32 for P-256, 48 for P-384, otherwise `nil`.
    public static func coordinateByteCount(curve: String) -> Int? {
        switch curve {
        case "P-256": 32
        case "P-384": 48
        default: nil
        }
    }
}
