import Foundation
import LatchkeyPlatform
import LatchkeyTokens

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A store that keeps one file per key in a private directory, written atomically with mode 0600.
///
/// Writes go to a temporary file in the same directory, which is flushed to disk and renamed over the
/// old file; the directory is then flushed too, so a crash leaves either the old record or the new one.
/// A temporary file that a crash left behind is removed by the next write or removal of the same key (a
/// temporary still locked by a writer in another process is left alone).
/// Refreshes are coordinated across processes (an app and its extensions sharing the directory) by an
/// exclusive `flock` on `<record>.lock` beside each record (see ``withExclusiveRefresh(key:_:)``). File work
/// runs on a serial dispatch queue, never blocking a thread of Swift's cooperative pool.
/// The default directory is `$XDG_DATA_HOME/latchkey` (or `~/.local/share/latchkey`) on Linux and
/// `Application Support/latchkey` on Apple platforms; it is created with mode 0700.
///
/// The store trusts nothing it finds: a directory that is a symbolic link or another user's is refused, a
/// directory of the user's own with a looser mode is made 0700, and records and lock files are opened without
/// following symbolic links and used only when they are regular files of the user's own (made 0600). A
/// refusal is `store_unavailable` (reading, locking) or `store_failed` (writing), never "signed out".
public struct FileSessionStore: SessionStore {
    /// The directory that holds the records.
    public let directory: URL
    /// How long a refresh waits for another process's refresh of the same session before giving up with
    /// `store_unavailable`.
    public let refreshLockTimeout: LatchkeyDuration
    /// The clock the refresh lock's polling waits on, and its timeout is measured by.
    public let clock: any LatchkeyClock

    /// Creates a store.
    /// - Parameters:
    ///   - directory: The directory, or `nil` for the platform default.
    ///   - refreshLockTimeout: How long to wait for another process's refresh (default 60 s: longer than a
    ///     refresh request's 30 s timeout).
    ///   - clock: The clock the refresh lock's polling waits on (default ``SystemClock``).
    public init(
        directory: URL? = nil, refreshLockTimeout: LatchkeyDuration = .seconds(60),
        clock: any LatchkeyClock = SystemClock()
    ) {
        self.directory = directory ?? FileSessionStore.defaultDirectory()
        self.refreshLockTimeout = refreshLockTimeout
        self.clock = clock
    }

