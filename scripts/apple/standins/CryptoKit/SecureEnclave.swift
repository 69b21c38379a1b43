// Stand-in for CryptoKit: the Secure Enclave's P-256 signing keys (iOS 13, macOS 10.15). Apple's initialisers also
// take an `accessControl: SecAccessControl` (default: after first unlock, this device only) and an
// `authenticationContext: LAContext?` (default nil); Latchkey passes neither, so they are left out here.

import Foundation

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public enum SecureEnclave {
    /// Whether the device has a Secure Enclave (false in the Simulator).
    public static var isAvailable: Bool { fatalError("stand-in") }

    public enum P256 {
        public enum Signing {
            public struct PrivateKey: Sendable {
                @available(watchOS 9.0, *)
                public init(compactRepresentable: Bool = true) throws { fatalError("stand-in") }
                @available(watchOS 9.0, *)
                public init(dataRepresentation: Data) throws { fatalError("stand-in") }
                public var publicKey: CryptoKit.P256.Signing.PublicKey { fatalError("stand-in") }
                public var dataRepresentation: Data { fatalError("stand-in") }
                public func signature<D: DataProtocol>(for data: D) throws -> CryptoKit.P256.Signing.ECDSASignature {
                    fatalError("stand-in")
                }
            }
        }
    }
}
