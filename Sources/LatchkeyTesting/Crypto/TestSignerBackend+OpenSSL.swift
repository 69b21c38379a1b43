import LatchkeyTokens

#if !canImport(CryptoKit)
    import CLatchkeyCrypto
    import LatchkeyRuntime

    /// ``TestSigner``'s libcrypto backend. Private keys travel as DER so that the signer stays a value type.
    enum TestSignerBackend {
        static func generate(
            _ keyType: TestSigner.KeyType
        ) throws(TestSignerError) -> (privateKey: [UInt8], publicKey: PublicKeyMaterial) {
            defer { ERR_clear_error() }
            let key = try makeKey(keyType)
            defer { EVP_PKEY_free(key) }

            var der: UnsafeMutablePointer<UInt8>?
            let length = i2d_PrivateKey(key, &der)
            guard length > 0, let der else { throw TestSignerError("i2d_PrivateKey failed") }
            defer { latchkey_openssl_free(der) }
            let privateKey = Array(UnsafeBufferPointer(start: der, count: Int(length)))
            return (privateKey, try publicKey(of: key, keyType: keyType))
        }

        static func sign(
            _ message: [UInt8], algorithm: SignatureAlgorithm, keyType: TestSigner.KeyType, privateKey: [UInt8]
        ) throws(TestSignerError) -> [UInt8] {
            defer { ERR_clear_error() }
            let key: OpaquePointer? = privateKey.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
            }
            guard let key else { throw TestSignerError("d2i_AutoPrivateKey failed") }
            defer { EVP_PKEY_free(key) }
            guard let context = EVP_MD_CTX_new() else { throw TestSignerError("EVP_MD_CTX_new failed") }
            defer { EVP_MD_CTX_free(context) }

            var keyContext: OpaquePointer?
            guard EVP_DigestSignInit(context, &keyContext, digest(for: algorithm), nil, key) == 1 else {
                throw TestSignerError("EVP_DigestSignInit failed")
            }
            if algorithm.isPSS {
                guard EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PSS_PADDING) == 1,
                    EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, Int32(algorithm.digestByteCount)) == 1
                else { throw TestSignerError("RSA-PSS parameters refused") }
            }
            var length = 0
            let sized = message.withUnsafeBufferPointer {
                EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count)
            }
            guard sized == 1 else { throw TestSignerError("EVP_DigestSign failed") }
            var signature = [UInt8](repeating: 0, count: length)
            let signed = message.withUnsafeBufferPointer { messageBuffer in
                signature.withUnsafeMutableBufferPointer {
                    EVP_DigestSign(context, $0.baseAddress, &length, messageBuffer.baseAddress, messageBuffer.count)
                }
            }
            guard signed == 1 else { throw TestSignerError("EVP_DigestSign failed") }
            signature.removeLast(signature.count - length)

            switch keyType {
            case .p256: return try rawECDSA(der: signature, coordinateSize: 32)
            case .p384: return try rawECDSA(der: signature, coordinateSize: 48)
            case .rsa, .ed25519: return signature
            }
        }

        private static func makeKey(_ keyType: TestSigner.KeyType) throws(TestSignerError) -> OpaquePointer {
            let name: UnsafePointer<CChar>
            switch keyType {
            case .rsa: name = latchkey_name_rsa
            case .p256, .p384: name = latchkey_name_ec
            case .ed25519: name = latchkey_name_ed25519
            }
            guard let context = EVP_PKEY_CTX_new_from_name(nil, name, nil) else {
                throw TestSignerError("EVP_PKEY_CTX_new_from_name failed")
            }
            defer { EVP_PKEY_CTX_free(context) }
            guard EVP_PKEY_keygen_init(context) == 1 else { throw TestSignerError("EVP_PKEY_keygen_init failed") }
            let configured: Bool
            switch keyType {
            case .rsa(let bits): configured = EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1
            case .p256: configured = EVP_PKEY_CTX_set_group_name(context, latchkey_group_p256) == 1
            case .p384: configured = EVP_PKEY_CTX_set_group_name(context, latchkey_group_p384) == 1
            case .ed25519: configured = true
            }
            guard configured else { throw TestSignerError("key generation parameters refused") }
            var key: OpaquePointer?
            guard EVP_PKEY_generate(context, &key) == 1, let key else {
                throw TestSignerError("EVP_PKEY_generate failed")
            }
            return key
        }

        private static func publicKey(
            of key: OpaquePointer, keyType: TestSigner.KeyType
        ) throws(TestSignerError) -> PublicKeyMaterial {
            switch keyType {
            case .rsa:
                return .rsa(
                    modulus: try bigNumber(key, latchkey_param_rsa_n, size: nil),
                    exponent: try bigNumber(key, latchkey_param_rsa_e, size: nil))
            case .p256, .p384:
                let size = keyType == .p256 ? 32 : 48
                return .ec(
                    curve: keyType == .p256 ? "P-256" : "P-384",
                    x: try bigNumber(key, latchkey_param_ec_pub_x, size: size),
                    y: try bigNumber(key, latchkey_param_ec_pub_y, size: size))
            case .ed25519:
                var raw = [UInt8](repeating: 0, count: 32)
                var length = raw.count
                guard
                    raw.withUnsafeMutableBufferPointer({ EVP_PKEY_get_raw_public_key(key, $0.baseAddress, &length) })
                        == 1, length == 32
                else { throw TestSignerError("EVP_PKEY_get_raw_public_key failed") }
                return .ed25519(raw: raw)
            }
        }

        /// Reads a big-number parameter, left-padded to `size` bytes when given.
        private static func bigNumber(
            _ key: OpaquePointer, _ name: UnsafePointer<CChar>, size: Int?
        ) throws(TestSignerError) -> [UInt8] {
            var number: OpaquePointer?
            guard EVP_PKEY_get_bn_param(key, name, &number) == 1, let number else {
                throw TestSignerError("EVP_PKEY_get_bn_param failed")
            }
            defer { BN_free(number) }
            let count = size ?? Int(latchkey_bn_num_bytes(number))
            var bytes = [UInt8](repeating: 0, count: count)
            guard bytes.withUnsafeMutableBufferPointer({ BN_bn2binpad(number, $0.baseAddress, Int32(count)) }) == count
            else { throw TestSignerError("BN_bn2binpad failed") }
            return bytes
        }

        /// Converts a DER `ECDSA-Sig-Value` into JWS `r || s`.
        private static func rawECDSA(der: [UInt8], coordinateSize: Int) throws(TestSignerError) -> [UInt8] {
            let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
            }
            guard let signature else { throw TestSignerError("d2i_ECDSA_SIG failed") }
            defer { ECDSA_SIG_free(signature) }
            var raw = [UInt8](repeating: 0, count: 2 * coordinateSize)
            let size = Int32(coordinateSize)
            let ok = raw.withUnsafeMutableBufferPointer { buffer in
                BN_bn2binpad(ECDSA_SIG_get0_r(signature), buffer.baseAddress, size) == size
                    && BN_bn2binpad(ECDSA_SIG_get0_s(signature), buffer.baseAddress! + coordinateSize, size) == size
            }
            guard ok else { throw TestSignerError("ECDSA signature conversion failed") }
            return raw
        }

        private static func digest(for algorithm: SignatureAlgorithm) -> OpaquePointer? {
            switch algorithm {
            case .rs256, .ps256, .es256: EVP_sha256()
            case .rs384, .ps384, .es384: EVP_sha384()
            case .rs512, .ps512: EVP_sha512()
            case .edDSA: nil
            }
        }
    }
#endif
