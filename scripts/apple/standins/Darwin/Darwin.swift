// Stand-in for Darwin: only the declarations Latchkey's `#if canImport(Darwin)` regions use, as the Darwin
// headers import them into Swift (the rest of POSIX is not declared, so the shared POSIX code around those
// regions does not type-check here; the check ignores errors outside Apple-only regions). Functions imported
// from C are `@discardableResult`, as the Clang importer makes them.

public typealias pid_t = Int32
public typealias socklen_t = UInt32
public typealias sa_family_t = UInt8
public typealias in_port_t = UInt16
public typealias in_addr_t = UInt32

/// An IPv4 address.
public struct in_addr {
    public var s_addr: in_addr_t
    public init() { s_addr = 0 }
}

/// An IPv6 address.
public struct in6_addr {
    public init() {}
}

/// An IPv4 socket address; BSD systems lead with its length (`sin_len`).
public struct sockaddr_in {
    public var sin_len: UInt8
    public var sin_family: sa_family_t
    public var sin_port: in_port_t
    public var sin_addr: in_addr
    public init() {
        sin_len = 0
        sin_family = 0
        sin_port = 0
        sin_addr = in_addr()
    }
}

/// An IPv6 socket address; BSD systems lead with its length (`sin6_len`).
public struct sockaddr_in6 {
    public var sin6_len: UInt8
    public var sin6_family: sa_family_t
    public var sin6_port: in_port_t
    public var sin6_flowinfo: UInt32
    public var sin6_addr: in6_addr
    public var sin6_scope_id: UInt32
    public init() {
        sin6_len = 0
        sin6_family = 0
        sin6_port = 0
        sin6_flowinfo = 0
        sin6_addr = in6_addr()
        sin6_scope_id = 0
    }
}

public var SOCK_STREAM: Int32 { 1 }
public var SHUT_WR: Int32 { 1 }
public var SHUT_RDWR: Int32 { 2 }
public var SOL_SOCKET: Int32 { 0xffff }
/// Do not raise SIGPIPE on a write to a closed socket (Darwin only).
public var SO_NOSIGPIPE: Int32 { 0x1022 }
/// Flush the drive's cache to permanent storage (Darwin only).
public var F_FULLFSYNC: Int32 { 51 }
/// Close every descriptor not named in the file actions (Darwin only).
public var POSIX_SPAWN_CLOEXEC_DEFAULT: Int32 { 0x4000 }

@discardableResult
public func setsockopt(
    _ socket: Int32, _ level: Int32, _ optionName: Int32, _ optionValue: UnsafeRawPointer!, _ optionLength: socklen_t
) -> Int32 { fatalError("stand-in") }

/// Darwin's `fcntl` overlay (the C variadic function is not imported).
@discardableResult
public func fcntl(_ fd: Int32, _ cmd: Int32) -> Int32 { fatalError("stand-in") }
@discardableResult
public func fcntl(_ fd: Int32, _ cmd: Int32, _ value: Int32) -> Int32 { fatalError("stand-in") }
@discardableResult
public func fsync(_ fd: Int32) -> Int32 { fatalError("stand-in") }
@discardableResult
public func close(_ fd: Int32) -> Int32 { fatalError("stand-in") }
@discardableResult
public func shutdown(_ socket: Int32, _ how: Int32) -> Int32 { fatalError("stand-in") }

/// On Darwin the spawn types are opaque pointers (on Glibc they are structs).
public typealias posix_spawn_file_actions_t = UnsafeMutableRawPointer
public typealias posix_spawnattr_t = UnsafeMutableRawPointer

@discardableResult
public func posix_spawnattr_setflags(_ attributes: UnsafeMutablePointer<posix_spawnattr_t?>!, _ flags: Int16) -> Int32 {
    fatalError("stand-in")
}

@discardableResult
@available(macOS 10.15, *)
@available(iOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
public func posix_spawn_file_actions_addchdir_np(
    _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t?>!, _ path: UnsafePointer<CChar>!
) -> Int32 { fatalError("stand-in") }
