/// Whether a directory above the file store's directory (or a symbolic link on the way to it) leaves the store
/// to the current user alone: the pure decision, over what `lstat` reports.
///
/// Whoever can rename entries in an ancestor can move the store's 0700 directory away (before a sign-out) and
/// back (after it), restoring a session the user ended; whoever owns an ancestor can make it writable. So every
/// ancestor must be owned by the current user or root, and not writable by group or others unless its sticky
/// bit is set (then only an entry's owner may rename it, as in `/tmp`). A symbolic link's own mode means
/// nothing, but its owner can point it elsewhere: it must be the user's or root's.
enum AncestorTrust: Equatable, Sendable {
    /// The ancestor leaves the store alone.
    case trusted
    /// Another user can take the store's directory away through this ancestor, for the reason given.
    case refused(String)

    /// The sticky bit (`S_ISVTX`).
    static let stickyBit: UInt32 = 0o1000

    /// Decides for one ancestor.
    /// - Parameters:
    ///   - mode: Its `st_mode` (permission bits with the sticky bit; the file type bits are ignored).
    ///   - owner: Its `st_uid`.
    ///   - isSymlink: Whether it is a symbolic link (`lstat`), rather than the directory it names.
    ///   - uid: The current user (`geteuid()`).
    static func verdict(mode: UInt32, owner: UInt32, isSymlink: Bool, uid: UInt32) -> AncestorTrust {
        guard owner == uid || owner == 0 else {
            return .refused(isSymlink ? "is a symbolic link owned by user \(owner)" : "is owned by user \(owner)")
        }
        if isSymlink { return .trusted }
        if mode & 0o022 != 0, mode & stickyBit == 0 {
            return .refused("is writable by \(mode & 0o002 != 0 ? "other users" : "its group") without the sticky bit")
        }
        return .trusted
    }
}
