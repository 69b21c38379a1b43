#if os(macOS) || os(Linux)
    import Foundation
    @testable import LatchkeyRuntime
    import Testing

    /// Issue 17, item 8: how ``SystemBrowser`` opens a URL (NSWorkspace on macOS, never a child process there
    /// by default); issue 28, item 2: a program gets a private page's path, never the URL.
    @Suite("Browser: system browser launch")
    struct SystemBrowserLaunchTests {
        private let url = URL(string: "https://id.example.com/authorize?client_id=acme&state=s3cret")!
        private let page = "/run/user/1000/latchkey-sign-in-AbC123/sign-in.html"

        @Test("the default opener is NSWorkspace on macOS and xdg-open of the page on Linux")
        func platformDefault() throws {
            #if os(macOS)
                #expect(try SystemBrowser().launch(for: url, page: page) == .workspace)
            #else
                #expect(
                    try SystemBrowser().launch(for: url, page: page)
                        == .program(executable: "/usr/bin/env", arguments: ["xdg-open", page]))
            #endif
        }

        @Test("a named program is run with its arguments and the page last")
        func namedProgram() throws {
            #expect(
                try SystemBrowser(command: "/usr/bin/firefox", arguments: ["--new-window"]).launch(
                    for: url, page: page)
                    == .program(executable: "/usr/bin/firefox", arguments: ["--new-window", page]))
            #expect(
                try SystemBrowser(command: "firefox").launch(for: url, page: page)
                    == .program(executable: "/usr/bin/env", arguments: ["firefox", page]))
        }

        @Test("only http and https URLs are opened")
        func refusesOtherSchemes() {
            let error = #expect(throws: AuthError.self) {
                try SystemBrowser().launch(for: URL(string: "file:///etc/passwd")!, page: page)
            }
            #expect(error?.code == .webAuthStartFailed)
        }

        @Test("the page redirects to the URL, escaped for an attribute")
        func pageHTML() {
            let tricky = URL(string: "https://id.example.com/a?x='%22&y=%3C%3E&z=<b>")
            let html = BrowserHandoffPage.html(for: tricky ?? url)
            let target = BrowserHandoffPage.escaped((tricky ?? url).absoluteString)
            #expect(html.contains(#"<meta http-equiv="refresh" content="0;url=\#(target)">"#))
            #expect(html.contains(#"<a id="continue" href="\#(target)">"#))
            #expect(html.contains("location.replace"))
            #expect(BrowserHandoffPage.escaped(#"a&b"c'd<e>f"#) == "a&amp;b&quot;c&#39;d&lt;e&gt;f")
        }

        #if os(Linux)
            @Test("on the wire: the program gets a 0600 page in a 0700 directory, not the URL, and the page goes")
            func pageOnTheWire() async throws {
                let base = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "latchkey-browser-\(UUID().uuidString)", isDirectory: true)
                try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: base) }
                let report = base.appendingPathComponent("report.txt").path
                // The "browser": records the page's and its directory's modes, the page, and its own command line.
                let script =
                    "stat -c '%a' \"$0\" \"$(dirname \"$0\")\" > '\(report)'; cat \"$0\" >> '\(report)'; "
                    + "tr '\\0' ' ' < /proc/$$/cmdline >> '\(report)'"
                var browser = SystemBrowser(command: "/bin/sh", arguments: ["-c", script], pageDirectory: base)
                browser.pageLifetime = .milliseconds(200)
                try await browser.open(url)
                let text = try String(contentsOfFile: report, encoding: .utf8)
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(lines.prefix(2) == ["600", "700"])
                #expect(text.contains(BrowserHandoffPage.escaped(url.absoluteString)))
                let commandLine = String(lines.last ?? "")
                #expect(commandLine.contains("sign-in.html"))
                #expect(!commandLine.contains("s3cret"), "the URL is not on the command line")
                // Deleted 200 ms after the program returned; a loaded machine may take longer to get round to it.
                var left = try FileManager.default.contentsOfDirectory(atPath: base.path)
                for _ in 0..<300 where left != ["report.txt"] {
                    try await LatchkeyDuration.sleep(.milliseconds(100))
                    left = try FileManager.default.contentsOfDirectory(atPath: base.path)
                }
                #expect(left == ["report.txt"], "the page and its directory are deleted")
            }
        #endif
    }
#endif
