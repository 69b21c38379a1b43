import Foundation

/// A value that holds a secret (a token, a client secret, a code, a state) and shows only a redacted summary:
/// its `description`, its `debugDescription` and its mirror (what `dump`, debuggers and `String(reflecting:)`
/// print) are that summary and nothing else.
///
/// A conforming type writes `description` without its secrets; the rest comes from here.
public protocol RedactedReflecting: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {}

extension RedactedReflecting {
    /// The redacted `description`.
    public var debugDescription: String { description }

    /// A mirror with one child, `summary`: the redacted `description`, so `dump` never prints a secret.
    public var customMirror: Mirror { Mirror(self, children: ["summary": description], displayStyle: .struct) }
}

extension URL {
    /// The URL without its query, fragment or user information, which may carry secrets.
    var redactedForDisplay: String {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return "<url>" }
        let hidden = components.query != nil || components.fragment != nil || components.user != nil
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return (components.string ?? "<url>") + (hidden ? " (query redacted)" : "")
    }
}
