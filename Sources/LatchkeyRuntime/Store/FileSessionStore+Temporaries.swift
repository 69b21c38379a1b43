import Foundation
import LatchkeyTokens

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The temporary files of atomic writes, and the removal of those a crash left behind.
///
/// A write creates `.<record file name>.XXXXXX` beside the record with `mkstemp`, takes an exclusive `flock`
/// on it at once and keeps it until the file has been renamed over the record. The kernel releases the lock
/// when the writer dies, even by `SIGKILL`, so a temporary file whose lock can be taken belongs to no live
/// writer: the next write or removal of the same key deletes it. The one window (another process's cleanup
/// deletes a file between its writer's `mkstemp` and `flock`) is closed by the writer: once it holds the lock
/// it checks that the file still has a name, and starts over with a new one if not.
extension FileSessionStore {
    /// The name prefix of a key's temporary files: `.` + the record's file name + `.`.
    static func temporaryPrefix(forKey key: String) -> String {
        "." + fileName(forKey: key) + "."
    }

    /// Whether `name` is one of a key's temporary files: the prefix and exactly the six characters `mkstemp`
    /// puts in place of `XXXXXX`.
    static func isTemporary(_ name: String, prefix: String) -> Bool {
        guard name.hasPrefix(prefix) else { return false }
        let suffix = name.utf8.dropFirst(prefix.utf8.count)
        return suffix.count == 6
            && suffix.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default:
                    false
                }
            }
    }

    /// Creates a key's temporary file, close-on-exec and locked; returns its descriptor and path.
    func createLockedTemporary(forKey key: String) throws(AuthError) -> (descriptor: Int32, path: String) {
        let template = directory.path + "/" + FileSessionStore.temporaryPrefix(forKey: key) + "XXXXXX"
        for _ in 0..<8 {
            var bytes = Array(template.utf8CString)
            let descriptor = bytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else { throw failure(.storeFailed, "create a temporary file", errno) }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            let path = String(decoding: bytes.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            var locked: Int32
            repeat { locked = flock(descriptor, LOCK_EX) } while locked != 0 && errno == EINTR
            // Without flock support (some network file systems) nobody can take the lock either, so no cleanup
            // removes the file: writing unlocked is safe.
            var status = stat()
            if locked == 0, fstat(descriptor, &status) == 0, status.st_nlink == 0 {
                // Another process's cleanup removed it before the lock was taken: start over.
                _ = close(descriptor)
                continue
            }
            return (descriptor, path)
        }
        throw AuthError(.storeFailed, "Session store could not keep a temporary file: another process removed it.")
    }

    /// Removes the key's temporary files that no live writer holds: those a crash (or a kill) left behind
    /// between creating the file and renaming it. Best effort: a file that cannot be examined stays.
    /// - Parameter key: The key whose temporary files to remove.
    /// - Returns: How many files were removed.
    @discardableResult
    func removeStaleTemporaries(forKey key: String) -> Int {
        let prefix = FileSessionStore.temporaryPrefix(forKey: key)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return 0 }
        var removed = 0
        for name in names where FileSessionStore.isTemporary(name, prefix: prefix) {
            let path = directory.path + "/" + name
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard descriptor >= 0 else { continue }
            defer { _ = close(descriptor) }
            // A live writer holds the lock until its rename.
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }
            // Still the same regular file under that name (a writer that finished renamed it away)?
            var opened = stat()
            var named = stat()
            guard fstat(descriptor, &opened) == 0, lstat(path, &named) == 0, opened.st_ino == named.st_ino,
                opened.st_dev == named.st_dev, opened.st_mode & S_IFMT == S_IFREG
            else { continue }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }
}
