/// The string form of an RFC 6901 JSON pointer, read and written in one place: the descriptor's
/// `JSONPointer` (diagnostics, `session` mappings), the runtime's lookups (`JSON.value(at:)`) and the simulator's
/// writer use it.
///
/// `""` is the whole document; otherwise every reference token follows a `/`, with `~0` standing for `~` and
/// `~1` for `/` (`~01` is `~1`, not `/`: `~1` is read first). A `~` followed by anything else is malformed.
package enum JSONPointerSyntax {
    /// The unescaped reference tokens of a pointer, outermost first.
    /// - Parameter pointer: The pointer's string form (`""`, `/a/0/b~1c`).
    /// - Returns: The tokens (empty for the whole document), or `nil` when the pointer is malformed.
    package static func referenceTokens(_ pointer: String) -> [String]? {
        var tokens: [String] = []
        let wellFormed = forEachReferenceToken(pointer) { token in
            tokens.append(token)
            return true
        }
        return wellFormed ? tokens : nil
    }

    /// Hands each unescaped reference token of a pointer to `visit`, outermost first, without collecting them
    /// (a lookup on every response reads pointers this way).
    /// - Parameters:
    ///   - pointer: The pointer's string form.
    ///   - visit: Called with each token; return `false` to stop.
    /// - Returns: `false` when a token read so far is malformed (or the pointer does not start with `/`).
    package static func forEachReferenceToken(_ pointer: String, _ visit: (String) -> Bool) -> Bool {
        if pointer.isEmpty { return true }
        guard pointer.utf8.first == UInt8(ascii: "/") else { return false }
        var rest = Substring(pointer).dropFirst()
        while true {
            let end = rest.utf8.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            guard let token = unescape(rest[..<end]) else { return false }
            guard visit(token) else { return true }
            guard end < rest.endIndex else { return true }
            rest = rest[rest.utf8.index(after: end)...]
        }
    }

    /// A reference token as it is written in a pointer: `~` as `~0`, `/` as `~1`.
    /// - Parameter token: The unescaped token.
    /// - Returns: The escaped token.
    package static func escape(_ token: some StringProtocol) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
            return String(token)
        }
        var text = ""
        for scalar in token.unicodeScalars {
            switch scalar {
            case "~": text += "~0"
            case "/": text += "~1"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// Whether a token is an array index: `0`, or digits without a leading zero.
    /// - Parameter token: The unescaped token.
    /// - Returns: The index, or `nil` when the token is not one.
    package static func arrayIndex(_ token: String) -> Int? {
        guard !token.isEmpty, token.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            token == "0" || !token.hasPrefix("0")
        else { return nil }
        return Int(token)
    }

    private static func unescape(_ raw: Substring) -> String? {
        guard raw.utf8.contains(UInt8(ascii: "~")) else { return String(raw) }
        var token = ""
        var scalars = raw.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "~" else {
                token.unicodeScalars.append(scalar)
                continue
            }
            switch scalars.next() {
            case "0": token += "~"
            case "1": token += "/"
            default: return nil
            }
        }
        return token
    }
}
