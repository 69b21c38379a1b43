extension JSONScanner {
    /// The literal words JSON has.
    static let literals = ["false", "null", "true"]

    // MARK: - Numbers

    /// Scans a number whose first byte (`-` or a digit) is current and returns its lexeme.
    mutating func scanNumber() throws(JSONSyntaxError) -> String {
        let start = offset
        let startLocation = location
        if consume(UInt8(ascii: "-")) {
            guard let byte = current, Self.isDigit(byte) else {
                if let byte = current, Self.isLetter(byte) {
                    let lower = word(at: offset).text.lowercased()
                    if lower == "infinity" || lower == "inf" || lower == "nan" {
                        throw JSONSyntaxError(
                            "-\(word(at: offset).text) is not allowed in JSON: numbers must be finite",
                            at: startLocation, fixIt: "use null or a string")
                    }
                }
                throw unexpected("expected a digit after '-'")
            }
        }
        if current == UInt8(ascii: "0") {
            advance()
            if let byte = current {
                if Self.isDigit(byte) {
                    throw JSONSyntaxError(
                        "leading zeros are not allowed in JSON numbers", at: startLocation,
                        fixIt: "remove the leading zero, or quote the value as a string")
                }
                if byte == UInt8(ascii: "x") || byte == UInt8(ascii: "X") {
                    throw JSONSyntaxError(
                        "hexadecimal numbers are not allowed in JSON", at: startLocation,
                        fixIt: "write the number in decimal")
                }
            }
        } else {
            while let byte = current, Self.isDigit(byte) { advance() }
        }
        if consume(UInt8(ascii: ".")) {
            guard let byte = current, Self.isDigit(byte) else {
                throw unexpected("expected a digit after the decimal point")
            }
            while let byte = current, Self.isDigit(byte) { advance() }
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard let byte = current, Self.isDigit(byte) else {
                throw unexpected("expected a digit in the exponent")
            }
            while let byte = current, Self.isDigit(byte) { advance() }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
    }

    // MARK: - Literals and other value starts

    /// Scans `true`, `false` or `null` at a non-empty position, or throws the most helpful error
    /// for whatever else is there (a bare word, a single quote, `+1`, `.5`, a comment, bad UTF-8...).
    mutating func scanLiteral(expected: String) throws(JSONSyntaxError) -> JSONValue {
        let start = location
        let byte = bytes[offset]
        if Self.isLetter(byte) {
            let (text, end) = word(at: offset)
            switch text {
            case "true":
                offset = end
                return .bool(true)
            case "false":
                offset = end
                return .bool(false)
            case "null":
                offset = end
                return .null
            default:
                throw literalProblem(text, at: start, expected: expected)
            }
        }
        switch byte {
        case UInt8(ascii: "'"):
            throw singleQuoteError()
        case UInt8(ascii: "+"):
            if let next = self.byte(at: offset + 1), Self.isLetter(next) {
                let text = word(at: offset + 1).text
                if ["infinity", "inf", "nan"].contains(text.lowercased()) {
                    throw JSONSyntaxError(
                        "+\(text) is not allowed in JSON: numbers must be finite", at: start,
                        fixIt: "use null or a string")
                }
            }
            throw JSONSyntaxError("a JSON number cannot start with '+'", at: start, fixIt: "remove the '+'")
        case UInt8(ascii: "."):
            if let next = self.byte(at: offset + 1), Self.isDigit(next) {
                throw JSONSyntaxError(
                    "a JSON number cannot start with '.'", at: start, fixIt: "write a 0 before the '.'")
            }
            throw unexpected(expected)
        default:
            throw unexpected(expected)
        }
    }

    private func literalProblem(_ text: String, at start: SourceLocation, expected: String) -> JSONSyntaxError {
        let lower = text.lowercased()
        let shown = Self.truncated(text)
        switch lower {
        case "nan", "infinity", "inf":
            return JSONSyntaxError(
                "\(shown) is not allowed in JSON: numbers must be finite", at: start,
                fixIt: "use null or a string")
        case "true", "false", "null":
            return JSONSyntaxError(
                "invalid literal '\(shown)': JSON literals are lowercase", at: start, fixIt: "write '\(lower)'")
        case "undefined", "none", "nil":
            return JSONSyntaxError("'\(shown)' is not a JSON value", at: start, fixIt: "use null")
        default:
            if let literal = Self.literals.first(where: { $0.hasPrefix(lower) })
                ?? Suggestions.closest(to: lower, among: Self.literals)
            {
                return JSONSyntaxError(
                    "invalid literal '\(shown)'; did you mean '\(literal)'?", at: start,
                    fixIt: "write '\(literal)'")
            }
            return JSONSyntaxError(
                "\(expected), found '\(shown)'", at: start, fixIt: "write strings in double quotes")
        }
    }

    private func singleQuoteError() -> JSONSyntaxError {
        JSONSyntaxError(
            "single-quoted strings are not allowed in JSON: use double quotes", at: location,
            fixIt: "replace the ' quotes with \"")
    }

    // MARK: - Unexpected input

    /// The error for an object key position that doesn't hold a `"`.
    func keyProblem(expected: String) -> JSONSyntaxError {
        if let problem = commonProblem() { return problem }
        guard let byte = current else { return unexpected(expected) }
        if byte == UInt8(ascii: "'") { return singleQuoteError() }
        if Self.isWordByte(byte) {
            let text = word(at: offset).text
            return JSONSyntaxError(
                "object keys must be double-quoted strings, found '\(Self.truncated(text))'", at: location,
                fixIt: "write \(Self.quoted(text))")
        }
        return unexpected(expected)
    }

    /// "`expected`, found X" at the current position, unless a comment or bad UTF-8 is there.
    func unexpected(_ expected: String) -> JSONSyntaxError {
        if let problem = commonProblem() { return problem }
        var fixIt: String?
        if let byte = current, byte >= 0x80, let scalar = scalar(at: offset) {
            switch scalar.value {
            case 0x2018, 0x2019, 0x201C, 0x201D: fixIt = "use straight double quotes (\")"
            case 0xA0, 0xFEFF, 0x2000...0x200B, 0x3000:
                fixIt = "JSON whitespace is only space, tab, line feed and carriage return"
            default: break
            }
        }
        return JSONSyntaxError("\(expected), found \(describe(at: offset))", at: location, fixIt: fixIt)
    }

    /// A comment or ill-formed UTF-8 at the current position, which any context reports the same way.
    func commonProblem() -> JSONSyntaxError? {
        guard let byte = current else { return nil }
        if byte == UInt8(ascii: "/"), let next = self.byte(at: offset + 1),
            next == UInt8(ascii: "/") || next == UInt8(ascii: "*")
        {
            return JSONSyntaxError("comments are not allowed in JSON", at: location, fixIt: "remove the comment")
        }
        if byte >= 0x80, utf8Length(at: offset) == nil {
            return invalidUTF8Error()
        }
        return nil
    }

    /// How the input at `position` is named in "found ..." messages.
    /// - Parameter wholeWord: Whether a letter is shown with the rest of its word.
    func describe(at position: Int, wholeWord: Bool = true) -> String {
        guard let byte = byte(at: position) else { return "end of file" }
        switch byte {
        case UInt8(ascii: "'"):
            return "\"'\""
        case _ where wholeWord && Self.isLetter(byte):
            return "'\(Self.truncated(word(at: position).text))'"
        case 0x21...0x7E:
            return "'\(Character(Unicode.Scalar(byte)))'"
        case 0x20:
            return "a space"
        case 0x00:
            return "U+0000 (NUL)"
        case 0x09:
            return "U+0009 (tab)"
        case 0x0A:
            return "U+000A (line feed)"
        case 0x0D:
            return "U+000D (carriage return)"
        case 0x01..<0x20, 0x7F:
            return "control character \(Self.scalarCode(Unicode.Scalar(byte)))"
        default:
            guard let scalar = scalar(at: position) else { return "invalid UTF-8 byte \(Self.hex(byte))" }
            let code = Self.scalarCode(scalar)
            switch scalar.value {
            case 0xA0: return "a non-breaking space (\(code))"
            case 0xFEFF: return "a byte order mark (\(code))"
            case 0x2018, 0x2019, 0x201C, 0x201D: return "a curly quote '\(Character(scalar))' (\(code))"
            default:
                if scalar.properties.generalCategory == .control || scalar.properties.isWhitespace
                    || scalar.properties.generalCategory == .format
                {
                    return code
                }
                return "'\(Character(scalar))' (\(code))"
            }
        }
    }

    // MARK: - Showing user text in messages

    /// `text` cut to `limit` scalars with an ellipsis.
    static func truncated(_ text: String, limit: Int = 40) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit { return result + "…" }
            result.unicodeScalars.append(scalar)
            count += 1
        }
        return result
    }

    /// `text` as a JSON string literal, cut to `limit` scalars, for messages.
    static func quoted(_ text: String, limit: Int = 40) -> String {
        var result = "\""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                result += "…"
                break
            }
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u" + scalarCode(scalar).dropFirst(2)
            default: result.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return result + "\""
    }
}
