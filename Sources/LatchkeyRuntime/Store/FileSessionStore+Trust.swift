import Foundation
import LatchkeyTokens

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the file store accepts to find on disk: a real directory of the user's own, private (a looser mode is
/// tightened to 0700), holding regular files of the user's own (a looser mode is tightened to 0600), none of
/// them reached through a symbolic link, below ancestors no other user can change (``AncestorTrust``). Anything else is refused with an error — `store_unavailable` when
/// reading or locking, `store_failed` when writing — never read, written through, or taken for "signed out".
///
/// All of it is blocking file work: callers run it off Swift's cooperative pool.
extension FileSessionStore {
    /// Checks (and, for writes and locks, creates) the store directory.
    /// - Parameters:
    ///   - creating: Whether a missing directory is created with mode 0700.
    ///   - code: The code of a refusal.
    /// - Returns: Whether the directory exists (always `true` when `creating`).
    /// - Throws: `store_unavailable` when an ancestor lets another user move the directory
    ///   (``checkAncestors()``); `code` when the directory is a symbolic link, not a directory, another user's,
    ///   or cannot be made private.
    @discardableResult
    func checkDirectory(creating: Bool, code: AuthError.Code) throws(AuthError) -> Bool {
        try checkAncestors()
        let path = directory.path
        var status = stat()
        if lstat(path, &status) != 0 {
            let number = errno
            guard number == ENOENT else { throw failure(code, "examine the directory \(path)", number) }
            guard creating else { return false }
            do {
                try FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw AuthError(
                    code,
                    "Could not create the session directory \(path) (pass a store with a directory that can be "
                        + "made in AuthClientOptions): \(error.localizedDescription)")
            }
        }
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let number = errno
            if number == ELOOP || number == ENOTDIR {
                throw AuthError(code, "The session directory is a symbolic link or not a directory; it is not used.")
            }
            throw failure(code, "open the directory \(path)", number)
        }
        defer { _ = close(descriptor) }
        guard fstat(descriptor, &status) == 0 else { throw failure(code, "examine the directory \(path)", errno) }
        guard status.st_uid == geteuid() else {
            throw AuthError(code, "The session directory belongs to another user; it is not used.")
        }
        if status.st_mode & 0o077 != 0, fchmod(descriptor, 0o700) != 0 {
            throw failure(code, "make the directory \(path) private", errno)
        }
        return true
    }

    /// Opens a record or lock file without following a symbolic link, and checks that it is a regular file of
    /// the user's own, tightening a looser mode to 0600.
    /// - Parameters:
    ///   - path: The file.
    ///   - flags: `O_RDONLY`, or `O_RDWR | O_CREAT` for a lock file.
    ///   - code: The code of a refusal.
    /// - Returns: The open descriptor, or `nil` when the file does not exist (and `flags` do not create it).
    func openOwnFile(_ path: String, flags: Int32, code: AuthError.Code) throws(AuthError) -> Int32? {
        // O_NONBLOCK: a FIFO planted at the path must not block the open.
        let descriptor = open(path, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else {
            let number = errno
            if number == ENOENT { return nil }
            if number == ELOOP { throw AuthError(code, "A session store file is a symbolic link; it is not used.") }
            throw failure(code, "open", number)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let number = errno
            _ = close(descriptor)
            throw failure(code, "examine a file", number)
        }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else {
            _ = close(descriptor)
            throw AuthError(code, "A session store file is not a regular file of this user; it is not used.")
        }
        if status.st_mode & 0o077 != 0, fchmod(descriptor, 0o600) != 0 {
            let number = errno
            _ = close(descriptor)
            throw failure(code, "make a file private", number)
        }
        return descriptor
    }
}
