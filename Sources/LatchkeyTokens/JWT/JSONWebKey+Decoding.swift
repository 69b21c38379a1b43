extension JSONWebKey {
    /// Reads one JWK object; `nil` means "skip this key": it is not a public signature key Latchkey can
    /// use (an `enc` key, a symmetric `oct` key, another curve, an unknown `alg`, or malformed members).
    /// - Parameter members: The JWK's members.
    package init?(jwk members: [String: JSON]) {
        guard let keyType = members["kty"]?.string else { return nil }
        if let use = members["use"], use.string != "sig" { return nil }
        if let operations = members["key_ops"] {
            guard let list = operations.array, list.contains(.string("verify")) else { return nil }
        }
        var keyID: String?
        if let kid = members["kid"] {
            guard let text = kid.string else { return nil }
            keyID = text
        }
        var algorithm: SignatureAlgorithm?
        if let alg = members["alg"] {
            guard let text = alg.string, let known = SignatureAlgorithm(rawValue: text) else { return nil }
            algorithm = known
        }
        guard let material = Self.material(keyType: keyType, members) else { return nil }
        if let algorithm, !Self.keyTypeFits(material, algorithm) { return nil }
        self.init(material: material, keyID: keyID, algorithm: algorithm)
    }

    private static func material(keyType: String, _ members: [String: JSON]) -> PublicKeyMaterial? {
        func bytes(_ name: String) -> [UInt8]? {
            guard let text = members[name]?.string, let decoded = Base64URL.decode(text), !decoded.isEmpty else {
                return nil
            }
            return decoded
        }
        switch keyType {
        case "RSA":
            guard let modulus = bytes("n"), let exponent = bytes("e") else { return nil }
            return .rsa(modulus: modulus, exponent: exponent)
        case "EC":
            guard let curve = members["crv"]?.string, let size = PublicKeyMaterial.coordinateByteCount(curve: curve),
                let x = bytes("x"), let y = bytes("y"), x.count == size, y.count == size
            else { return nil }
            return .ec(curve: curve, x: x, y: y)
        case "OKP":
            guard members["crv"]?.string == "Ed25519", let raw = bytes("x"), raw.count == 32 else { return nil }
            return .ed25519(raw: raw)
        default:
            return nil
        }
    }
}
