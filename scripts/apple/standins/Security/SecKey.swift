// Stand-in for Security: keys (SecKey*) and the CSPRNG (SecRandomCopyBytes).

/// An object that represents a cryptographic key.
public final class SecKey: _CFObject {}

/// An abstract Core Foundation-type object containing information about a random number generator.
public final class SecRandom: _CFObject {}

@available(macOS 10.7, iOS 2.0, *) nonisolated(unsafe) public let kSecRandomDefault: SecRandom? = nil

@available(macOS 10.7, iOS 2.0, *)
@discardableResult
public func SecRandomCopyBytes(_ rnd: SecRandom?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 {
    fatalError("stand-in")
}

@available(macOS 10.7, iOS 2.0, *) public var kSecAttrKeyType: CFString { fatalError("stand-in") }
@available(macOS 10.7, iOS 2.0, *) public var kSecAttrKeyTypeRSA: CFString { fatalError("stand-in") }
@available(macOS 10.7, iOS 2.0, *) public var kSecAttrKeyClass: CFString { fatalError("stand-in") }
@available(macOS 10.7, iOS 2.0, *) public var kSecAttrKeyClassPublic: CFString { fatalError("stand-in") }
@available(macOS 10.7, iOS 2.0, *) public var kSecAttrKeyClassPrivate: CFString { fatalError("stand-in") }
@available(macOS 10.7, iOS 2.0, *) public var kSecAttrKeySizeInBits: CFString { fatalError("stand-in") }

/// The algorithms a key can compute with.
public struct SecKeyAlgorithm: Hashable, RawRepresentable, @unchecked Sendable {
    public var rawValue: CFString
    public init(rawValue: CFString) { self.rawValue = rawValue }
    public init(_ rawValue: CFString) { self.rawValue = rawValue }

    @available(macOS 10.12, iOS 10.0, *)
    public static var rsaSignatureMessagePKCS1v15SHA256: SecKeyAlgorithm { fatalError("stand-in") }
    @available(macOS 10.12, iOS 10.0, *)
    public static var rsaSignatureMessagePKCS1v15SHA384: SecKeyAlgorithm { fatalError("stand-in") }
    @available(macOS 10.12, iOS 10.0, *)
    public static var rsaSignatureMessagePKCS1v15SHA512: SecKeyAlgorithm { fatalError("stand-in") }
    @available(macOS 10.13, iOS 11.0, *)
    public static var rsaSignatureMessagePSSSHA256: SecKeyAlgorithm { fatalError("stand-in") }
    @available(macOS 10.13, iOS 11.0, *)
    public static var rsaSignatureMessagePSSSHA384: SecKeyAlgorithm { fatalError("stand-in") }
    @available(macOS 10.13, iOS 11.0, *)
    public static var rsaSignatureMessagePSSSHA512: SecKeyAlgorithm { fatalError("stand-in") }
}

@available(macOS 10.12, iOS 10.0, *)
@discardableResult
public func SecKeyCreateWithData(
    _ keyData: CFData, _ attributes: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecKey? { fatalError("stand-in") }

@available(macOS 10.12, iOS 10.0, *)
@discardableResult
public func SecKeyCreateRandomKey(_ parameters: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?)
    -> SecKey?
{ fatalError("stand-in") }

@available(macOS 10.12, iOS 10.0, *)
@discardableResult
public func SecKeyCopyPublicKey(_ key: SecKey) -> SecKey? { fatalError("stand-in") }

@available(macOS 10.12, iOS 10.0, *)
@discardableResult
public func SecKeyCopyExternalRepresentation(_ key: SecKey, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?)
    -> CFData?
{ fatalError("stand-in") }

@available(macOS 10.12, iOS 10.0, *)
@discardableResult
public func SecKeyCreateSignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ dataToSign: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? { fatalError("stand-in") }

@available(macOS 10.12, iOS 10.0, *)
@discardableResult
public func SecKeyVerifySignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ signedData: CFData, _ signature: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> Bool { fatalError("stand-in") }
