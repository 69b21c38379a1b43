#if os(macOS) || os(Linux)
    import Foundation

    /// Opens URLs in the user's default browser: `NSWorkspace` on macOS (allowed in the App Sandbox), `xdg-open`
    /// on Linux, or a program you name.
    public struct SystemBrowser: Sendable {
        /// The program that opens a URL, or `nil` for the platform's own way (`NSWorkspace` on macOS,
        /// `xdg-open` found on `PATH` on Linux).
        public var command: String?
        /// Arguments placed before the URL (for a program).
        public var arguments: [String]

        /// Creates an opener.
        /// - Parameters:
        ///   - command: The program (absolute, or found on `PATH`); `nil` for the platform's own way.
        ///   - arguments: Arguments before the URL.
        public init(command: String? = nil, arguments: [String] = []) {
            self.command = command
            self.arguments = arguments
        }

        /// Opens a URL.
        /// - Parameter url: The URL (http or https only).
        /// - Throws: `web_auth_start_failed` when the URL is not http(s), or the browser cannot be started or
        ///   fails.
        public func open(_ url: URL) async throws(AuthError) {
            switch try launch(for: url) {
            case .workspace:
                try await SystemBrowser.openInWorkspace(url)
            case .program(let executable, let programArguments):
                try await SystemBrowser.run(executable, programArguments)
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
            /// A program with its arguments (the URL is the last).
            case program(executable: String, arguments: [String])
        }

        /// Decides how to open `url`.
        /// - Throws: `web_auth_start_failed` for a URL that is not http(s).
        func launch(for url: URL) throws(AuthError) -> Launch {
            guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
                throw AuthError(.webAuthStartFailed, "Only http and https URLs are opened in a browser.")
            }
            guard let command else {
                #if os(macOS)
                    return .workspace
                #else
                    return .program(executable: "/usr/bin/env", arguments: ["xdg-open", url.absoluteString])
                #endif
            }
            if command.hasPrefix("/") {
                return .program(executable: command, arguments: arguments + [url.absoluteString])
            }
            return .program(executable: "/usr/bin/env", arguments: [command] + arguments + [url.absoluteString])
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
