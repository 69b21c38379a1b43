// Stand-in for Foundation: swift-foundation's FoundationEssentials (built by the shared apple-typecheck tool
// from the toolchain, with its Apple availability), re-exported with what Apple's Foundation also brings:
// Darwin, CoreFoundation and ObjectiveC, Bundle, NSHomeDirectory, and the toll-free bridging of Swift values
// to CF types (`data as CFData`, `dictionary as CFDictionary`, `kSecClass as String`).

@_exported import CoreFoundation
@_exported import Darwin
@_exported import Dispatch
@_exported import FoundationEssentials
@_exported import ObjectiveC

/// A representation of the code and resources stored in a bundle directory on disk.
open class Bundle: NSObject, @unchecked Sendable {
    /// The bundle object that contains the current executable.
    open class var main: Bundle { fatalError("stand-in") }
    /// The receiver's bundle identifier.
    open var bundleIdentifier: String? { fatalError("stand-in") }
    /// Returns the value associated with the specified key in the receiver's information property list.
    open func object(forInfoDictionaryKey key: String) -> Any? { fatalError("stand-in") }
}

/// Returns the path to either the user's or application's home directory, depending on the platform.
public func NSHomeDirectory() -> String { fatalError("stand-in") }

// Toll-free bridging, which on Apple platforms goes through NSString, NSData and NSDictionary.
extension String: _ObjectiveCBridgeable {
    public typealias _ObjectiveCType = CFString
    public func _bridgeToObjectiveC() -> CFString { fatalError("stand-in") }
    public static func _forceBridgeFromObjectiveC(_ source: CFString, result: inout String?) { fatalError("stand-in") }
    public static func _conditionallyBridgeFromObjectiveC(_ source: CFString, result: inout String?) -> Bool {
        fatalError("stand-in")
    }
    public static func _unconditionallyBridgeFromObjectiveC(_ source: CFString?) -> String { fatalError("stand-in") }
}

extension Data: _ObjectiveCBridgeable {
    public typealias _ObjectiveCType = CFData
    public func _bridgeToObjectiveC() -> CFData { fatalError("stand-in") }
    public static func _forceBridgeFromObjectiveC(_ source: CFData, result: inout Data?) { fatalError("stand-in") }
    public static func _conditionallyBridgeFromObjectiveC(_ source: CFData, result: inout Data?) -> Bool {
        fatalError("stand-in")
    }
    public static func _unconditionallyBridgeFromObjectiveC(_ source: CFData?) -> Data { fatalError("stand-in") }
}

extension Dictionary: _ObjectiveCBridgeable {
    public typealias _ObjectiveCType = CFDictionary
    public func _bridgeToObjectiveC() -> CFDictionary { fatalError("stand-in") }
    public static func _forceBridgeFromObjectiveC(_ source: CFDictionary, result: inout Dictionary?) {
        fatalError("stand-in")
    }
    public static func _conditionallyBridgeFromObjectiveC(_ source: CFDictionary, result: inout Dictionary?) -> Bool {
        fatalError("stand-in")
    }
    public static func _unconditionallyBridgeFromObjectiveC(_ source: CFDictionary?) -> Dictionary {
        fatalError("stand-in")
    }
}
