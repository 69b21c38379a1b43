#if !canImport(CryptoKit)
    import CLatchkeyCrypto
    import LatchkeyPlatform

    /// ``DPoPKey``'s libcrypto backend: P-256 keys as DER, ECDSA signatures converted to JWS `r || s`.
    enum DPoPKeyBackend {
        static func generate() throws(AuthError) -> DPoPKey {
            defer { ERR_clear_error() }
            guard let context = EVP_PKEY_CTX_new_from_name(nil, latchkey_name_ec, nil) else {
                throw failure("cannot make a key context")
            }
            defer { EVP_PKEY_CTX_free(context) }
            guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, latchkey_group_p256) == 1
            else { throw failure("refused the P-256 key parameters") }
            var made: OpaquePointer?
            guard EVP_PKEY_generate(context, &made) == 1, let key = made else { throw failure("made no key") }
            defer { EVP_PKEY_free(key) }
            var der: UnsafeMutablePointer<UInt8>?
            let length = i2d_PrivateKey(key, &der)
            guard length > 0, let der else { throw failure("cannot encode the key") }
            defer { latchkey_openssl_free(der) }
            let privateKey = Array(UnsafeBufferPointer(start: der, count: Int(length)))
            guard let (x, y) = coordinates(of: key) else { throw failure("cannot read the public key") }
            return DPoPKey(privateKey: privateKey, x: x, y: y)
        }

        static func load(privateKey: [UInt8]) -> DPoPKey? {
            defer { ERR_clear_error() }
            guard let key = parse(privateKey) else { return nil }
            defer { EVP_PKEY_free(key) }
            guard let (x, y) = coordinates(of: key) else { return nil }
            return DPoPKey(privateKey: privateKey, x: x, y: y)
        }

        static func sign(_ message: [UInt8], privateKey: [UInt8]) throws(AuthError) -> [UInt8] {
            defer { ERR_clear_error() }
            guard let parsed = parsedKey(privateKey) else { throw failure("cannot read the key") }
            guard let context = EVP_MD_CTX_new() else { throw failure("cannot make a digest context") }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, parsed.pointer) == 1 else {
                throw failure("cannot sign with the key")
            }
            // A P-256 ECDSA-Sig-Value is at most 72 bytes.
            var der = [UInt8](repeating: 0, count: 80)
            var length = der.count
            let signed = message.withUnsafeBufferPointer { input in
                der.withUnsafeMutableBufferPointer {
                    EVP_DigestSign(context, $0.baseAddress, &length, input.baseAddress, input.count)
                }
            }
            guard signed == 1 else { throw failure("signing failed") }
            guard let raw = rawSignature(der: Array(der[..<length])) else { throw failure("bad signature encoding") }
            return raw
        }

        /// A parsed key, freed when the last signer using it is done.
        private final class ParsedKey: @unchecked Sendable {
            // Safe to share: an EVP_PKEY is not changed after it is made, and OpenSSL 3 allows concurrent
            // signing with one key through separate EVP_MD_CTX values.
            let pointer: OpaquePointer
            init(_ pointer: OpaquePointer) { self.pointer = pointer }
            deinit { EVP_PKEY_free(pointer) }
        }

        /// The keys parsed most recently (a handful of sessions at a time): OpenSSL 3's decoder
        /// (`d2i_AutoPrivateKey`) costs several times the signature itself, and a session signs every request
        /// with the same key.
        private static let recentKeys = Locked<[(der: [UInt8], key: ParsedKey)]>([])
        private static let recentKeyLimit = 8

        private static func parsedKey(_ der: [UInt8]) -> ParsedKey? {
            if let hit = recentKeys.withLock({ keys in keys.first { $0.der == der }?.key }) { return hit }
            guard let pointer = parse(der) else { return nil }
            let key = ParsedKey(pointer)
            recentKeys.withLock { keys in
                keys.append((der, key))
                if keys.count > recentKeyLimit { keys.removeFirst() }
            }
            return key
        }

        private static func parse(_ der: [UInt8]) -> OpaquePointer? {
            der.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
            }
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

        /// A DER `ECDSA-Sig-Value` as JWS `r || s`.
        private static func rawSignature(der: [UInt8]) -> [UInt8]? {
            let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
            }
            guard let signature else { return nil }
            defer { ECDSA_SIG_free(signature) }
            var raw = [UInt8](repeating: 0, count: 64)
            let converted = raw.withUnsafeMutableBufferPointer { buffer in
                BN_bn2binpad(ECDSA_SIG_get0_r(signature), buffer.baseAddress, 32) == 32
                    && BN_bn2binpad(ECDSA_SIG_get0_s(signature), buffer.baseAddress! + 32, 32) == 32
            }
            return converted ? raw : nil
        }

        private static func failure(_ what: String) -> AuthError {
            AuthError(.invalidConfiguration, "DPoP key: libcrypto \(what).")
        }
    }
#endif
