import LatchkeyDescriptor

/// Escapes text for Swift source: identifiers, string literals and comments.
public enum SwiftLiteral {
    /// A valid identifier for any text (see ``SwiftNames/identifier(_:)``).
    public static func identifier(_ text: String) -> String {
        SwiftNames.identifier(text)
    }

    /// A Swift string literal with quotes. Backslashes, quotes, control characters, line and
    /// paragraph separators and every non-ASCII scalar are escaped, so the literal is plain ASCII,
    /// cannot end early, and cannot interpolate.
    public static func string(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 2)
        appendString(text, to: &out)
        return out
    }

    /// Appends ``string(_:)`` of `text` to `out`.
    static func appendString(_ text: String, to out: inout String) {
        out += "\""
        // Most text is printable ASCII without a quote or backslash: it is its own literal.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "\"") }) {
            out += text
        } else {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\\": out += "\\\\"
                case "\"": out += "\\\""
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "\0": out += "\\0"
                default:
                    if scalar.value >= 0x20 && scalar.value < 0x7F {
                        out.unicodeScalars.append(scalar)
                    } else {
                        out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                    }
                }
            }
        }
        out += "\""
    }

    /// Appends the UTF-8 of ``string(_:)`` of `text` to `out`.
    static func appendString(_ text: String, to out: inout [UInt8]) {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "\"") }) {
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: text.utf8)
            out.append(UInt8(ascii: "\""))
        } else {
            out.append(contentsOf: string(text).utf8)
        }
    }

    /// The UTF-8 length of ``string(_:)`` of `text`, without building it.
    static func stringWidth(_ text: String) -> Int {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "\"") }) {
            return text.utf8.count + 2
        }
        var width = 2
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\", "\"", "\n", "\r", "\t", "\0": width += 2
            default:
                if scalar.value >= 0x20 && scalar.value < 0x7F {
                    width += 1
                } else {
                    // `\u{` hex digits `}`
                    width += 4 + (UInt32.bitWidth - scalar.value.leadingZeroBitCount + 3) / 4
                }
            }
        }
        return width
    }

    /// Text for a comment: every line break (including U+2028, U+2029, CR, NEL) starts a new comment
    /// line with `continuation`; other control characters become spaces.
    public static func commentText(_ text: String, continuation: String) -> String {
        // Printable ASCII has no line break and no control character: one line, as it is.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.replacingTrailingSpaces() }
        var lines: [String] = [""]
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            let isBreak: Bool
            switch scalar {
            case "\n", "\r", "\u{2028}", "\u{2029}", "\u{85}", "\u{0B}", "\u{0C}": isBreak = true
            default: isBreak = false
            }
            if isBreak {
                if !(scalar == "\n" && previousWasCR) { lines.append("") }
                previousWasCR = scalar == "\r"
                continue
            }
            previousWasCR = false
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                lines[lines.count - 1] += " "
            } else {
                lines[lines.count - 1].unicodeScalars.append(scalar)
            }
        }
        let trimmed = lines.map { $0.replacingTrailingSpaces() }
        return trimmed.joined(separator: "\n" + continuation).replacingTrailingSpaces()
    }

    /// Whether text is a plain absolute https URL, or http on a loopback host.
    public static func isSafeURL(_ text: String) -> Bool {
        let loopback = ["http://127.0.0.1", "http://localhost", "http://[::1]"]
        let ok = text.hasPrefix("https://") || loopback.contains { text.hasPrefix($0) }
        return ok && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "\\" }
    }
}

extension String {
    fileprivate func replacingTrailingSpaces() -> String {
        guard utf8.last == UInt8(ascii: " ") else { return self }
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
