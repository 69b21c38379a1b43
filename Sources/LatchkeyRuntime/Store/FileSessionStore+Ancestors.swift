import Foundation
import LatchkeyTokens

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension FileSessionStore {
    /// Checks every ancestor of the store directory with ``AncestorTrust``: the path as written (each
    /// component with `lstat`, so a planted symbolic link is judged by its owner), then, when a link is on the
    /// way, the real path it leads to. Missing ancestors end the walk (they are created by the store, 0700).
    /// - Throws: `store_unavailable`, naming the ancestor, when another user could move the directory away.
    func checkAncestors() throws(AuthError) {
        let parent = directory.deletingLastPathComponent().standardizedFileURL.path
        let uid = UInt32(geteuid())
        let (deepest, sawLink) = try Self.walk(parent, uid: uid)
        guard sawLink, let deepest, let real = realpath(deepest, nil) else { return }
        defer { free(real) }
        _ = try Self.walk(String(cString: real), uid: uid)
    }

    /// Checks the ancestors along `path`, from `/` down.
    /// - Returns: The deepest path that exists, and whether a symbolic link was met.
    private static func walk(_ path: String, uid: UInt32) throws(AuthError) -> (String?, Bool) {
        var current = ""
        var deepest: String?
        var sawLink = false
        for component in [""] + path.split(separator: "/").map(String.init) {
            current = component.isEmpty ? "/" : (current == "/" ? "/" : current + "/") + component
            var status = stat()
            guard lstat(current, &status) == 0 else {
                let number = errno
                if number == ENOENT || number == ENOTDIR { break }
                throw AuthError(
                    .storeUnavailable,
                    "Could not examine \(current), above the session directory: \(String(cString: strerror(number))).")
            }
            let isSymlink = status.st_mode & S_IFMT == S_IFLNK
            sawLink = sawLink || isSymlink
            let verdict = AncestorTrust.verdict(
                mode: UInt32(status.st_mode) & 0o7777, owner: UInt32(status.st_uid), isSymlink: isSymlink, uid: uid)
            if case .refused(let reason) = verdict {
                throw AuthError(
                    .storeUnavailable,
                    "The session directory is not used: \(current), above it, \(reason), so another user could "
                        + "move the directory away and back. Choose a directory only this user can change.")
            }
            deepest = current
        }
        return (deepest, sawLink)
    }
}
