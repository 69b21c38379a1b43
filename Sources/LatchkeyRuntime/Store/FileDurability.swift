#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Flushing a file to stable storage.
enum FileDurability {
    /// Flushes a descriptor's data to the disk itself, not just to the drive's cache.
    ///
    /// On Apple platforms `fsync` only hands the data to the drive, which may reorder or lose it on power
    /// loss; `fcntl(F_FULLFSYNC)` asks the drive to write it out. Where `F_FULLFSYNC` is not supported (some
    /// network and FAT file systems) this falls back to `fsync`. Elsewhere it is `fsync`.
    /// - Parameter descriptor: An open descriptor.
    /// - Returns: 0 on success, -1 with `errno` set on failure (like `fsync`).
    static func flush(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
        #endif
        return fsync(descriptor)
    }
}
