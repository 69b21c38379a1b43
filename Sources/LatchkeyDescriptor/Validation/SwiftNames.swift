/// Naming rules shared by validation and generation: descriptor names, Swift identifiers, codes.
public enum SwiftNames {
    /// Swift keywords that must be escaped with backticks when used as identifiers.
    public static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer",
        "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
        "async", "some", "any", "consume", "copy", "discard", "each", "borrowing", "consuming", "Type", "Protocol",
        "actor", "package", "macro",
    ]

    /// Whether a provider name is lower-case words of letters and digits joined by single hyphens.
    public static func isValidDescriptorName(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        guard (1...64).contains(scalars.count), let first = scalars.first, ("a"..."z").contains(first) else {
            return false
        }
        var previousHyphen = false
        for scalar in scalars {
            if scalar == "-" {
                if previousHyphen { return false }
                previousHyphen = true
            } else if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                previousHyphen = false
            } else {
                return false
            }
        }
        return !previousHyphen
    }

    /// `base-idp` → `BaseIdp`; words split on hyphens, each capitalized.
    public static func upperCamelCase(_ name: String) -> String {
        name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// `reset-password`/`reset_password`/`resetPassword` → `resetPassword`.
    public static func lowerCamelCase(_ name: String) -> String {
        if name.utf8.allSatisfy({ $0 < 0x80 }) { return lowerCamelCaseASCII(name) }
        let words = name.split(whereSeparator: { $0 == "-" || $0 == "_" })
        guard let first = words.first else { return name }
        return first.prefix(1).lowercased() + first.dropFirst()
            + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// ``lowerCamelCase(_:)`` for ASCII text, byte by byte.
    private static func lowerCamelCaseASCII(_ name: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(name.utf8.count)
        var wordStart = true
        var words = 0
        for byte in name.utf8 {
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") {
                wordStart = true
                continue
            }
            if wordStart {
                words += 1
                let isUpper = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
                let isLower = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
                out.append(words == 1 ? (isUpper ? byte + 32 : byte) : (isLower ? byte - 32 : byte))
                wordStart = false
            } else {
                out.append(byte)
            }
        }
        return words == 0 ? name : String(decoding: out, as: UTF8.self)
    }

    /// Whether a string is an ASCII UpperCamelCase identifier usable as a type-name prefix.
    public static func isValidTypeNamePrefix(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        guard (1...64).contains(scalars.count), let first = scalars.first, ("A"..."Z").contains(first) else {
            return false
        }
        return scalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
            && !keywords.contains(name)
    }

    /// Whether a string is an ASCII lowerCamelCase identifier (not a keyword).
    public static func isValidLowerCamelIdentifier(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        guard (1...64).contains(scalars.count), let first = scalars.first, ("a"..."z").contains(first) else {
            return false
        }
        return scalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
            && !keywords.contains(name)
    }

    /// Whether a string is a lower_snake_case error code.
    public static func isValidErrorCode(_ code: String) -> Bool {
        let scalars = Array(code.unicodeScalars)
        guard (1...64).contains(scalars.count), let first = scalars.first, ("a"..."z").contains(first) else {
            return false
        }
        return scalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// Turns any text into a valid Swift identifier: invalid characters become `_`, a leading digit
    /// gets a `_` prefix, and keywords are wrapped in backticks.
    public static func identifier(_ text: String) -> String {
        var result = text
        // Most names are ASCII letters and digits already: kept as they are, with no copy.
        if !text.utf8.allSatisfy(isASCIILetterOrDigit) {
            var scalars = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                scalars.append(scalar.isASCII && isASCIILetterOrDigit(UInt8(scalar.value)) ? scalar : "_")
            }
            result = String(scalars)
        }
        if result.isEmpty { result = "_" }
        if let first = result.unicodeScalars.first, ("0"..."9").contains(first) { result = "_" + result }
        return keywords.contains(result) ? "`\(result)`" : result
    }

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: false
        }
    }
}
