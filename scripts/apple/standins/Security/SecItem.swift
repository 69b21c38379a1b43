// Stand-in for Security: keychain items (SecItem*), the attribute keys and values Latchkey uses, and the
// result codes it maps. C constants (`let kSecClass: CFString`) are declared as read-only computed globals,
// which reads the same and needs no initial value.

@_exported import CoreFoundation

/// A result code of Security (and Carbon) functions.
public typealias OSStatus = Int32

public var errSecSuccess: OSStatus { 0 }
public var errSecDuplicateItem: OSStatus { -25299 }
public var errSecItemNotFound: OSStatus { -25300 }
public var errSecInteractionNotAllowed: OSStatus { -25308 }
public var errSecDecode: OSStatus { -26275 }
public var errSecMissingEntitlement: OSStatus { -34018 }

@available(macOS 10.6, iOS 2.0, *)
@discardableResult
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    fatalError("stand-in")
}

@available(macOS 10.6, iOS 2.0, *)
@discardableResult
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    fatalError("stand-in")
}

@available(macOS 10.6, iOS 2.0, *)
@discardableResult
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    fatalError("stand-in")
}

@available(macOS 10.6, iOS 2.0, *)
@discardableResult
public func SecItemDelete(_ query: CFDictionary) -> OSStatus { fatalError("stand-in") }

// Item class, attributes, search and return keys.
@available(macOS 10.6, iOS 2.0, *) public var kSecClass: CFString { fatalError("stand-in") }
@available(macOS 10.6, iOS 2.0, *) public var kSecClassGenericPassword: CFString { fatalError("stand-in") }
@available(macOS 10.6, iOS 2.0, *) public var kSecAttrService: CFString { fatalError("stand-in") }
@available(macOS 10.6, iOS 2.0, *) public var kSecAttrAccount: CFString { fatalError("stand-in") }
@available(macOS 10.6, iOS 2.0, *) public var kSecAttrLabel: CFString { fatalError("stand-in") }
@available(macOS 10.9, iOS 3.0, *) public var kSecAttrAccessGroup: CFString { fatalError("stand-in") }
@available(macOS 10.9, iOS 4.0, *) public var kSecAttrAccessible: CFString { fatalError("stand-in") }
@available(macOS 10.9, iOS 4.0, *)
public var kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString { fatalError("stand-in") }
@available(macOS 10.6, iOS 2.0, *) public var kSecValueData: CFString { fatalError("stand-in") }
@available(macOS 10.6, iOS 2.0, *) public var kSecReturnData: CFString { fatalError("stand-in") }
@available(macOS 10.6, iOS 2.0, *) public var kSecReturnAttributes: CFString { fatalError("stand-in") }
@available(macOS 10.6, iOS 2.0, *) public var kSecMatchLimit: CFString { fatalError("stand-in") }
@available(macOS 10.6, iOS 2.0, *) public var kSecMatchLimitOne: CFString { fatalError("stand-in") }
@available(macOS 10.6, iOS 2.0, *) public var kSecMatchLimitAll: CFString { fatalError("stand-in") }
@available(macOS 10.15, iOS 13.0, *)
public var kSecUseDataProtectionKeychain: CFString { fatalError("stand-in") }
@available(macOS 10.9, iOS 7.0, *) public var kSecAttrSynchronizable: CFString { fatalError("stand-in") }
