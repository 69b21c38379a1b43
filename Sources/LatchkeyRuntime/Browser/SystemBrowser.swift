#if os(macOS) || os(Linux)
    import Foundation

    /// Opens URLs in the user's default browser: `xdg-open` on Linux, `open` on macOS.
    public struct SystemBrowser: Sendable {
        /// The program that opens a URL.
        public var command: String
        /// Arguments placed before the URL.
        public var arguments: [String]

        /// Creates an opener.
        /// - Parameters:
        ///   - command: The program (default `/usr/bin/open` on macOS, `xdg-open` elsewhere, found on `PATH`).
        ///   - arguments: Arguments before the URL.
        public init(command: String? = nil, arguments: [String] = []) {
            #if os(macOS)
                self.command = command ?? "/usr/bin/open"
            #else
                self.command = command ?? "xdg-open"
            #endif
            self.arguments = arguments
        }

        /// Opens a URL.
        /// - Parameter url: The URL (http or https only).
        /// - Throws: `web_auth_start_failed` when the program cannot be started or fails.
        public func open(_ url: URL) async throws(AuthError) {
            guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
                throw AuthError(.webAuthStartFailed, "Only http and https URLs are opened in a browser.")
            }
            let process = Process()
            if command.hasPrefix("/") {
                process.executableURL = URL(fileURLWithPath: command)
                process.arguments = arguments + [url.absoluteString]
            } else {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = [command] + arguments + [url.absoluteString]
            }
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
                throw AuthError(.webAuthStartFailed, "Could not start \(command): \(error.localizedDescription)")
            }
            guard status == 0 else { throw AuthError(.webAuthStartFailed, "\(command) exited with status \(status).") }
        }

        /// The opener as a closure for ``AuthClient/signInWithLoopback(open:timeout:scopes:)``.
        public var opener: @Sendable (URL) async throws(AuthError) -> Void {
            { url throws(AuthError) in try await self.open(url) }
        }
    }
#endif
