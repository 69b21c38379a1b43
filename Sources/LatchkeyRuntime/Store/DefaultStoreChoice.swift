import Foundation

/// Which persistent store a process gets when it names none: decided from facts about the process, with no
/// platform API, so that the rule for every platform is tested on Linux.
///
/// - iOS, tvOS, watchOS, visionOS, and macOS apps (a process with a bundle identifier): the keychain.
/// - macOS command-line tools (no bundle identifier, e.g. `swift run`): the data-protection keychain refuses a
///   process without the keychain entitlement (`-34018`), so a file store in
///   `$HOME/Library/Application Support/latchkey`.
/// - Linux and other platforms: a file store in the XDG state directory
///   (``FileSessionStore/stateDirectory(environment:)``).
///
/// When no directory can be named (no absolute `HOME`, and on Linux no absolute `XDG_STATE_HOME`), the choice is
/// `unavailable` with a message that says what to set: nothing is written elsewhere.
package enum DefaultStoreChoice: Equatable, Sendable {
    /// The keychain (`KeychainSessionStore`).
    case keychain
    /// A ``FileSessionStore`` in this directory.
    case directory(URL)
    /// No persistent store can be named; every operation fails with `invalid_configuration` and this message.
    case unavailable(String)

    /// The platform families the rule tells apart.
    package enum Platform: Sendable {
        /// macOS: apps use the keychain, tools a file store.
        case macOS
        /// iOS, tvOS, watchOS, visionOS: always bundled apps.
        case appleMobile
        /// Linux and every other platform.
        case other

        /// The platform this process runs on.
        package static var current: Platform {
            #if os(macOS)
                return .macOS
            #elseif canImport(Security)
                return .appleMobile
            #else
                return .other
            #endif
        }
    }

    /// Chooses the default store.
    /// - Parameters:
    ///   - platform: The platform family.
    ///   - bundleIdentifier: The main bundle's identifier (`nil` for a bare executable).
    ///   - environment: Looks up `HOME` and `XDG_STATE_HOME`.
    /// - Returns: The choice.
    package static func choose(
        platform: Platform, bundleIdentifier: String?, environment: (String) -> String?
    ) -> DefaultStoreChoice {
        switch platform {
        case .appleMobile:
            return .keychain
        case .macOS:
            if let bundleIdentifier, !bundleIdentifier.isEmpty { return .keychain }
            guard let home = environment("HOME"), home.hasPrefix("/") else {
                return .unavailable(
                    "The default session store of a macOS command-line tool is a directory under HOME, and HOME is "
                        + "not an absolute path. Set HOME, or pass a store in AuthClientOptions "
                        + "(FileSessionStore(directory:), or InMemorySessionStore() to keep the session in memory only)."
                )
            }
            return .directory(
                URL(fileURLWithPath: home, isDirectory: true)
                    .appendingPathComponent("Library/Application Support/latchkey", isDirectory: true))
        case .other:
            guard let directory = FileSessionStore.stateDirectory(environment: environment) else {
                return .unavailable(
                    "The default session store has no directory: neither XDG_STATE_HOME nor HOME is an absolute "
                        + "path. Set one of them, or pass a store in AuthClientOptions (FileSessionStore(directory:), "
                        + "or InMemorySessionStore() to keep the session in memory only).")
            }
            return .directory(directory)
        }
    }
}
