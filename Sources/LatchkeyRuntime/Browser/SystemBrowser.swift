import LatchkeyTokens

#if os(macOS) || os(Linux)
    import Foundation

    /// Opens URLs in the user's default browser: `NSWorkspace` on macOS (allowed in the App Sandbox), `xdg-open`
    /// on Linux, or a program you name.
    ///
    /// A program is never given the URL itself: an authorization URL carries the sign-in's `state`, `nonce`,
    /// code challenge and loopback port, and a command line is readable by every local user. It gets the path of
    /// a page that sends the browser on (a 0600 file in a fresh 0700 directory, `BrowserHandoffPage`), deleted
    /// a minute later (`pageLifetime`).
    public struct SystemBrowser: Sendable {
        /// The program that opens a URL, or `nil` for the platform's own way (`NSWorkspace` on macOS,
        /// `xdg-open` found on `PATH` on Linux).
        public var command: String?
        /// Arguments placed before the page's path (for a program).
        public var arguments: [String]
        /// Where the private page directories are made: `nil` for `$XDG_RUNTIME_DIR`, else the temporary
        /// directory. A sandboxed browser (a Snap or Flatpak) may need a directory it can read.
        public var pageDirectory: URL?
        /// How long the page stays after the program returns, for the browser to load it.
        var pageLifetime: LatchkeyDuration = .seconds(60)

        /// Creates an opener.
        /// - Parameters:
        ///   - command: The program (absolute, or found on `PATH`); `nil` for the platform's own way.
        ///   - arguments: Arguments before the page's path.
        ///   - pageDirectory: Where the private page directories are made (default: `$XDG_RUNTIME_DIR`, else the
        ///     temporary directory).
        public init(command: String? = nil, arguments: [String] = [], pageDirectory: URL? = nil) {
            self.command = command
            self.arguments = arguments
            self.pageDirectory = pageDirectory
        }

        /// Opens a URL.
        /// - Parameter url: The URL (http or https only).
        /// - Throws: `web_auth_start_failed` when the URL is not http(s), or the browser cannot be started or
        ///   fails.
        public func open(_ url: URL) async throws(AuthError) {
            if try launch(for: url, page: "") == .workspace { return try await SystemBrowser.openInWorkspace(url) }
            let page = try BrowserHandoffPage.write(url, under: pageDirectory ?? BrowserHandoffPage.defaultBase())
            guard case .program(let executable, let programArguments) = try launch(for: url, page: page.file.path)
            else { return page.remove() }
            do {
                try await SystemBrowser.run(executable, programArguments)
            } catch {
                page.remove()
                throw error
            }
            let lifetime = pageLifetime
            Task.detached {
                try? await LatchkeyDuration.sleep(lifetime)
                page.remove()
            }
        }

        /// The opener as a closure for ``BrowserSignInProviding/signInWithLoopback(open:timeout:)``.
        public var opener: @Sendable (URL) async throws(AuthError) -> Void {
            { url throws(AuthError) in try await self.open(url) }
        }

        /// How a URL is opened: the platform-neutral decision, tested on Linux.
        enum Launch: Equatable {
            /// `NSWorkspace.shared.open(_:)` (macOS).
            case workspace
            /// A program with its arguments (the page's path is the last; never the URL).
            case program(executable: String, arguments: [String])
        }

        /// Decides how to open `url`.
        /// - Parameters:
        ///   - url: The URL.
        ///   - page: The path of the page that leads to it, given to a program instead of the URL.
        /// - Throws: `web_auth_start_failed` for a URL that is not http(s).
        func launch(for url: URL, page: String) throws(AuthError) -> Launch {
            guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
                throw AuthError(.webAuthStartFailed, "Only http and https URLs are opened in a browser.")
            }
            guard let command else {
                #if os(macOS)
                    return .workspace
                #else
                    return .program(executable: "/usr/bin/env", arguments: ["xdg-open", page])
                #endif
            }
            if command.hasPrefix("/") {
                return .program(executable: command, arguments: arguments + [page])
            }
            return .program(executable: "/usr/bin/env", arguments: [command] + arguments + [page])
        }

        private static func run(_ executable: String, _ arguments: [String]) async throws(AuthError) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            let name = executable == "/usr/bin/env" ? arguments.first ?? executable : executable
            let status: Int32
            do {
                status = try await withCheckedThrowingContinuation { continuation in
                    process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
                    do {
                        try process.run()
                    } catch {
                        process.terminationHandler = nil
                        continuation.resume(throwing: error)
                    }
                }
            } catch {
                throw AuthError(.webAuthStartFailed, "Could not start \(name): \(error.localizedDescription)")
            }
            guard status == 0 else { throw AuthError(.webAuthStartFailed, "\(name) exited with status \(status).") }
        }
    }
#endif
