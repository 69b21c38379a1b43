#if canImport(CryptoKit)
    import CryptoKit
    import Foundation

    /// ``DPoPKey``'s CryptoKit backend: `P256.Signing` keys as their raw scalar.
    enum DPoPKeyBackend {
        static func generate() throws(AuthError) -> DPoPKey {
            make(P256.Signing.PrivateKey())
        }

        static func load(privateKey: [UInt8]) -> DPoPKey? {
            (try? P256.Signing.PrivateKey(rawRepresentation: privateKey)).map(make)
        }

        static func sign(_ message: [UInt8], privateKey: [UInt8]) throws(AuthError) -> [UInt8] {
            guard let key = try? P256.Signing.PrivateKey(rawRepresentation: privateKey),
                let signature = try? key.signature(for: Data(message))
            else { throw AuthError(.invalidConfiguration, "DPoP key: CryptoKit could not sign.") }
            return Array(signature.rawRepresentation)
        }

        private static func make(_ key: P256.Signing.PrivateKey) -> DPoPKey {
            let point = Array(key.publicKey.rawRepresentation)
            return DPoPKey(privateKey: Array(key.rawRepresentation), x: Array(point[..<32]), y: Array(point[32...]))
        }
    }
#endif
