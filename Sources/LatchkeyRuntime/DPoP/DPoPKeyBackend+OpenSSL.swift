import LatchkeyTokens

#if !canImport(CryptoKit)
    import CLatchkeyCrypto
    import LatchkeyPlatform

    /// ``DPoPKey``'s libcrypto backend: P-256 keys as DER, ECDSA signatures converted to JWS `r || s`. There is no
    /// Secure Enclave here: a stored ``DPoPKeyKind/secureEnclave`` key is no key.
    enum DPoPKeyBackend {
        static var secureEnclaveAvailable: Bool { false }

        static func generate(_ kind: DPoPKeyKind) throws(AuthError) -> DPoPKey {
            guard kind == .software else { throw failure("has no Secure Enclave") }
            defer { ERR_clear_error() }
            guard let context = EVP_PKEY_CTX_new_from_name(nil, latchkey_name_ec, nil) else {
                throw failure("cannot make a key context")
            }
            defer { EVP_PKEY_CTX_free(context) }
            guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, latchkey_group_p256) == 1
            else { throw failure("refused the P-256 key parameters") }
            var made: OpaquePointer?
            guard EVP_PKEY_generate(context, &made) == 1, let key = made else { throw failure("made no key") }
            let signer = DPoPSigner(key)
            var der: UnsafeMutablePointer<UInt8>?
            let length = i2d_PrivateKey(key, &der)
            guard length > 0, let der else { throw failure("cannot encode the key") }
            defer { latchkey_openssl_free(der) }
            let privateKey = Array(UnsafeBufferPointer(start: der, count: Int(length)))
            guard let (x, y) = coordinates(of: key) else { throw failure("cannot read the public key") }
            return DPoPKey(kind: .software, privateKey: privateKey, x: x, y: y, signer: signer)
        }

        static func load(kind: DPoPKeyKind, privateKey: [UInt8]) -> DPoPKey? {
            guard kind == .software else { return nil }
            defer { ERR_clear_error() }
            let parsed: OpaquePointer? = privateKey.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
            }
            guard let parsed else { return nil }
            let signer = DPoPSigner(parsed)
            guard let (x, y) = coordinates(of: parsed) else { return nil }
            return DPoPKey(kind: .software, privateKey: privateKey, x: x, y: y, signer: signer)
        }

        private static func coordinates(of key: OpaquePointer) -> ([UInt8], [UInt8])? {
            guard let x = coordinate(key, latchkey_param_ec_pub_x), let y = coordinate(key, latchkey_param_ec_pub_y)
            else { return nil }
            return (x, y)
        }

        private static func coordinate(_ key: OpaquePointer, _ name: UnsafePointer<CChar>) -> [UInt8]? {
            var number: OpaquePointer?
            guard EVP_PKEY_get_bn_param(key, name, &number) == 1, let number else { return nil }
            defer { BN_free(number) }
            var bytes = [UInt8](repeating: 0, count: 32)
            guard bytes.withUnsafeMutableBufferPointer({ BN_bn2binpad(number, $0.baseAddress, 32) }) == 32 else {
                return nil
            }
            return bytes
        }

        static func failure(_ what: String) -> AuthError {
            AuthError(.invalidConfiguration, "DPoP key: libcrypto \(what).")
        }
    }
#endif
