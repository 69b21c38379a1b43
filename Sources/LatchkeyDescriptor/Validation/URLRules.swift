import LatchkeyVocabulary

/// Rules for URLs in descriptors: https only, loopback http aside.
enum URLRules {
    static let loopbackHosts = ["127.0.0.1", "[::1]", "localhost"]

    /// Whether a literal URL is an absolute https URL with a host.
    static func isHTTPSURL(_ text: String) -> Bool {
        guard text.hasPrefix("https://") else { return false }
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII (every real URL): the same test on bytes, where a byte is a Character.
            let host = text.utf8.dropFirst(8).prefix {
                $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#")
            }
            return !host.isEmpty && !host.contains(UInt8(ascii: "@"))
                && !text.utf8.contains(where: { $0 == 0x20 || (0x09...0x0D).contains($0) })
        }
        let rest = text.dropFirst("https://".count)
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !host.isEmpty && !host.contains("@") && !text.contains(where: { $0.isWhitespace })
    }

    /// Whether a literal URL is https or http on a loopback host.
    static func isAllowedEndpoint(_ text: String) -> Bool {
        if isHTTPSURL(text) { return true }
        guard text.hasPrefix("http://") else { return false }
        let rest = text.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // `http://localhost:x@evil.example/` names evil.example (user info before `@`): never loopback.
        guard !authority.contains("@") else { return false }
        return loopbackHosts.contains { host in authority == host || authority.hasPrefix(host + ":") }
    }

    /// Checks an endpoint template: a literal start must be an https (or loopback http) URL;
    /// a variable start is checked at run time by the runtime.
    static func checkEndpoint(_ template: Template, _ node: JSONNode, _ sink: DiagnosticSink) {
        guard case .literal(let prefix)? = template.segments.first else { return }
        if template.segments.count == 1 {
            if !isAllowedEndpoint(prefix) {
                sink.error(
                    "endpoint \"\(prefix.prefix(80))\" is not https", at: node,
                    fixIt: "use https://, or http:// only on 127.0.0.1, [::1] or localhost")
            }
            return
        }
        let lower = prefix.lowercased()
        if lower.hasPrefix("https://") { return }
        if lower.hasPrefix("http://") {
            let rest = lower.dropFirst("http://".count)
            let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" && $0 != "{" }
            if !authority.contains("@"),
                loopbackHosts.contains(where: { rest.hasPrefix($0 + ":") || rest.hasPrefix($0 + "/") || rest == $0 })
            {
                return
            }
            sink.error(
                "endpoint \"\(prefix.prefix(80))…\" is not https", at: node,
                fixIt: "use https://, or http:// only on 127.0.0.1, [::1] or localhost")
            return
        }
        sink.error(
            "endpoint must start with https:// or with a URL variable such as {baseURL}, found \"\(prefix.prefix(40))\"",
            at: node)
    }
}
