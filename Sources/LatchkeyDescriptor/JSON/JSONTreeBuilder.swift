/// Builds the ``JSONNode`` tree with an explicit stack (no recursion), so no input can overflow
/// the call stack; nesting is limited to ``JSONParser/maximumDepth`` levels.
struct JSONTreeBuilder {
    /// An array or object that has been opened but not closed.
    private struct Frame {
        var isObject: Bool
        var start: SourceLocation
        var pointer: JSONPointer
        /// The container's pointer as a chain its children's pointers share.
        var chain: JSONPointer.Link?
        var elements: [JSONNode] = []
        var members: [JSONMember] = []
        /// Each key's first member position, kept once the object has more than
        /// `JSONObject.indexThreshold` members.
        var keyIndex: [String: Int] = [:]
        var pendingKey = ""
        var pendingKeyLocation = SourceLocation.start

        var kindName: String { isObject ? "object" : "array" }

        /// Where the first member named `key` is, if there is one.
        func firstKeyLocation(of key: String) -> SourceLocation? {
            if members.count > JSONObject.indexThreshold {
                return keyIndex[key].map { members[$0].keyLocation }
            }
            for index in members.indices where members[index].key == key {
                return members[index].keyLocation
            }
            return nil
        }

        mutating func appendMember(_ value: consuming JSONNode) {
            members.append(JSONMember(key: pendingKey, keyLocation: pendingKeyLocation, value: value))
            if members.count == JSONObject.indexThreshold + 1 {
                for (position, member) in members.enumerated() where keyIndex[member.key] == nil {
                    keyIndex[member.key] = position
                }
            } else if members.count > JSONObject.indexThreshold + 1, keyIndex[pendingKey] == nil {
                keyIndex[pendingKey] = members.count - 1
            }
        }
    }

    private var scanner: JSONScanner
    private var stack: [Frame] = []
    /// Duplicate-key errors, which don't stop parsing.
    private var diagnostics: [Diagnostic] = []
    /// The pointer of the value being parsed (or of the last one parsed).
    private var valuePointer = JSONPointer.root
    /// Whether the scanner is inside a value (errors then concern `valuePointer`) rather than
    /// between the members or elements of the innermost container (errors concern the container).
    private var inValue = true

    init(bytes: UnsafeBufferPointer<UInt8>) {
        scanner = JSONScanner(bytes: bytes)
    }

    /// Parses the whole input.
    mutating func run() -> JSONParseResult {
        scanner.skipWhitespace()
        if scanner.isAtEnd {
            let empty = Diagnostic.error(
                "the file is empty: a descriptor is a JSON object", at: .start, pointer: "",
                fixIt: "write a JSON object, e.g. {}")
            return JSONParseResult(root: nil, diagnostics: [empty])
        }
        do {
            let root = try parseDocument()
            return JSONParseResult(root: root, diagnostics: diagnostics)
        } catch {
            let pointer = inValue ? valuePointer : (stack.last?.pointer ?? .root)
            return JSONParseResult(root: nil, diagnostics: diagnostics + [error.diagnostic(defaultPointer: pointer)])
        }
    }

    private enum ValueContext {
        case topLevel
        case firstElement
        case nextElement
        case memberValue

        var expected: String {
            switch self {
            case .topLevel: "expected a JSON value"
            case .firstElement: "expected a JSON value or ']' after '['"
            case .nextElement: "expected a JSON value after ','"
            case .memberValue: "expected a value after ':'"
            }
        }
    }

    private func expectation(_ context: ValueContext) -> String {
        if case .memberValue = context, let top = stack.last {
            return "expected a value for the key \(JSONScanner.quoted(top.pendingKey)) after ':'"
        }
        return context.expected
    }

