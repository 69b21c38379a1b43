import LatchkeyTokens

#if !canImport(CryptoKit)
    import CLatchkeyCrypto
    import LatchkeyPlatform

    /// A parsed libcrypto P-256 key, ready to sign, and the signing contexts it keeps between proofs.
    ///
    /// Each proof hashes its signing input with SHA-256 (the digest fetched once) and signs the digest with
    /// `EVP_PKEY_sign` on a context initialised for this key once and reused (OpenSSL allows repeated
    /// `EVP_PKEY_sign` calls on one initialised context): setting up a signing context per proof, as
    /// `EVP_DigestSignInit` does, was a third of a proof. A context serves one proof at a time: concurrent
    /// proofs of one session each take an idle context or make one.
    final class DPoPSigner: @unchecked Sendable {
        // Safe to share: the key is not changed after it is made, and each context is used by one thread at a
        // time (taken out of `idle` under its lock, put back after).
        private let key: OpaquePointer
        private let idle = Locked<[SigningContext]>([])
        private static let idleLimit = 4

        /// Takes ownership of `key` (frees it).
        init(_ key: OpaquePointer) {
            self.key = key
        }

        deinit {
            idle.withLock { contexts in
                for context in contexts { EVP_PKEY_CTX_free(context.pointer) }
                contexts.removeAll()
            }
            EVP_PKEY_free(key)
        }

        /// Signs `message` with ES256.
        /// - Returns: The JWS signature, `r || s` (64 bytes).
        func sign(_ message: [UInt8]) throws(AuthError) -> [UInt8] {
            var digest = [UInt8](repeating: 0, count: 32)
            var digestLength: UInt32 = 0
            let hashed = message.withUnsafeBufferPointer { input in
                digest.withUnsafeMutableBufferPointer { output in
                    EVP_Digest(
                        input.baseAddress, input.count, output.baseAddress, &digestLength, Self.sha256.pointer, nil)
                }
            }
            guard hashed == 1, digestLength == 32 else { throw failure("cannot hash the proof") }
            let context: SigningContext
            if let reused = idle.withLock({ $0.popLast() }) { context = reused } else { context = try makeContext() }
            // A P-256 ECDSA-Sig-Value is at most 72 bytes.
            var der = [UInt8](repeating: 0, count: 80)
            var length = der.count
            let signed = digest.withUnsafeBufferPointer { input in
                der.withUnsafeMutableBufferPointer {
                    EVP_PKEY_sign(context.pointer, $0.baseAddress, &length, input.baseAddress, input.count)
                }
            }
            guard signed == 1 else {
                EVP_PKEY_CTX_free(context.pointer)
                throw failure("signing failed")
            }
            let surplus: SigningContext? = idle.withLock { contexts in
                guard contexts.count < Self.idleLimit else { return context }
                contexts.append(context)
                return nil
            }
            if let surplus { EVP_PKEY_CTX_free(surplus.pointer) }
            guard let raw = Self.rawSignature(der: der, length: length) else {
                throw failure("bad signature encoding")
            }
            return raw
        }

        private func makeContext() throws(AuthError) -> SigningContext {
            guard let pointer = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else {
                throw failure("cannot make a signing context")
            }
            guard EVP_PKEY_sign_init(pointer) == 1 else {
                EVP_PKEY_CTX_free(pointer)
                throw failure("cannot sign with the key")
            }
            return SigningContext(pointer: pointer)
        }

        private func failure(_ what: String) -> AuthError {
            ERR_clear_error()
            return DPoPKeyBackend.failure(what)
        }

        /// A DER `ECDSA-Sig-Value` as JWS `r || s`.
        private static func rawSignature(der: [UInt8], length: Int) -> [UInt8]? {
            let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_ECDSA_SIG(nil, &cursor, length)
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

        /// An `EVP_PKEY_CTX` initialised for signing with the key.
        private struct SigningContext: @unchecked Sendable {
            // Moved between threads only through `idle`'s lock; used by one thread at a time.
            let pointer: OpaquePointer
        }

        /// SHA-256, fetched once (`EVP_sha256()` makes `EVP_Digest` fetch it from the provider on every call).
        private static let sha256 = FetchedDigest()

        private final class FetchedDigest: @unchecked Sendable {
            // Safe to share: a fetched EVP_MD is immutable and reference-counted by OpenSSL.
            let pointer: OpaquePointer?
            init() { pointer = EVP_MD_fetch(nil, "SHA256", nil) }
        }
    }
#endif
