// Stand-in for CoreFoundation: the opaque CF types Latchkey's Apple glue passes to Security.
// CF types are imported from C as classes; the toll-free bridging to Swift values is declared in the
// Foundation stand-in (as on Apple platforms, where it comes from NSString/NSData/NSDictionary). CF types are
// Hashable (a CFString is a dictionary key in Security attribute dictionaries).

/// The behaviour every Core Foundation type shares.
public protocol _CFObject: AnyObject, Hashable {}

extension _CFObject {
    public static func == (lhs: Self, rhs: Self) -> Bool { fatalError("stand-in") }
    public func hash(into hasher: inout Hasher) { fatalError("stand-in") }
}

/// An untyped generic reference to any Core Foundation object.
public typealias CFTypeRef = AnyObject
/// A reference to an immutable string object.
public final class CFString: _CFObject {}
/// A reference to an immutable data object.
public final class CFData: _CFObject {}
/// A reference to an immutable dictionary object.
public final class CFDictionary: _CFObject {}
/// A reference to an immutable array object.
public final class CFArray: _CFObject {}
/// A reference to a Boolean object.
public final class CFBoolean: _CFObject {}
/// A reference to a number object.
public final class CFNumber: _CFObject {}
/// A reference to an error object.
public final class CFError: _CFObject {}
/// An index or count in Core Foundation.
public typealias CFIndex = Int

/// The basic type for floating-point scalar values in Core Graphics and related frameworks (a `Double` on
/// 64-bit platforms).
@frozen
public struct CGFloat: Hashable, Comparable, Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    public var native: Double
    public init(_ value: Double) { native = value }
    public init(floatLiteral value: Double) { native = value }
    public init(integerLiteral value: Int) { native = Double(value) }
    public static func < (lhs: CGFloat, rhs: CGFloat) -> Bool { lhs.native < rhs.native }
}
