import LatchkeyTokens

#if os(macOS) || os(Linux)
    import Foundation

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A private page that sends the browser on to the authorization URL, so that the URL (its `state`, `nonce`,
    /// code challenge and loopback port) is never on a command line, which every local user can read
    /// (`/proc/PID/cmdline`, `ps`). The page is a 0600 file in a fresh 0700 directory; only its path is passed.
    struct BrowserHandoffPage: Sendable {
        /// The private directory that holds the page.
        let directory: URL
        /// The page.
        let file: URL

        /// The page's HTML: a meta refresh and a script that replace the page with `url`, and a link for a browser
        /// that runs neither. The URL is escaped for an HTML attribute; the script reads it back from the link.
        static func html(for url: URL) -> String {
            let target = escaped(url.absoluteString)
            return """
                <!doctype html>
                <html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
                <meta http-equiv="refresh" content="0;url=\(target)">
                <title>Signing in</title></head>
                <body><p><a id="continue" href="\(target)">Continue to sign in</a></p>
                <script>location.replace(document.getElementById("continue").href)</script></body></html>

                """
        }

        /// Escapes text for a double-quoted HTML attribute.
        static func escaped(_ text: String) -> String {
            var result = ""
            for character in text {
                switch character {
                case "&": result += "&amp;"
                case "\"": result += "&quot;"
                case "'": result += "&#39;"
                case "<": result += "&lt;"
                case ">": result += "&gt;"
                default: result.append(character)
                }
            }
            return result
        }

        /// Where pages go by default: `$XDG_RUNTIME_DIR` (the user's own, 0700) when set, else the temporary
        /// directory.
        static func defaultBase(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
            if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
                return URL(fileURLWithPath: runtime, isDirectory: true)
            }
            return FileManager.default.temporaryDirectory
        }

        /// Writes the page for `url` in a new private directory under `base`.
        /// - Throws: `web_auth_start_failed` when the directory or the file cannot be made.
        static func write(_ url: URL, under base: URL) throws(AuthError) -> BrowserHandoffPage {
            var template = Array(base.appendingPathComponent("latchkey-sign-in-XXXXXX").path.utf8CString)
            let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
            guard made != nil else {
                throw AuthError(
                    .webAuthStartFailed,
                    "Could not make a private directory for the browser page: \(String(cString: strerror(errno))).")
            }
            let directory = URL(
                fileURLWithPath: String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self),
                isDirectory: true)
            let page = BrowserHandoffPage(directory: directory, file: directory.appendingPathComponent("sign-in.html"))
            let descriptor = open(page.file.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                let number = errno
                page.remove()
                throw AuthError(
                    .webAuthStartFailed, "Could not write the browser page: \(String(cString: strerror(number))).")
            }
            let bytes = Array(html(for: url).utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { systemWrite(descriptor, $0) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else {
                    _ = close(descriptor)
                    page.remove()
                    throw AuthError(.webAuthStartFailed, "Could not write the browser page.")
                }
                offset += written
            }
            _ = close(descriptor)
            return page
        }

        /// Deletes the page and its directory. Idempotent.
        func remove() {
            _ = unlink(file.path)
            _ = rmdir(directory.path)
        }
    }

    /// `write(2)` over a raw buffer.
    private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
        write(descriptor, buffer.baseAddress, buffer.count)
    }
#endif
