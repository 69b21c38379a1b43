extension JWSToken {
    /// The header's `alg` as an algorithm Latchkey verifies, if it is allowed.
    ///
    /// `none` is always refused, and so is HMAC (`HS256`, `HS384`, `HS512`): a public client holds no
    /// shared secret, and an HMAC "verified" with a public key is a classic forgery.
    /// - Parameter allowed: The algorithms the caller accepts.
    /// - Returns: The algorithm.
    /// - Throws: ``AuthError`` with the token's failure code when the algorithm is refused.
    public func signatureAlgorithm(allowed: Set<SignatureAlgorithm>) throws(AuthError) -> SignatureAlgorithm {
        let name = header.algorithm
        if name.lowercased() == "none" {
            throw AuthError(failureCode, "alg “none” (an unsigned token) is always refused")
        }
        if name.uppercased().hasPrefix("HS") {
            throw AuthError(
                failureCode,
                "alg \(MessageText.quoted(name)) (HMAC) is refused: a public client has no shared secret to verify it")
        }
        guard let algorithm = SignatureAlgorithm(rawValue: name) else {
            throw AuthError(failureCode, "alg \(MessageText.quoted(name)) is not supported")
        }
        guard allowed.contains(algorithm) else {
            let list = allowed.map(\.rawValue).sorted().joined(separator: ", ")
            throw AuthError(
                failureCode, "alg \(name) is not allowed (allowed: \(list.isEmpty ? "none configured" : list))")
        }
        return algorithm
    }

    /// Verifies the signature with the key the header selects from a key set.
    ///
    /// With a `kid`, the keys with that `kid` are candidates; without one, every key suitable for the
    /// algorithm is tried in document order and the first that verifies is taken (OpenID Connect Core
    /// §10.1: a `kid` is only required to tell keys apart, and trying each is what a relying party may do).
    /// The key's type (and curve) must fit the algorithm and, when the JWK has an `alg`, it must be the
    /// token's.
    /// - Parameters:
    ///   - keys: The issuer's keys.
    ///   - allowedAlgorithms: The algorithms the caller accepts.
    /// - Returns: The key that verified the signature.
    /// - Throws: ``AuthError`` with the token's failure code when the algorithm is refused, no key fits,
    ///   the key is unusable, or the signature does not verify.
    @discardableResult
    public func verifySignature(
        keys: JSONWebKeySet, allowedAlgorithms: Set<SignatureAlgorithm>
    ) throws(AuthError) -> JSONWebKey {
        let algorithm = try signatureAlgorithm(allowed: allowedAlgorithms)
        for key in try candidateKeys(in: keys, for: algorithm) {
            let valid: Bool
            do {
                valid = try SignatureVerifier.verify(
                    algorithm: algorithm, key: key.material, message: signingInput, signature: signature)
            } catch {
                throw AuthError(failureCode, error.message)
            }
            if valid { return key }
        }
        throw AuthError(failureCode, "the \(algorithm.rawValue) signature does not verify with \(keyLabel)")
    }

    private var keyLabel: String {
        header.keyID.map { "the kid \(MessageText.quoted($0)) key" } ?? "any key that fits"
    }

    private func candidateKeys(
        in keySet: JSONWebKeySet, for algorithm: SignatureAlgorithm
    ) throws(AuthError) -> [JSONWebKey] {
        guard let keyID = header.keyID else {
            let suitable = keySet.keys.filter { $0.canVerify(algorithm) }
            guard !suitable.isEmpty else {
                throw AuthError(
                    failureCode, "the token has no kid and no key in the JWKS can verify \(algorithm.rawValue)")
            }
            return suitable
        }
        let named = keySet.keys(withID: keyID)
        guard !named.isEmpty else {
            throw AuthError(failureCode, "no key with kid \(MessageText.quoted(keyID)) in the JWKS")
        }
        let suitable = named.filter { $0.canVerify(algorithm) }
        guard !suitable.isEmpty else {
            let key = named[0]
            let reason =
                if let restriction = key.algorithm, JSONWebKey.keyTypeFits(key.material, algorithm) {
                    "the key is for \(restriction.rawValue)"
                } else {
                    "it is \(key.summary)"
                }
            throw AuthError(
                failureCode,
                "the key with kid \(MessageText.quoted(keyID)) cannot verify \(algorithm.rawValue): \(reason)")
        }
        return suitable
    }
}
