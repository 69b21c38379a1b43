extension JSON {
    /// The value at a JSON pointer (RFC 6901), such as `/user/id` or `/scopes/0`.
    ///
    /// The empty pointer is the whole document. `~1` stands for `/` and `~0` for `~`.
    /// - Parameter pointer: The pointer.
    /// - Returns: The value, or `nil` when the pointer is malformed or leads nowhere.
    public func value(at pointer: String) -> JSON? {
        if pointer.isEmpty { return self }
        guard pointer.hasPrefix("/") else { return nil }
        var current = self
        for rawToken in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let token = JSON.unescape(rawToken) else { return nil }
            switch current {
            case .object(let members):
                guard let next = members[token] else { return nil }
                current = next
            case .array(let elements):
                guard let index = JSON.arrayIndex(token), index < elements.count else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    private static func unescape(_ token: Substring) -> String? {
        var out = ""
        var iterator = token.makeIterator()
        while let character = iterator.next() {
            guard character == "~" else {
                out.append(character)
                continue
            }
            switch iterator.next() {
            case "0": out.append("~")
            case "1": out.append("/")
            default: return nil
            }
        }
        return out
    }

    private static func arrayIndex(_ token: String) -> Int? {
        guard !token.isEmpty, token.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            token == "0" || !token.hasPrefix("0")
        else { return nil }
        return Int(token)
    }
}
