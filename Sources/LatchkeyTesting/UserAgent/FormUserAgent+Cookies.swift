import Foundation
import LatchkeyPlatform

/// The cookie jar of a ``FormUserAgent``: enough of RFC 6265 for login pages (host-only and `Domain`
/// cookies, `Path`, `Secure`, `Max-Age`, `Expires`).
final class CookieJar: Sendable {
    struct Cookie: Sendable, Equatable {
        var name: String
        var value: String
        /// The host (host-only) or the `Domain` attribute without a leading dot.
        var domain: String
        var hostOnly: Bool
        var path: String
        var secure: Bool
        var expires: Date?
    }

    private let cookies = Locked<[Cookie]>([])

    /// The `name=value` pairs to send to a URL, longest path first (RFC 6265 §5.4).
    func cookies(for url: URL, now: Date) -> [(name: String, value: String)] {
        let host = (url.host ?? "").lowercased()
        let raw = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? url.path
        let path = raw.isEmpty ? "/" : raw
        let secure = url.scheme?.lowercased() == "https"
        return cookies.withLock { jar in
            jar.removeAll { $0.expires.map { $0 <= now } ?? false }
            return jar.filter { cookie in
                (cookie.hostOnly
                    ? host == cookie.domain : (host == cookie.domain || host.hasSuffix("." + cookie.domain)))
                    && Self.pathMatches(path, cookie.path) && (!cookie.secure || secure)
            }
            .sorted { $0.path.count > $1.path.count }
            .map { ($0.name, $0.value) }
        }
    }

    /// Stores the cookies of a `Set-Cookie` header (several headers may arrive joined by commas).
    func store(_ header: String, from url: URL, now: Date) {
        for line in Self.split(header) {
            guard let cookie = Self.parse(line, from: url, now: now) else { continue }
            cookies.withLock { jar in
                jar.removeAll { $0.name == cookie.name && $0.domain == cookie.domain && $0.path == cookie.path }
                if cookie.expires.map({ $0 > now }) ?? true { jar.append(cookie) }
            }
        }
    }

    /// Splits joined `Set-Cookie` values at commas that start a new cookie (not the comma of an
    /// `Expires=Thu, 01 Jan 2026 ...` date).
    static func split(_ header: String) -> [String] {
        var out: [String] = []
        for piece in header.components(separatedBy: ",") {
            if let last = out.last,
                last.range(of: #"expires=\s*[A-Za-z]{3,9}$"#, options: [.regularExpression, .caseInsensitive]) != nil
            {
                out[out.count - 1] = last + "," + piece
            } else {
                out.append(piece)
            }
        }
        return out.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func parse(_ line: String, from url: URL, now: Date) -> Cookie? {
        var parts = line.components(separatedBy: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !parts.isEmpty, let equals = parts[0].firstIndex(of: "=") else { return nil }
        let name = String(parts[0][..<equals]).trimmingCharacters(in: .whitespaces)
        var value = String(parts[0][parts[0].index(after: equals)...]).trimmingCharacters(in: .whitespaces)
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
            value = String(value.dropFirst().dropLast())
        }
        guard !name.isEmpty else { return nil }
        parts.removeFirst()
        let host = (url.host ?? "").lowercased()
        var cookie = Cookie(
            name: name, value: value, domain: host, hostOnly: true, path: defaultPath(url), secure: false, expires: nil)
        var maxAge: Double?
        for attribute in parts {
            let pieces = attribute.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = pieces[0].trimmingCharacters(in: .whitespaces).lowercased()
            let argument = pieces.count > 1 ? pieces[1].trimmingCharacters(in: .whitespaces) : ""
            switch key {
            case "domain":
                var domain = argument.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                guard !domain.isEmpty else { continue }
                guard host == domain || host.hasSuffix("." + domain) else { return nil }
                cookie.domain = domain
                cookie.hostOnly = false
            case "path":
                if argument.hasPrefix("/") { cookie.path = argument }
            case "secure":
                cookie.secure = true
            case "max-age":
                if let seconds = Double(argument) { maxAge = seconds }
            case "expires":
                if let date = httpDate(argument) { cookie.expires = date }
            default:
                break
            }
        }
        if let maxAge { cookie.expires = now.addingTimeInterval(maxAge) }
        return cookie
    }

    private static func defaultPath(_ url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? url.path
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    private static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).hasPrefix("/")
    }

    private static func httpDate(_ text: String) -> Date? {
        for format in [
            "EEE, dd MMM yyyy HH:mm:ss zzz", "EEE, dd-MMM-yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz",
        ] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
