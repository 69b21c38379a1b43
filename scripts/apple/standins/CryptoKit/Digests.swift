// Stand-in for CryptoKit: the SHA-2 hash functions (iOS 13, macOS 10.15).

import Foundation

/// A type that represents the output of a hash.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Digest: Hashable, Sequence, ContiguousBytes, Sendable where Element == UInt8 {
    static var byteCount: Int { get }
}

/// A type that performs cryptographically secure hashing.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol HashFunction {
    associatedtype Digest: CryptoKit.Digest
    static func hash<D: DataProtocol>(data: D) -> Digest
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct SHA256: HashFunction {
    public static func hash<D: DataProtocol>(data: D) -> SHA256Digest { fatalError("stand-in") }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct SHA384: HashFunction {
    public static func hash<D: DataProtocol>(data: D) -> SHA384Digest { fatalError("stand-in") }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct SHA512: HashFunction {
    public static func hash<D: DataProtocol>(data: D) -> SHA512Digest { fatalError("stand-in") }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct SHA256Digest: Digest {
    public static var byteCount: Int { 32 }
    public func makeIterator() -> Array<UInt8>.Iterator { fatalError("stand-in") }
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { fatalError("stand-in") }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct SHA384Digest: Digest {
    public static var byteCount: Int { 48 }
    public func makeIterator() -> Array<UInt8>.Iterator { fatalError("stand-in") }
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { fatalError("stand-in") }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct SHA512Digest: Digest {
    public static var byteCount: Int { 64 }
    public func makeIterator() -> Array<UInt8>.Iterator { fatalError("stand-in") }
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { fatalError("stand-in") }
}
