// Stand-in for the ObjectiveC module: the root class and protocol, as Swift sees them. The module must be
// named ObjectiveC: the compiler lets a main-actor class inherit from NSObject (and from no other
// non-isolated class) by recognising `ObjectiveC.NSObject`.

/// The group of methods fundamental to all Objective-C objects.
public protocol NSObjectProtocol: AnyObject {}

/// The root class of most Objective-C class hierarchies.
open class NSObject: NSObjectProtocol, Hashable, CustomStringConvertible {
    /// Returns an initialised object.
    public init() {}

    open var description: String { fatalError("stand-in") }

    open var hash: Int { fatalError("stand-in") }

    open func isEqual(_ object: Any?) -> Bool { fatalError("stand-in") }

    public static func == (lhs: NSObject, rhs: NSObject) -> Bool { fatalError("stand-in") }

    public func hash(into hasher: inout Hasher) { fatalError("stand-in") }
}
