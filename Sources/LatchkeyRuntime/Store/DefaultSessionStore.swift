import Foundation
import LatchkeyTokens

extension AuthClientOptions {
    /// The store a client keeps its session in when ``AuthClientOptions/store`` is not given: persistent and
    /// private to the user, so that a returning user is signed in on launch without any request.
    ///
    /// - Apple platforms: `KeychainSessionStore` (service `dev.latchkey.sessions`), items readable after the
    ///   first unlock and never synced or migrated to another device
    ///   (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`).
    /// - macOS command-line tools (a process with no bundle identifier, such as `swift run`): the keychain would
    ///   refuse them (`-34018`, no entitlement), so ``FileSessionStore`` in
    ///   `~/Library/Application Support/latchkey` (0700 directory, 0600 files). The rule per platform is `DefaultStoreChoice`.
    /// - Linux and other platforms: ``FileSessionStore`` in the user's state directory,
    ///   ``FileSessionStore/stateDirectory(environment:)`` (`$XDG_STATE_HOME/latchkey`, else
    ///   `~/.local/state/latchkey`), a 0700 directory of 0600 files.
    ///
    /// Either way every record is bound to its client: the key is the client's
    /// `ProviderIdentity.defaultStoreKey` and the record carries the identity's digest, so clients of other
    /// providers, issuers, tenants or client ids never read each other's sessions. When no state directory can
    /// be named (neither variable is an absolute path), the store's every operation fails with
    /// `invalid_configuration` and a message that says what to set; nothing crashes and nothing is written
    /// elsewhere. Pass ``InMemorySessionStore`` to keep the session in memory only.
    /// - Parameter environment: Looks up `XDG_STATE_HOME` and `HOME` (Linux); the process environment by default.
    /// - Returns: The platform's persistent store.
    public static func defaultStore(
        environment: @escaping @Sendable (String) -> String? = AuthClientOptions.processEnvironment
    ) -> any SessionStore {
        switch DefaultStoreChoice.choose(
            platform: .current, bundleIdentifier: Bundle.main.bundleIdentifier, environment: environment)
        {
        case .keychain:
            #if canImport(Security)
                return KeychainSessionStore()
            #else
                return UnavailableSessionStore(message: "The keychain exists only on Apple platforms.")
            #endif
        case .directory(let directory):
            return FileSessionStore(directory: directory)
        case .unavailable(let message):
            return UnavailableSessionStore(message: message)
        }
    }
}

extension FileSessionStore {
    /// The directory of the default store on Linux (XDG Base Directory): `$XDG_STATE_HOME/latchkey`, else
    /// `$HOME/.local/state/latchkey`; `nil` when neither is an absolute path (the specification ignores
    /// relative ones).
    /// - Parameter environment: Looks up `XDG_STATE_HOME` and `HOME`.
    /// - Returns: The directory, or `nil`.
    public static func stateDirectory(environment: (String) -> String?) -> URL? {
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") {
            return URL(fileURLWithPath: state, isDirectory: true).appendingPathComponent("latchkey", isDirectory: true)
        }
        guard let home = environment("HOME"), home.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local/state/latchkey", isDirectory: true)
    }
}

/// The default store when no directory can be named: every operation fails with `invalid_configuration` and
/// says what to set, so the app learns it at its first ``AuthProviderClient/restore()`` instead of losing sessions.
struct UnavailableSessionStore: SessionStore {
    /// What is missing and how to fix it.
    let message: String

    func load(key: String) async throws(AuthError) -> Data? {
        throw AuthError(.invalidConfiguration, message)
    }

    func save(_ data: Data, key: String) async throws(AuthError) {
        throw AuthError(.invalidConfiguration, message)
    }

    func remove(key: String) async throws(AuthError) {
        throw AuthError(.invalidConfiguration, message)
    }
}
