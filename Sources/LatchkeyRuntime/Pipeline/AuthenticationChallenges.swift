/// Reads the challenges of a `WWW-Authenticate` field value (RFC 9110 §11.6.1).
///
/// A field is a comma-separated list of challenges, each an auth scheme (compared without case, RFC 9110 §11.1)
/// followed by a token68 or by `name=value` parameters (names compared without case, values a token or a quoted
/// string). One field can therefore hold several challenges, `Bearer realm="api", DPoP error="use_dpop_nonce"`,
/// and transports that join repeated fields with commas (URLSession does) hand over such a list for two
/// `WWW-Authenticate` fields.
enum AuthenticationChallenges {
    /// The values of one parameter in the challenges of one scheme.
    /// - Parameters:
    ///   - name: The parameter's name (`error`), compared without case.
    ///   - scheme: The challenge's auth scheme (`DPoP`), compared without case.
    ///   - field: One `WWW-Authenticate` field value.
    /// - Returns: The parameter's values, unquoted, in the order they appear.
    static func values(of name: String, inScheme scheme: String, of field: String) -> [String] {
        let bytes = Array(field.utf8.prefix(maximumFieldLength))
        let wantedScheme = scheme.lowercased()
        let wantedName = name.lowercased()
        var index = 0
        var currentScheme: String?
        var found: [String] = []
        while index < bytes.count {
            guard let token = readToken(bytes, &index) else {
                index += 1  // a separator, whitespace, or a byte no challenge starts with
                continue
            }
            var next = index
            skipWhitespace(bytes, &next)
            if next < bytes.count, bytes[next] == UInt8(ascii: "=") {
                // `name=value`: a parameter of the current challenge.
                index = next + 1
                skipWhitespace(bytes, &index)
                let value = readValue(bytes, &index)
                if currentScheme == wantedScheme, token.lowercased() == wantedName { found.append(value) }
            } else {
                // A token not followed by `=` starts a challenge (or is a token68, which names no parameter).
                currentScheme = token.lowercased()
            }
        }
        return found
    }

    /// The longest field value read: a challenge is a few hundred bytes.
    private static let maximumFieldLength = 8192

    /// RFC 9110 §5.6.2 `tchar`.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func skipWhitespace(_ bytes: [UInt8], _ index: inout Int) {
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            index += 1
        }
    }

    /// A token at `index`, or `nil` (and `index` unchanged) when none starts there.
    private static func readToken(_ bytes: [UInt8], _ index: inout Int) -> String? {
        let start = index
        while index < bytes.count, isTokenCharacter(bytes[index]) { index += 1 }
        return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }

    /// A parameter value: a quoted string (its escapes undone) or a token (empty when neither starts there).
    private static func readValue(_ bytes: [UInt8], _ index: inout Int) -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return readToken(bytes, &index) ?? "" }
        index += 1
        var value: [UInt8] = []
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
            value.append(bytes[index])
            index += 1
        }
        index += 1  // the closing quote
        return String(decoding: value, as: UTF8.self)
    }
}
