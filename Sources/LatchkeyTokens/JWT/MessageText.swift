/// Makes untrusted text (a `kid`, an `alg`, an `iss`) safe to quote in an ``AuthError`` message: control
/// and non-ASCII characters become `?`, and long values are cut short.
package enum MessageText {
    /// The text in quotes, printable ASCII only, at most `limit` characters.
    /// - Parameters:
    ///   - text: The untrusted text.
    ///   - limit: The longest quoted text, in characters.
    /// - Returns: For example `“key-1”`.
    package static func quoted(_ text: String, limit: Int = 64) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                out += "…"
                break
            }
            out += (0x20...0x7E).contains(scalar.value) ? String(scalar) : "?"
            count += 1
        }
        return "“" + out + "”"
    }
}
