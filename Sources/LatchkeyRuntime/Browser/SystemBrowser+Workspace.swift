import LatchkeyTokens

#if os(macOS) || os(Linux)
    import Foundation
    #if canImport(AppKit)
        import AppKit
    #endif

    extension SystemBrowser {
        /// Opens `url` with `NSWorkspace` on the main actor (no child process, so it works in the App Sandbox).
        /// - Throws: `web_auth_start_failed` when no application opened it, or where there is no `NSWorkspace`.
        static func openInWorkspace(_ url: URL) async throws(AuthError) {
            #if canImport(AppKit)
                let opened = await MainActor.run { NSWorkspace.shared.open(url) }
                guard opened else { throw AuthError(.webAuthStartFailed, "No application opened the browser URL.") }
            #else
                throw AuthError(.webAuthStartFailed, "This platform has no workspace to open URLs with.")
            #endif
        }
    }
#endif