    private mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
        var context = ValueContext.topLevel
        document: while true {
            // The scanner is at the first byte of a value (whitespace already skipped).
            inValue = true
            let location = scanner.location
            var node: JSONNode
            guard let first = scanner.current else { throw endOfFileError() }
            switch first {
            case UInt8(ascii: "{"):
                try checkDepth(at: location)
                scanner.advance()
                scanner.skipWhitespace()
                if scanner.consume(UInt8(ascii: "}")) {
                    node = JSONNode(value: .object(JSONObject()), location: location, pointer: valuePointer)
                } else {
                    stack.append(
                        Frame(isObject: true, start: location, pointer: valuePointer, chain: valuePointer.chain))
                    let key = try parseMemberKey(afterComma: false)
                    valuePointer = JSONPointer(chain: stack[stack.count - 1].chain, name: key)
                    context = .memberValue
                    continue document
                }
            case UInt8(ascii: "["):
                try checkDepth(at: location)
                scanner.advance()
                scanner.skipWhitespace()
                if scanner.consume(UInt8(ascii: "]")) {
                    node = JSONNode(value: .array([]), location: location, pointer: valuePointer)
                } else {
                    stack.append(
                        Frame(isObject: false, start: location, pointer: valuePointer, chain: valuePointer.chain))
                    valuePointer = JSONPointer(chain: stack[stack.count - 1].chain, index: 0)
                    context = .firstElement
                    continue document
                }
            case UInt8(ascii: "\""):
                node = JSONNode(value: .string(try scanner.scanString()), location: location, pointer: valuePointer)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let number = JSONNumber(validLexeme: try scanner.scanNumber())
                node = JSONNode(value: .number(number), location: location, pointer: valuePointer)
            default:
                node = JSONNode(
                    value: try scanner.scanLiteral(expected: expectation(context)), location: location,
                    pointer: valuePointer)
            }

            // Attach the finished value to its container; close containers as long as they end.
            while let top = stack.indices.last {
                scanner.skipWhitespace()
                inValue = false
                if stack[top].isObject {
                    stack[top].appendMember(consume node)
                    if scanner.current == UInt8(ascii: ",") {
                        let comma = scanner.location
                        scanner.advance()
                        scanner.skipWhitespace()
                        if scanner.current == UInt8(ascii: "}") { throw trailingComma(at: comma, before: "}") }
                        let key = try parseMemberKey(afterComma: true)
                        valuePointer = JSONPointer(chain: stack[top].chain, name: key)
                        context = .memberValue
                        continue document
                    }
                    guard scanner.consume(UInt8(ascii: "}")) else {
                        throw unexpected("expected ',' or '}' after an object member", commaPosition: true)
                    }
                    let frame = stack.removeLast()
                    let object = JSONObject(members: frame.members, index: frame.keyIndex)
                    node = JSONNode(value: .object(object), location: frame.start, pointer: frame.pointer)
                } else {
                    stack[top].elements.append(consume node)
                    if scanner.current == UInt8(ascii: ",") {
                        let comma = scanner.location
                        scanner.advance()
                        scanner.skipWhitespace()
                        if scanner.current == UInt8(ascii: "]") { throw trailingComma(at: comma, before: "]") }
                        valuePointer = JSONPointer(chain: stack[top].chain, index: stack[top].elements.count)
                        context = .nextElement
                        continue document
                    }
                    guard scanner.consume(UInt8(ascii: "]")) else {
                        throw unexpected("expected ',' or ']' after an array element", commaPosition: true)
                    }
                    let frame = stack.removeLast()
                    node = JSONNode(value: .array(frame.elements), location: frame.start, pointer: frame.pointer)
                }
            }

            // The top-level value is complete: only whitespace may follow.
            scanner.skipWhitespace()
            if !scanner.isAtEnd {
                throw scanner.unexpected("unexpected content after the top-level value")
            }
            return node
        }
    }

    /// Scans `"key" :` at the current position (whitespace skipped) and leaves the scanner at the value.
    private mutating func parseMemberKey(afterComma: Bool) throws(JSONSyntaxError) -> String {
        let top = stack.count - 1
        inValue = false
        let keyLocation = scanner.location
        guard scanner.current == UInt8(ascii: "\"") else {
            if scanner.isAtEnd { throw endOfFileError() }
            throw scanner.keyProblem(
                expected: afterComma ? "expected a string key after ','" : "expected a string key or '}' after '{'")
        }
        let key = try scanner.scanString()
        if let first = stack[top].firstKeyLocation(of: key) {
            diagnostics.append(
                .error(
                    "duplicate key \(JSONScanner.quoted(key)): first defined at \(first)",
                    at: keyLocation, pointer: JSONPointer(chain: stack[top].chain, name: key).description,
                    fixIt: "remove one of the two members"))
        }
        scanner.skipWhitespace()
        guard scanner.consume(UInt8(ascii: ":")) else {
            throw unexpected("expected ':' after the key \(JSONScanner.quoted(key))")
        }
        scanner.skipWhitespace()
        stack[top].pendingKey = key
        stack[top].pendingKeyLocation = keyLocation
        return key
    }

    private func checkDepth(at location: SourceLocation) throws(JSONSyntaxError) {
        guard stack.count < JSONParser.maximumDepth else {
            throw JSONSyntaxError(
                "nesting deeper than \(JSONParser.maximumDepth) levels", at: location,
                fixIt: "a descriptor never needs this much nesting")
        }
    }

    private func trailingComma(at comma: SourceLocation, before closer: String) -> JSONSyntaxError {
        JSONSyntaxError(
            "trailing comma before '\(closer)' is not allowed in JSON", at: comma, fixIt: "remove the ','")
    }

    /// "`expected`, found X", or the end-of-file error, with a hint for a wrong closer or a missing comma.
    private func unexpected(_ expected: String, commaPosition: Bool = false) -> JSONSyntaxError {
        if scanner.isAtEnd { return endOfFileError() }
        var error = scanner.unexpected(expected)
        guard error.fixIt == nil, let top = stack.last, let byte = scanner.current else { return error }
        if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
            let closer = top.isObject ? "}" : "]"
            error.fixIt = "the \(top.kindName) opened at \(top.start) must be closed with '\(closer)'"
        } else if commaPosition, byte < 0x80, byte != UInt8(ascii: "'") {
            error.fixIt = "insert a ',' before it"
        }
        return error
    }

    /// The error for input ending inside the innermost open container.
    private func endOfFileError() -> JSONSyntaxError {
        guard let top = stack.last else {
            return JSONSyntaxError("unexpected end of file: expected a JSON value", at: scanner.location)
        }
        return JSONSyntaxError(
            "unexpected end of file: the \(top.kindName) opened at \(top.start) is not closed",
            at: scanner.location, pointer: top.pointer,
            fixIt: "add the missing '\(top.isObject ? "}" : "]")'")
    }
}
