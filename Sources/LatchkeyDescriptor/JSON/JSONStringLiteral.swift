/// Writes JSON string literals, for the tools that print JSON by hand (`latchkey-gen new`, the benchmark's
/// report): quotes and backslashes escaped, `\n`, `\r`, `\t` by name, other control characters as `\u00XX`,
/// everything else as it is (JSON text is UTF-8).
public enum JSONStringLiteral {
    /// The JSON string literal of a text, quotes included.
    /// - Parameter text: Any text.
    /// - Returns: `"…"`, valid JSON that decodes to `text`.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
