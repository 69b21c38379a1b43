import Foundation
import LatchkeyTokens

/// A session another SDK stored, which a client adopts once, on its first restore, when its own store holds
/// no session: an app that replaces that SDK with Latchkey keeps its users signed in.
///
/// The adopted session is checked before it is used (its access token must be a JWT whose `iss` is one of this
/// client's URLs, GoTrue's `{projectURL}/auth/v1`, and whose `sub` is the stored user's id), written to
/// this client's store bound to its identity, and only then removed from where the other SDK kept it. No
/// request is sent to adopt it: the first request with it (a refresh when it has expired, `GET /user`, …) is
/// where the server vouches for it, and a refusal there ends it by the usual rules.
///
/// ```swift
/// // Apple platforms: the Keychain item supabase-swift's default storage wrote.
/// let options = AuthClientOptions(sessionImport: .supabaseSwiftKeychain())
/// // Linux (or anywhere): a file holding what supabase-swift's `AuthLocalStorage` stored.
/// let options = AuthClientOptions(sessionImport: .supabaseSwift(file: exportedSessionURL))
/// ```
public struct SessionImport: Sendable {
    /// The other SDK's stored-session format.
    public enum Format: String, Sendable, Hashable {
        /// supabase-swift's `Session`, as its `SessionStorage` encodes it (plain `JSONEncoder`: camelCase keys,
        /// dates as seconds since 2001), or as its older versions did (snake_case keys and ISO 8601 dates, or
        /// wrapped as `{"session": …, "expiration_date": …}`).
        case supabaseSwift = "supabase_swift"
    }

    /// The format of what the source holds.
    public let format: Format
    /// Where the other SDK's session is read from and removed.
    let source: any SessionImportSource

    /// Creates an import from any source (tests use an in-memory one).
    /// - Parameters:
    ///   - format: The stored format.
    ///   - source: Reads and removes the stored bytes.
    package init(format: Format, source: any SessionImportSource) {
        self.format = format
        self.source = source
    }

    /// supabase-swift's default storage key, `AuthClient.Configuration.storageKey`'s default.
    public static let supabaseSwiftStorageKey = "supabase.auth.token"

    /// A file holding the bytes supabase-swift's `AuthLocalStorage` stored under its storage key (its
    /// `retrieve(key: "supabase.auth.token")`), e.g. written by the app's last supabase-swift build on Linux,
    /// where supabase-swift has no default storage. At most 1 MiB is read; the file is deleted once the session
    /// is in this client's store.
    /// - Parameter file: The file's URL.
    /// - Returns: The import.
    public static func supabaseSwift(file: URL) -> SessionImport {
        SessionImport(format: .supabaseSwift, source: FileImportSource(file: file))
    }
}

/// Reads and removes another SDK's stored session.
package protocol SessionImportSource: Sendable {
    /// The stored bytes, or `nil` when there are none.
    func load() async throws(AuthError) -> Data?
    /// Removes the stored bytes (after the session was stored the Latchkey way).
    func remove() async throws(AuthError)
}

/// A file exported from the other SDK.
struct FileImportSource: SessionImportSource {
    /// The largest file read.
    static let sizeLimit = 1 << 20
    let file: URL

    func load() async throws(AuthError) -> Data? {
        let manager = FileManager.default
        guard manager.fileExists(atPath: file.path) else { return nil }
        let size = (try? manager.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
        guard size <= Self.sizeLimit else {
            throw AuthError(.storeUnavailable, "The session file to import is larger than 1 MiB.")
        }
        do {
            return try Data(contentsOf: file)
        } catch {
            throw AuthError(.storeUnavailable, "The session file to import could not be read.")
        }
    }

    func remove() async throws(AuthError) {
        do {
            try FileManager.default.removeItem(at: file)
        } catch {
            guard FileManager.default.fileExists(atPath: file.path) else { return }
            throw AuthError(.storeFailed, "The imported session file could not be removed.")
        }
    }
}
