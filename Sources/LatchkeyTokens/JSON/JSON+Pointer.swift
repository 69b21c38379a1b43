import LatchkeyVocabulary

extension JSON {
    /// The value at a JSON pointer (RFC 6901), such as `/user/id` or `/scopes/0`.
    ///
    /// The empty pointer is the whole document. `~1` stands for `/` and `~0` for `~`.
    /// - Parameter pointer: The pointer.
    /// - Returns: The value, or `nil` when the pointer is malformed or leads nowhere.
    public func value(at pointer: String) -> JSON? {
        guard let tokens = JSONPointerSyntax.referenceTokens(pointer) else { return nil }
        var current = self
        for token in tokens {
            switch current {
            case .object(let members):
                guard let next = members[token] else { return nil }
                current = next
            case .array(let elements):
                guard let index = JSONPointerSyntax.arrayIndex(token), index < elements.count else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}
