/// A public signature-verification key from a JWKS (RFC 7517): RSA, EC (P-256, P-384) or OKP (Ed25519).
public struct JSONWebKey: Sendable, Hashable {
    /// The `kid`, when the key has one.
    public let keyID: String?
    /// The `alg` the key is restricted to, when it names one.
    public let algorithm: SignatureAlgorithm?
    /// The key parameters.
    public let material: PublicKeyMaterial

    /// Creates a key.
    /// - Parameters:
    ///   - material: The key parameters.
    ///   - keyID: The `kid`.
    ///   - algorithm: The `alg` the key is restricted to.
    public init(material: PublicKeyMaterial, keyID: String? = nil, algorithm: SignatureAlgorithm? = nil) {
        self.material = material
        self.keyID = keyID
        self.algorithm = algorithm
    }

    /// The JWK `kty`: `RSA`, `EC` or `OKP`.
    public var keyType: String {
        switch material {
        case .rsa: "RSA"
        case .ec: "EC"
        case .ed25519: "OKP"
        }
    }

    /// The key type for messages: `an RSA key`, `an EC “P-256” key`, `an Ed25519 key`.
    package var summary: String {
        switch material {
        case .rsa: "an RSA key"
        case .ec(let curve, _, _): "an EC \(MessageText.quoted(curve)) key"
        case .ed25519: "an Ed25519 key"
        }
    }

    /// Whether the key may verify signatures made with an algorithm: the key type (and curve) fits it,
    /// and the key's own `alg`, when it has one, is that algorithm.
    /// - Parameter algorithm: The JWS `alg`.
    /// - Returns: `true` when the key is suitable.
    public func canVerify(_ algorithm: SignatureAlgorithm) -> Bool {
        if let restriction = self.algorithm, restriction != algorithm { return false }
        return Self.keyTypeFits(material, algorithm)
    }

    /// Whether a key's type (and curve) fits an algorithm, whatever its `alg` says.
    package static func keyTypeFits(_ material: PublicKeyMaterial, _ algorithm: SignatureAlgorithm) -> Bool {
        switch (material, algorithm) {
        case (.rsa, .rs256), (.rsa, .rs384), (.rsa, .rs512), (.rsa, .ps256), (.rsa, .ps384), (.rsa, .ps512): true
        case (.ec(let curve, _, _), .es256): curve == "P-256"
        case (.ec(let curve, _, _), .es384): curve == "P-384"
        case (.ed25519, .edDSA): true
        default: false
        }
    }
}
