import LatchkeyTokens

#if canImport(CryptoKit)
    import CryptoKit
    import Foundation

    /// ``DPoPKey``'s CryptoKit backend: `SecureEnclave.P256.Signing` keys (stored as their opaque
    /// `dataRepresentation`) where the device has a Secure Enclave, `P256.Signing` keys (stored as their raw
    /// scalar) otherwise. Which kind to make and how it is stored is ``DPoPKeyKind``'s.
    enum DPoPKeyBackend {
        static var secureEnclaveAvailable: Bool {
            #if os(tvOS)
                false
            #else
                if #available(watchOS 9, *) { SecureEnclave.isAvailable } else { false }
            #endif
        }

        static func generate(_ kind: DPoPKeyKind) throws(AuthError) -> DPoPKey {
            switch kind {
            case .software:
                return make(.software(P256.Signing.PrivateKey()))
            case .secureEnclave:
                #if !os(tvOS)
                    // The default access control: usable after the first unlock, on this device only (as the
                    // keychain store's items), with no user presence asked for each proof.
                    if #available(watchOS 9, *), let key = try? SecureEnclave.P256.Signing.PrivateKey() {
                        return make(.secureEnclave(key))
                    }
                #endif
                throw AuthError(.invalidConfiguration, "DPoP key: the Secure Enclave made no key.")
            }
        }

        static func load(kind: DPoPKeyKind, privateKey: [UInt8]) -> DPoPKey? {
            switch kind {
            case .software:
                return (try? P256.Signing.PrivateKey(rawRepresentation: privateKey)).map { make(.software($0)) }
            case .secureEnclave:
                #if !os(tvOS)
                    // Another device's (or a wiped enclave's) handle does not open: no key.
                    if #available(watchOS 9, *),
                        let key = try? SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: Data(privateKey))
                    {
                        return make(.secureEnclave(key))
                    }
                #endif
                return nil
            }
        }

        private static func make(_ key: DPoPSigner.Key) -> DPoPKey {
            let point = Array(key.publicKey.rawRepresentation)
            return DPoPKey(
                kind: key.kind, privateKey: key.storedBytes, x: Array(point[..<32]), y: Array(point[32...]),
                signer: DPoPSigner(key))
        }
    }

    /// A CryptoKit P-256 key, ready to sign.
    final class DPoPSigner: @unchecked Sendable {
        // Safe to share: CryptoKit's keys are immutable values, and signing with one is thread-safe.
        enum Key {
            case software(P256.Signing.PrivateKey)
            #if !os(tvOS)
                case secureEnclave(SecureEnclave.P256.Signing.PrivateKey)
            #endif
        }

        private let key: Key

        init(_ key: Key) {
            self.key = key
        }

        /// Signs `message` with ES256.
        /// - Returns: The JWS signature, `r || s` (64 bytes).
        func sign(_ message: [UInt8]) throws(AuthError) -> [UInt8] {
            do {
                switch key {
                case .software(let key): return Array(try key.signature(for: message).rawRepresentation)
                #if !os(tvOS)
                    case .secureEnclave(let key): return Array(try key.signature(for: message).rawRepresentation)
                #endif
                }
            } catch {
                throw AuthError(.invalidConfiguration, "DPoP key: CryptoKit could not sign.")
            }
        }
    }

    extension DPoPSigner.Key {
        var kind: DPoPKeyKind {
            switch self {
            case .software: .software
            #if !os(tvOS)
                case .secureEnclave: .secureEnclave
            #endif
            }
        }

        var publicKey: P256.Signing.PublicKey {
            switch self {
            case .software(let key): key.publicKey
            #if !os(tvOS)
                case .secureEnclave(let key): key.publicKey
            #endif
            }
        }

        var storedBytes: [UInt8] {
            switch self {
            case .software(let key): Array(key.rawRepresentation)
            #if !os(tvOS)
                case .secureEnclave(let key): Array(key.dataRepresentation)
            #endif
            }
        }
    }
#endif
