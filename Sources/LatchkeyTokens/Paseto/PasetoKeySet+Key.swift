extension PasetoKeySet {
    /// One trusted `v4.public` key.
    public struct Key: Sendable, Hashable {
        /// The key ID tokens name in their footer's `kid`.
        public let keyID: String
        /// The raw 32-byte Ed25519 public key.
        public let publicKey: [UInt8]
        /// The implicit assertion tokens under this key are signed with (empty for none).
        public let implicitAssertion: [UInt8]

        /// The length of a raw Ed25519 public key.
        public static let publicKeyByteCount = 32

        /// Creates a key.
        /// - Parameters:
        ///   - keyID: The key ID; not empty.
        ///   - publicKey: The raw 32-byte Ed25519 public key.
        ///   - implicitAssertion: The implicit assertion for this key's tokens.
        /// - Throws: ``AuthError`` `invalid_configuration` when the key ID is empty or the key is not 32 bytes.
        public init(keyID: String, publicKey: [UInt8], implicitAssertion: [UInt8] = []) throws(AuthError) {
            guard !keyID.isEmpty else {
                throw AuthError(.invalidConfiguration, "a PASETO key ID must not be empty")
            }
            guard publicKey.count == Self.publicKeyByteCount else {
                throw AuthError(
                    .invalidConfiguration,
                    "PASETO key \"\(keyID)\" is \(publicKey.count) bytes; an Ed25519 public key is 32")
            }
            self.keyID = keyID
            self.publicKey = publicKey
            self.implicitAssertion = implicitAssertion
        }
    }
}
