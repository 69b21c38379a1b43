import Foundation

#if canImport(CryptoKit)
    import CryptoKit
#else
    import CLatchkeyCrypto
#endif

/// The SHA-2 digests PKCE, JOSE algorithms and store file names use, from the platform's crypto library
/// (libcrypto on Linux, CryptoKit on Apple platforms).
///
/// Package-internal, and named so that it never collides with CryptoKit's `SHA256`, `SHA384` and `SHA512`,
/// which an app importing both `Latchkey` and `CryptoKit` writes unqualified (a Sign in with Apple nonce).
package enum SHA2Hash {
    /// A SHA-2 function.
    package enum Function: Int, Sendable, CaseIterable {
        /// SHA-256 (32-byte digest).
        case sha256 = 32
        /// SHA-384 (48-byte digest).
        case sha384 = 48
        /// SHA-512 (64-byte digest).
        case sha512 = 64

        /// The digest length in bytes.
        package var byteCount: Int { rawValue }
    }

    /// Hashes bytes with SHA-256.
    /// - Parameter bytes: The input.
    /// - Returns: The 32-byte digest.
    package static func sha256(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        hash(bytes, with: .sha256)
    }

    /// Hashes bytes.
    /// - Parameters:
    ///   - bytes: The input.
    ///   - function: The SHA-2 function.
    /// - Returns: The digest.
    package static func hash(_ bytes: some Sequence<UInt8>, with function: Function) -> [UInt8] {
        let input = Array(bytes)
        #if canImport(CryptoKit)
            switch function {
            case .sha256: return Array(CryptoKit.SHA256.hash(data: input))
            case .sha384: return Array(CryptoKit.SHA384.hash(data: input))
            case .sha512: return Array(CryptoKit.SHA512.hash(data: input))
            }
        #else
            let digest =
                switch function {
                case .sha256: EVP_sha256()
                case .sha384: EVP_sha384()
                case .sha512: EVP_sha512()
                }
            var output = [UInt8](repeating: 0, count: function.byteCount)
            var length: UInt32 = 0
            let status = input.withUnsafeBytes { inputBuffer in
                output.withUnsafeMutableBufferPointer { outputBuffer in
                    EVP_Digest(
                        inputBuffer.baseAddress, inputBuffer.count, outputBuffer.baseAddress, &length, digest, nil)
                }
            }
            // EVP_Digest only fails when the library itself is broken (allocation failure).
            precondition(status == 1 && length == UInt32(function.byteCount), "libcrypto SHA-2 failed")
            return output
        #endif
    }
}
