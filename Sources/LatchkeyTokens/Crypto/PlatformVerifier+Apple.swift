#if canImport(CryptoKit)
    import CryptoKit
    import Foundation
    import Security

    /// Signature verification through CryptoKit (EC, Ed25519) and Security (RSA).
    package enum PlatformVerifier {
        package static func verify(
            algorithm: SignatureAlgorithm, key: PublicKeyMaterial, message: [UInt8], signature: [UInt8]
        ) throws(AuthError) -> Bool {
            switch key {
            case .ec(let curve, let x, let y):
                if curve == "P-256" {
                    guard let publicKey = try? P256.Signing.PublicKey(rawRepresentation: x + y) else {
                        throw AuthError(.invalidToken, "the P-256 public key is malformed")
                    }
                    guard let value = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else {
                        return false
                    }
                    return publicKey.isValidSignature(value, for: Data(message))
                } else {
                    guard let publicKey = try? P384.Signing.PublicKey(rawRepresentation: x + y) else {
                        throw AuthError(.invalidToken, "the P-384 public key is malformed")
                    }
                    guard let value = try? P384.Signing.ECDSASignature(rawRepresentation: signature) else {
                        return false
                    }
                    return publicKey.isValidSignature(value, for: Data(message))
                }
            case .ed25519(let raw):
                guard let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else {
                    throw AuthError(.invalidToken, "the Ed25519 public key is malformed")
                }
                return publicKey.isValidSignature(Data(signature), for: Data(message))
            case .rsa(let modulus, let exponent):
                let attributes: [CFString: Any] = [
                    kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: kSecAttrKeyClassPublic,
                ]
                let der = RSAPublicKeyDER.sequence([
                    RSAPublicKeyDER.integer(modulus), RSAPublicKeyDER.integer(exponent),
                ])
                guard let publicKey = SecKeyCreateWithData(Data(der) as CFData, attributes as CFDictionary, nil) else {
                    throw AuthError(.invalidToken, "the RSA public key is malformed")
                }
                return SecKeyVerifySignature(
                    publicKey, secAlgorithm(algorithm), Data(message) as CFData, Data(signature) as CFData, nil)
            }
        }

        private static func secAlgorithm(_ algorithm: SignatureAlgorithm) -> SecKeyAlgorithm {
            switch algorithm {
            case .rs384: .rsaSignatureMessagePKCS1v15SHA384
            case .rs512: .rsaSignatureMessagePKCS1v15SHA512
            case .ps256: .rsaSignatureMessagePSSSHA256
            case .ps384: .rsaSignatureMessagePSSSHA384
            case .ps512: .rsaSignatureMessagePSSSHA512
            default: .rsaSignatureMessagePKCS1v15SHA256
            }
        }
    }

    /// The few DER encodings Security needs for an RSA public key (PKCS #1 `RSAPublicKey`).
    package enum RSAPublicKeyDER {
        package static func integer(_ bytes: [UInt8]) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.isEmpty || value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02] + length(value.count) + value
        }

        package static func sequence(_ elements: [[UInt8]]) -> [UInt8] {
            let content = elements.flatMap { $0 }
            return [0x30] + length(content.count) + content
        }

        private static func length(_ count: Int) -> [UInt8] {
            if count < 0x80 { return [UInt8(count)] }
            var bytes: [UInt8] = []
            var remaining = count
            while remaining > 0 {
                bytes.insert(UInt8(remaining & 0xFF), at: 0)
                remaining >>= 8
            }
            return [0x80 | UInt8(bytes.count)] + bytes
        }
    }
#endif
