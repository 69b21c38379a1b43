#if !canImport(CryptoKit)
    import CLatchkeyCrypto

    /// Builds libcrypto `EVP_PKEY` public keys from JWK parameters.
    package enum OpenSSLPublicKey {
        /// Imports a public key; the caller frees it with `EVP_PKEY_free`.
        /// - Parameter material: The key parameters (already checked for length).
        /// - Returns: The key.
        /// - Throws: ``AuthError`` `invalid_token` when libcrypto rejects the key.
        package static func make(_ material: PublicKeyMaterial) throws(AuthError) -> OpaquePointer {
            let key: OpaquePointer?
            switch material {
            case .rsa(let modulus, let exponent):
                key = rsa(modulus: modulus, exponent: exponent)
            case .ec(let curve, let x, let y):
                key = ec(curve: curve, point: [0x04] + x + y)
            case .ed25519(let raw):
                key = raw.withUnsafeBufferPointer {
                    EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, $0.baseAddress, $0.count)
                }
            }
            guard let key else { throw AuthError(.invalidToken, "the public key is malformed") }
            return key
        }

        private static func rsa(modulus: [UInt8], exponent: [UInt8]) -> OpaquePointer? {
            let n = modulus.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
            defer { BN_free(n) }
            let e = exponent.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, Int32($0.count), nil) }
            defer { BN_free(e) }
            guard let n, let e else { return nil }
            return fromData(type: latchkey_name_rsa) { builder in
                OSSL_PARAM_BLD_push_BN(builder, latchkey_param_rsa_n, n) == 1
                    && OSSL_PARAM_BLD_push_BN(builder, latchkey_param_rsa_e, e) == 1
            }
        }

        private static func ec(curve: String, point: [UInt8]) -> OpaquePointer? {
            let group: UnsafePointer<CChar>
            switch curve {
            case "P-256": group = latchkey_group_p256
            case "P-384": group = latchkey_group_p384
            default: return nil
            }
            // The builder keeps the point's pointer until it builds the parameters, so both happen here.
            return point.withUnsafeBufferPointer { pointBuffer in
                fromData(type: latchkey_name_ec) { builder in
                    OSSL_PARAM_BLD_push_utf8_string(builder, latchkey_param_group_name, group, 0) == 1
                        && OSSL_PARAM_BLD_push_octet_string(
                            builder, latchkey_param_pub_key, pointBuffer.baseAddress, pointBuffer.count) == 1
                }
            }
        }

        /// Runs `EVP_PKEY_fromdata` with the parameters `push` adds to a builder.
        private static func fromData(
            type: UnsafePointer<CChar>, push: (OpaquePointer) -> Bool
        ) -> OpaquePointer? {
            guard let builder = OSSL_PARAM_BLD_new() else { return nil }
            defer { OSSL_PARAM_BLD_free(builder) }
            guard push(builder), let params = OSSL_PARAM_BLD_to_param(builder) else { return nil }
            defer { OSSL_PARAM_free(params) }
            guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else { return nil }
            defer { EVP_PKEY_CTX_free(context) }
            guard EVP_PKEY_fromdata_init(context) == 1 else { return nil }
            var key: OpaquePointer?
            guard EVP_PKEY_fromdata(context, &key, latchkey_selection_public_key, params) == 1 else { return nil }
            return key
        }
    }
#endif
