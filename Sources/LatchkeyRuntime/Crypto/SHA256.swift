import Foundation

#if canImport(CryptoKit)
    import CryptoKit
#else
    import CLatchkeyCrypto
#endif

/// SHA-256 from the platform's crypto library (libcrypto on Linux, CryptoKit on Apple platforms).
public enum SHA256 {
    /// The digest length in bytes.
    public static let byteCount = 32

    /// Hashes bytes.
    /// - Parameter bytes: The input.
    /// - Returns: The 32-byte digest.
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        digest(Array(bytes))
    }

    /// Hashes data.
    /// - Parameter data: The input.
    /// - Returns: The 32-byte digest.
    public static func hash(_ data: Data) -> [UInt8] {
        digest(Array(data))
    }

    private static func digest(_ input: [UInt8]) -> [UInt8] {
        #if canImport(CryptoKit)
            return Array(CryptoKit.SHA256.hash(data: input))
        #else
            var output = [UInt8](repeating: 0, count: byteCount)
            var length: UInt32 = 0
            let status = input.withUnsafeBytes { inputBuffer in
                output.withUnsafeMutableBufferPointer { outputBuffer in
                    EVP_Digest(
                        inputBuffer.baseAddress, inputBuffer.count, outputBuffer.baseAddress, &length, EVP_sha256(), nil
                    )
                }
            }
            // EVP_Digest only fails when the library itself is broken (allocation failure).
            precondition(status == 1 && length == UInt32(byteCount), "libcrypto SHA-256 failed")
            return output
        #endif
    }
}
