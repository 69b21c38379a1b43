#if os(macOS) || os(Linux)
    import Foundation
    @testable import LatchkeyRuntime
    import Testing

    /// Issue 17, item 8: how ``SystemBrowser`` opens a URL (NSWorkspace on macOS, never a child process there
    /// by default).
    @Suite("Browser: system browser launch")
    struct SystemBrowserLaunchTests {
        private let url = URL(string: "https://id.example.com/authorize?client_id=acme")!

        @Test("the default opener is NSWorkspace on macOS and xdg-open on Linux")
        func platformDefault() throws {
            #if os(macOS)
                #expect(try SystemBrowser().launch(for: url) == .workspace)
            #else
                #expect(
                    try SystemBrowser().launch(for: url)
                        == .program(executable: "/usr/bin/env", arguments: ["xdg-open", url.absoluteString]))
            #endif
        }

        @Test("a named program is run with its arguments and the URL last")
        func namedProgram() throws {
            #expect(
                try SystemBrowser(command: "/usr/bin/firefox", arguments: ["--new-window"]).launch(for: url)
                    == .program(executable: "/usr/bin/firefox", arguments: ["--new-window", url.absoluteString]))
            #expect(
                try SystemBrowser(command: "firefox").launch(for: url)
                    == .program(executable: "/usr/bin/env", arguments: ["firefox", url.absoluteString]))
        }

        @Test("only http and https URLs are opened")
        func refusesOtherSchemes() {
            let error = #expect(throws: AuthError.self) {
                try SystemBrowser().launch(for: URL(string: "file:///etc/passwd")!)
            }
            #expect(error?.code == .webAuthStartFailed)
        }
    }
#endif
