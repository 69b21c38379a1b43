import LatchkeyTokens

#if canImport(CryptoKit)
    import CryptoKit
    import Foundation
    import LatchkeyRuntime
    import Security

    /// ``TestSigner``'s CryptoKit/Security backend. Private keys travel as their raw or PKCS #1 form.
    enum TestSignerBackend {
        static func generate(
            _ keyType: TestSigner.KeyType
        ) throws(TestSignerError) -> (privateKey: [UInt8], publicKey: PublicKeyMaterial) {
            switch keyType {
            case .p256:
                let key = P256.Signing.PrivateKey()
                let point = Array(key.publicKey.rawRepresentation)
                return (
                    Array(key.rawRepresentation), .ec(curve: "P-256", x: Array(point[..<32]), y: Array(point[32...]))
                )
            case .p384:
                let key = P384.Signing.PrivateKey()
                let point = Array(key.publicKey.rawRepresentation)
                return (
                    Array(key.rawRepresentation), .ec(curve: "P-384", x: Array(point[..<48]), y: Array(point[48...]))
                )
            case .ed25519:
                let key = Curve25519.Signing.PrivateKey()
                return (Array(key.rawRepresentation), .ed25519(raw: Array(key.publicKey.rawRepresentation)))
            case .rsa(let bits):
                let attributes: [CFString: Any] = [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: bits]
                guard let key = SecKeyCreateRandomKey(attributes as CFDictionary, nil),
                    let privateDER = SecKeyCopyExternalRepresentation(key, nil) as Data?,
                    let publicKey = SecKeyCopyPublicKey(key),
                    let publicDER = SecKeyCopyExternalRepresentation(publicKey, nil) as Data?,
                    let integers = twoIntegers(Array(publicDER))
                else { throw TestSignerError("RSA key generation failed") }
                return (Array(privateDER), .rsa(modulus: integers.0, exponent: integers.1))
            }
        }

        static func sign(
            _ message: [UInt8], algorithm: SignatureAlgorithm, keyType: TestSigner.KeyType, privateKey: [UInt8]
        ) throws(TestSignerError) -> [UInt8] {
            do {
                switch keyType {
                case .p256:
                    return Array(
                        try P256.Signing.PrivateKey(rawRepresentation: privateKey).signature(for: Data(message))
                            .rawRepresentation)
                case .p384:
                    return Array(
                        try P384.Signing.PrivateKey(rawRepresentation: privateKey).signature(for: Data(message))
                            .rawRepresentation)
                case .ed25519:
                    return Array(
                        try Curve25519.Signing.PrivateKey(rawRepresentation: privateKey).signature(for: Data(message)))
                case .rsa:
                    let attributes: [CFString: Any] = [
                        kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: kSecAttrKeyClassPrivate,
                    ]
                    guard let key = SecKeyCreateWithData(Data(privateKey) as CFData, attributes as CFDictionary, nil),
                        let signature = SecKeyCreateSignature(
                            key, secAlgorithm(algorithm), Data(message) as CFData, nil) as Data?
                    else { throw TestSignerError("RSA signing failed") }
                    return Array(signature)
                }
            } catch let error as TestSignerError {
                throw error
            } catch {
                throw TestSignerError("signing failed: \(error)")
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

        /// Reads `SEQUENCE { INTEGER, INTEGER }` (PKCS #1 `RSAPublicKey`), without leading zero bytes.
        private static func twoIntegers(_ der: [UInt8]) -> ([UInt8], [UInt8])? {
            var index = 0
            func readLength() -> Int? {
                guard index < der.count else { return nil }
                let first = Int(der[index])
                index += 1
                if first < 0x80 { return first }
                let count = first & 0x7F
                guard count <= 4, index + count <= der.count else { return nil }
                var value = 0
                for _ in 0..<count {
                    value = value << 8 | Int(der[index])
                    index += 1
                }
                return value
            }
            func readInteger() -> [UInt8]? {
                guard index < der.count, der[index] == 0x02 else { return nil }
                index += 1
                guard let length = readLength(), index + length <= der.count else { return nil }
                defer { index += length }
                return Array(der[index..<index + length].drop { $0 == 0 })
            }
            guard der.first == 0x30 else { return nil }
            index = 1
            guard readLength() != nil, let modulus = readInteger(), let exponent = readInteger() else { return nil }
            return (modulus, exponent)
        }
    }
#endif