    /// The platform's default directory for Latchkey's records.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        #if canImport(Darwin)
            let base =
                FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Library/Application Support")
            return base.appendingPathComponent("latchkey", isDirectory: true)
        #else
            if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
                return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent(
                    "latchkey", isDirectory: true)
            }
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            return URL(fileURLWithPath: home, isDirectory: true)
                .appendingPathComponent(".local/share/latchkey", isDirectory: true)
        #endif
    }

    /// The file that holds a key's record.
    /// - Parameter key: The key.
    /// - Returns: The file URL inside ``directory``.
    public func fileURL(forKey key: String) -> URL {
        directory.appendingPathComponent(FileSessionStore.fileName(forKey: key), isDirectory: false)
    }

    /// Reads a record; `nil` when there is no file.
    public func load(key: String) async throws(AuthError) -> Data? {
        try await FileSessionStore.offPool { () throws(AuthError) in try self.loadNow(key: key) }
    }

    /// Writes a record atomically with mode 0600.
    public func save(_ data: Data, key: String) async throws(AuthError) {
        try await FileSessionStore.offPool { () throws(AuthError) in try self.saveNow(data, key: key) }
    }

    /// Removes a record; a missing file is not an error.
    public func remove(key: String) async throws(AuthError) {
        try await FileSessionStore.offPool { () throws(AuthError) in try self.removeNow(key: key) }
    }

    /// Blocking file work (an `fsync` can take tens of milliseconds) runs on this serial queue, never on Swift's
    /// cooperative pool; it also keeps the process's writes in call order.
    private static let queue = BlockingQueue(label: "dev.latchkey.file-session-store")

    private static func offPool<T: Sendable>(
        _ work: @escaping @Sendable () throws(AuthError) -> T
    ) async throws(AuthError) -> T {
        try await queue.run(work)
    }

    private func loadNow(key: String) throws(AuthError) -> Data? {
        guard try checkDirectory(creating: false, code: .storeUnavailable),
            let descriptor = try openOwnFile(fileURL(forKey: key).path, flags: O_RDONLY, code: .storeUnavailable)
        else { return nil }
        defer { _ = close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(.storeUnavailable, "read", errno)
            }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    private func saveNow(_ data: Data, key: String) throws(AuthError) {
        try checkDirectory(creating: true, code: .storeFailed)
        removeStaleTemporaries(forKey: key)
        let finalPath = fileURL(forKey: key).path
        let (descriptor, temporaryPath) = try createLockedTemporary(forKey: key)
        // The descriptor (and with it the temporary file's lock) stays open until the rename: a locked
        // temporary file is a live write that no other process's cleanup removes.
        defer { _ = close(descriptor) }
        do throws(AuthError) {
            guard fchmod(descriptor, 0o600) == 0 else { throw failure(.storeFailed, "chmod", errno) }
            try writeAll(data, to: descriptor)
            guard FileDurability.flush(descriptor) == 0 else { throw failure(.storeFailed, "fsync", errno) }
        } catch {
            _ = unlink(temporaryPath)
            throw error
        }
        guard rename(temporaryPath, finalPath) == 0 else {
            let code = errno
            _ = unlink(temporaryPath)
            throw failure(.storeFailed, "rename", code)
        }
        syncDirectory()
    }

    private func removeNow(key: String) throws(AuthError) {
        guard try checkDirectory(creating: false, code: .storeFailed) else { return }
        removeStaleTemporaries(forKey: key)
        if unlink(fileURL(forKey: key).path) != 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return }
            throw failure(.storeFailed, "unlink", code)
        }
        syncDirectory()
    }

    /// Runs a refresh while holding an exclusive `flock` on `<record>.lock` (mode 0600, never deleted), so
    /// that processes sharing the directory refresh one at a time. A crashed holder releases the lock.
    /// The directory and the lock file are checked like records (never a symbolic link, the user's own,
    /// private), off the cooperative pool.
    /// - Throws: `store_unavailable` when the directory cannot be created or is refused, when the lock file
    ///   cannot be opened or is refused, or when another process holds the lock past ``refreshLockTimeout``;
    ///   what `body` throws.
    public func withExclusiveRefresh<T: Sendable>(
        key: String, _ body: @Sendable () async throws(AuthError) -> T
    ) async throws(AuthError) -> T {
        let path = lockURL(forKey: key).path
        let descriptor = try await FileSessionStore.offPool { () throws(AuthError) -> Int32 in
            try self.checkDirectory(creating: true, code: .storeUnavailable)
            guard let descriptor = try self.openOwnFile(path, flags: O_RDWR | O_CREAT, code: .storeUnavailable)
            else { throw AuthError(.storeUnavailable, "The session's refresh lock file could not be created.") }
            return descriptor
        }
        return try await FileLock(path: path, timeout: refreshLockTimeout, clock: clock).withLock(
            descriptor: descriptor, body)
    }

    /// The lock file of a key's record: the record's file name plus `.lock`.
    /// - Parameter key: The key.
    /// - Returns: The file URL inside ``directory``.
    public func lockURL(forKey key: String) -> URL {
        directory.appendingPathComponent(FileSessionStore.fileName(forKey: key) + ".lock", isDirectory: false)
    }

    /// A safe file name for a key: the key itself when it is short and plain, otherwise its SHA-256.
    static func fileName(forKey key: String) -> String {
        let plain = key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                true
            default:
                false
            }
        }
        if plain, !key.isEmpty, !key.hasPrefix("."), key.utf8.count <= 100 { return key + ".json" }
        return "h-" + SHA2Hash.sha256(Array(key.utf8)).map { String(format: "%02x", $0) }.joined() + ".json"
    }

    private func writeAll(_ data: Data, to descriptor: Int32) throws(AuthError) {
        var offset = 0
        while offset < data.count {
            let written = data.withUnsafeBytes { bytes in
                write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw failure(.storeFailed, "write", errno)
            }
            offset += written
        }
    }

    private func syncDirectory() {
        let descriptor = open(directory.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = FileDurability.flush(descriptor)
        _ = close(descriptor)
    }

    func failure(_ code: AuthError.Code, _ operation: String, _ number: Int32) -> AuthError {
        AuthError(code, "Session store \(operation) failed: \(String(cString: strerror(number))) (errno \(number)).")
    }
}
