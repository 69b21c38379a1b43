import Foundation

/// What the loopback server does with one request: the rules of RFC 8252 §7.3 and §8.3 plus a DNS
/// rebinding guard, kept free of I/O so they are easy to read.
struct LoopbackRequestRules: Sendable {
    /// The decision for a request.
    enum Decision: Equatable {
        /// Answer with a plain error and keep waiting for the real callback.
        case reject(status: Int, reason: String)
        /// The callback arrived: answer with a page and finish with this URL.
        case callback(URL, isErrorResponse: Bool)
        /// The state does not match: answer 400 with the failure page and keep waiting (a request without
        /// the state proves nothing, so it cannot end the sign-in).
        case stateMismatch
        /// A `form_post` callback whose head is acceptable: read this many body bytes, then decide with
        /// ``decideFormPost(_:body:)``.
        case readForm(length: Int)
    }

    let path: String
    let expectedState: String?
    let address: LoopbackAddress
    let port: Int
    /// The callback URL's prefix (`http://HOST:PORT/PATH`, the host as the redirect URI spells it): the
    /// request's query, or a form body, is appended to it.
    let callbackBase: String
    /// Whether a `POST` of a form to the callback path is a callback (`response_mode=form_post`).
    var acceptsFormPost = false

    /// Decides what to do with a request head.
    func decide(_ head: HTTPRequestHead) -> Decision {
        let hosts = head.values(of: "Host")
        guard hosts.count == 1, allowedHosts.contains(hosts[0].lowercased()) else {
            return .reject(status: 400, reason: "unexpected Host header")
        }
        let isFormPost = acceptsFormPost && head.method == "POST"
        guard head.method == "GET" || isFormPost else {
            return .reject(
                status: 405, reason: acceptsFormPost ? "only GET and POST are allowed" : "only GET is allowed")
        }
        guard Self.isOriginForm(head.target) else {
            return .reject(status: 400, reason: "unexpected request target")
        }
        guard head.path == path else { return .reject(status: 404, reason: "not found") }
        if isFormPost { return formPostHead(head) }
        guard let url = URL(string: callbackBase + (head.query.map { "?" + $0 } ?? "")) else {
            return .reject(status: 400, reason: "malformed request target")
        }
        let items = Self.queryItems(head.query)
        if let expectedState {
            let states = items.filter { $0.name == "state" }.map(\.value)
            guard states == [expectedState] else { return .stateMismatch }
        }
        return .callback(url, isErrorResponse: items.contains { $0.name == "error" })
    }

    /// Whether a request target is in origin form (RFC 9112 §3.2.1: an absolute path and an optional query), the
    /// only form a browser sends to a server it is not using as a proxy. A fragment (`#`) is never sent, so a
    /// target holding one was written by hand: it could smuggle a fragment session (`#access_token=…`) into the
    /// callback URL. Absolute form (`http://…`), authority form (`host:port`), asterisk form (`*`), a target
    /// that starts with `//` (read as an authority by URL parsers) and raw non-ASCII bytes are refused as well.
    static func isOriginForm(_ target: String) -> Bool {
        guard target.hasPrefix("/"), !target.hasPrefix("//") else { return false }
        return target.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x20 && scalar.value < 0x7F && scalar != "#"
        }
    }

    /// The Host values accepted: the bound literal or `localhost`, with the port.
    var allowedHosts: Set<String> {
        [
            "\(address.urlHost):\(port)",
            "localhost:\(port)",
        ]
    }

    /// Splits a query into decoded items (`+` is a space, as in form encoding).
    static func queryItems(_ query: String?) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String {
                let spaced = part.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }
}
