// Stand-in for CryptoKit: signing keys and signatures (iOS 13, macOS 10.15). P256 and P384 have the same
// shape, written out for each curve.

import Foundation

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public enum P256 {
    public enum Signing {
        public struct PublicKey: Sendable {
            public init<D: ContiguousBytes>(rawRepresentation data: D) throws { fatalError("stand-in") }
            public var rawRepresentation: Data { fatalError("stand-in") }
            public func isValidSignature<D: DataProtocol>(_ signature: ECDSASignature, for data: D) -> Bool {
                fatalError("stand-in")
            }
        }

        public struct PrivateKey: Sendable {
            public init(compactRepresentable: Bool = true) { fatalError("stand-in") }
            public init<D: ContiguousBytes>(rawRepresentation data: D) throws { fatalError("stand-in") }
            public var rawRepresentation: Data { fatalError("stand-in") }
            public var publicKey: PublicKey { fatalError("stand-in") }
            public func signature<D: DataProtocol>(for data: D) throws -> ECDSASignature { fatalError("stand-in") }
        }

        public struct ECDSASignature: ContiguousBytes, Sendable {
            public init<D: DataProtocol>(rawRepresentation: D) throws { fatalError("stand-in") }
            public var rawRepresentation: Data { fatalError("stand-in") }
            public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
                fatalError("stand-in")
            }
        }
    }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public enum P384 {
    public enum Signing {
        public struct PublicKey: Sendable {
            public init<D: ContiguousBytes>(rawRepresentation data: D) throws { fatalError("stand-in") }
            public var rawRepresentation: Data { fatalError("stand-in") }
            public func isValidSignature<D: DataProtocol>(_ signature: ECDSASignature, for data: D) -> Bool {
                fatalError("stand-in")
            }
        }

        public struct PrivateKey: Sendable {
            public init(compactRepresentable: Bool = true) { fatalError("stand-in") }
            public init<D: ContiguousBytes>(rawRepresentation data: D) throws { fatalError("stand-in") }
            public var rawRepresentation: Data { fatalError("stand-in") }
            public var publicKey: PublicKey { fatalError("stand-in") }
            public func signature<D: DataProtocol>(for data: D) throws -> ECDSASignature { fatalError("stand-in") }
        }

        public struct ECDSASignature: ContiguousBytes, Sendable {
            public init<D: DataProtocol>(rawRepresentation: D) throws { fatalError("stand-in") }
            public var rawRepresentation: Data { fatalError("stand-in") }
            public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
                fatalError("stand-in")
            }
        }
    }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public enum Curve25519 {
    public enum Signing {
        public struct PublicKey: Sendable {
            public init<D: ContiguousBytes>(rawRepresentation data: D) throws { fatalError("stand-in") }
            public var rawRepresentation: Data { fatalError("stand-in") }
            public func isValidSignature<S: DataProtocol, D: DataProtocol>(_ signature: S, for data: D) -> Bool {
                fatalError("stand-in")
            }
        }

        public struct PrivateKey: Sendable {
            public init() { fatalError("stand-in") }
            public init<D: ContiguousBytes>(rawRepresentation data: D) throws { fatalError("stand-in") }
            public var rawRepresentation: Data { fatalError("stand-in") }
            public var publicKey: PublicKey { fatalError("stand-in") }
            public func signature<D: DataProtocol>(for data: D) throws -> Data { fatalError("stand-in") }
        }
    }
}
