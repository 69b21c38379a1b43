import Foundation

/// The HTTP answer for a ``LoopbackPage``: status, headers (without `Content-Length` and `Connection`) and
/// body. Kept free of I/O so the escaping is easy to read and test.
struct LoopbackPageResponse {
    /// The provider's error, from a callback's `error` and `error_description`.
    struct ProviderError: Equatable {
        var error: String
        var description: String

        /// The provider's error in a callback's query (or form body), or `nil` when it carries none.
        init?(_ items: [(name: String, value: String)]) {
            guard let error = items.first(where: { $0.name == "error" })?.value else { return nil }
            self.error = error
            self.description = items.first { $0.name == "error_description" }?.value ?? ""
        }
    }

    /// The `Content-Security-Policy` of Latchkey's own pages: an inline style, nothing else.
    static let ownPagePolicy =
        "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    /// The answer for `page`.
    /// - Parameters:
    ///   - page: The page.
    ///   - status: The status of an HTML answer (a redirect is always 303).
    ///   - providerError: The provider's error to show, on a failure page only.
    init(_ page: LoopbackPage, status: Int, providerError: ProviderError?) {
        let common: [(name: String, value: String)] = [
            ("Cache-Control", "no-store"),
            ("Referrer-Policy", "no-referrer"),
            ("X-Content-Type-Options", "nosniff"),
        ]
        switch page {
        case .message(let title, let message):
            self.status = status
            self.headers =
                [("Content-Type", "text/html; charset=utf-8")] + common
                + [("Content-Security-Policy", Self.ownPagePolicy)]
            self.body = Array(Self.messageHTML(title: title, message: message, providerError: providerError).utf8)
        case .html(let html):
            self.status = status
            self.headers = [("Content-Type", "text/html; charset=utf-8")] + common
            let filled = html.replacingOccurrences(
                of: "{{error}}", with: Self.shown(providerError?.error ?? "")
            ).replacingOccurrences(of: "{{error_description}}", with: Self.shown(providerError?.description ?? ""))
            self.body = Array(filled.utf8)
        case .redirect(let url):
            self.status = 303
            self.headers =
                [("Location", url.absoluteString), ("Content-Type", "text/plain; charset=utf-8")] + common
            self.body = Array("See \(url.absoluteString)\n".utf8)
        }
    }

    /// Latchkey's plain page, with the provider's error when there is one.
    private static func messageHTML(title: String, message: String, providerError: ProviderError?) -> String {
        var detail = ""
        if let providerError {
            detail = "<p>The provider answered <code>\(shown(providerError.error))</code>"
            if !providerError.description.isEmpty { detail += ": \(shown(providerError.description))" }
            detail += "</p>"
        }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escaped(title))</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>body{font-family:system-ui,sans-serif;margin:4rem auto;max-width:32rem;padding:0 1rem;color:#222}</style>
            </head><body><h1>\(escaped(title))</h1><p>\(escaped(message))</p>\(detail)</body></html>
            """
    }

    /// Provider text as shown: control and bidirectional-override characters dropped, at most
    /// ``LoopbackPages/maximumProviderErrorCharacters`` characters (then an ellipsis), HTML-escaped.
    static func shown(_ text: String) -> String {
        let visible = String(
            String.UnicodeScalarView(
                text.unicodeScalars.filter { scalar in
                    !(scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                        || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value))
                }))
        let limit = LoopbackPages.maximumProviderErrorCharacters
        let short = visible.count > limit ? String(visible.prefix(limit)) + "…" : visible
        return escaped(short)
    }

    /// Escapes text for HTML element content and quoted attributes.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
