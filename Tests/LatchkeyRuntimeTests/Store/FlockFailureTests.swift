import Testing

@testable import LatchkeyRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 27, item 4.1: an SMB volume on a Mac answers `flock` with `ENOTSUP` (45), not `EOPNOTSUPP` (102);
/// both mean "no locks here", so the refresh runs unlocked instead of failing with `store_unavailable`.
@Suite("Store: flock failures")
struct FlockFailureTests {
    /// Darwin's values, from `<sys/errno.h>` (`__DARWIN_UNIX03`, which Swift compiles against).
    static let darwin = FlockFailure.Numbers(
        EINTR: 4, EWOULDBLOCK: 35, EAGAIN: 35, ENOLCK: 77, EOPNOTSUPP: 102, ENOTSUP: 45, ENOSYS: 78, EINVAL: 22)

    @Test(
        "Darwin's errno values, checked on any platform",
        arguments: [
            (Int32(4), FlockFailure.interrupted),  // EINTR
            (35, .held),  // EAGAIN, EWOULDBLOCK
            (45, .unsupported),  // ENOTSUP: what an SMB volume returns
            (102, .unsupported),  // EOPNOTSUPP
            (77, .unsupported),  // ENOLCK
            (78, .unsupported),  // ENOSYS
            (22, .unsupported),  // EINVAL
            (13, .failed),  // EACCES
            (9, .failed),  // EBADF
            (5, .failed),  // EIO
        ])
    func darwinNumbers(code: Int32, expected: FlockFailure) {
        #expect(FlockFailure.classify(code, numbers: Self.darwin) == expected)
    }

    @Test(
        "this platform's constants",
        arguments: [
            (EINTR, FlockFailure.interrupted),
            (EWOULDBLOCK, .held),
            (EAGAIN, .held),
            (ENOTSUP, .unsupported),
            (EOPNOTSUPP, .unsupported),
            (ENOLCK, .unsupported),
            (ENOSYS, .unsupported),
            (EINVAL, .unsupported),
            (EACCES, .failed),
            (EBADF, .failed),
            (EIO, .failed),
        ])
    func platformConstants(code: Int32, expected: FlockFailure) {
        #expect(FlockFailure.classify(code) == expected)
    }

    @Test("the current table is this platform's: on Darwin ENOTSUP and EOPNOTSUPP are two entries")
    func currentTable() {
        let current = FlockFailure.Numbers.current
        #expect(current.unsupported.isSuperset(of: [ENOTSUP, EOPNOTSUPP, ENOLCK, ENOSYS, EINVAL]))
        #if canImport(Darwin)
            #expect(current == Self.darwin)
        #endif
    }
}
