#if !canImport(CryptoKit)
    import CLatchkeyCrypto

    /// Signature verification through libcrypto (OpenSSL 3).
    package enum PlatformVerifier {
        package static func verify(
            algorithm: SignatureAlgorithm, key: PublicKeyMaterial, message: [UInt8], signature: [UInt8]
        ) throws(AuthError) -> Bool {
            defer { ERR_clear_error() }
            let pkey = try OpenSSLPublicKey.make(key)
            defer { EVP_PKEY_free(pkey) }

            var derSignature: [UInt8]
            if case .ec = key {
                guard let der = ecdsaDER(rawSignature: signature) else { return false }
                derSignature = der
            } else {
                derSignature = signature
            }

            guard let context = EVP_MD_CTX_new() else { throw AuthError(.invalidToken, "libcrypto allocation failed") }
            defer { EVP_MD_CTX_free(context) }
            var keyContext: OpaquePointer?
            guard EVP_DigestVerifyInit(context, &keyContext, digest(for: algorithm), nil, pkey) == 1 else {
                throw AuthError(.invalidToken, "the key cannot verify \(algorithm.rawValue) signatures")
            }
            if algorithm.isPSS {
                guard EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PSS_PADDING) == 1,
                    EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, Int32(algorithm.digestByteCount)) == 1
                else {
                    throw AuthError(.invalidToken, "libcrypto refused the RSA-PSS parameters")
                }
            }
            let status = message.withUnsafeBufferPointer { messageBuffer in
                derSignature.withUnsafeMutableBufferPointer { signatureBuffer in
                    EVP_DigestVerify(
                        context, signatureBuffer.baseAddress, signatureBuffer.count, messageBuffer.baseAddress,
                        messageBuffer.count)
                }
            }
            return status == 1
        }

        private static func digest(for algorithm: SignatureAlgorithm) -> OpaquePointer? {
            switch algorithm {
            case .rs256, .ps256, .es256: EVP_sha256()
            case .rs384, .ps384, .es384: EVP_sha384()
            case .rs512, .ps512: EVP_sha512()
            case .edDSA: nil
            }
        }

        /// Converts a JWS `r || s` signature into the DER `ECDSA-Sig-Value` libcrypto verifies.
        private static func ecdsaDER(rawSignature: [UInt8]) -> [UInt8]? {
            let half = rawSignature.count / 2
            guard half > 0, rawSignature.count == 2 * half else { return nil }
            guard let signature = ECDSA_SIG_new() else { return nil }
            defer { ECDSA_SIG_free(signature) }
            let r = rawSignature.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32(half), nil) }
            let s = rawSignature.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + half, Int32(half), nil) }
            guard let r, let s else {
                BN_free(r)
                BN_free(s)
                return nil
            }
            guard ECDSA_SIG_set0(signature, r, s) == 1 else {
                BN_free(r)
                BN_free(s)
                return nil
            }
            var output: UnsafeMutablePointer<UInt8>?
            let length = i2d_ECDSA_SIG(signature, &output)
            guard length > 0, let output else { return nil }
            defer { latchkey_openssl_free(output) }
            return Array(UnsafeBufferPointer(start: output, count: Int(length)))
        }
    }
#endif
