#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The operating system's own mutual-exclusion lock, at a fixed address: `os_unfair_lock` on Apple platforms,
/// a `pthread_mutex_t` elsewhere.
///
/// `Synchronization.Mutex` would do the same job, but it needs iOS 18 / macOS 15, above the package's deployment
/// targets; both primitives here exist on every OS the package supports, and ThreadSanitizer understands them.
@usableFromInline
final class PlatformLock: @unchecked Sendable {
    #if canImport(Darwin)
        @usableFromInline typealias Primitive = os_unfair_lock_s
    #else
        @usableFromInline typealias Primitive = pthread_mutex_t
    #endif

    @usableFromInline let primitive: UnsafeMutablePointer<Primitive>

    @usableFromInline
    init() {
        primitive = .allocate(capacity: 1)
        #if canImport(Darwin)
            primitive.initialize(to: os_unfair_lock_s())
        #else
            primitive.initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(primitive, nil)
            precondition(status == 0, "pthread_mutex_init failed: \(status)")
        #endif
    }

    deinit {
        #if !canImport(Darwin)
            pthread_mutex_destroy(primitive)
        #endif
        primitive.deinitialize(count: 1)
        primitive.deallocate()
    }

    @inlinable
    func lock() {
        #if canImport(Darwin)
            os_unfair_lock_lock(primitive)
        #else
            pthread_mutex_lock(primitive)
        #endif
    }

    @inlinable
    func unlock() {
        #if canImport(Darwin)
            os_unfair_lock_unlock(primitive)
        #else
            pthread_mutex_unlock(primitive)
        #endif
    }
}
