import LatchkeyVocabulary

extension JSON {
    /// The value at a JSON pointer (RFC 6901), such as `/user/id` or `/scopes/0`.
    ///
    /// The empty pointer is the whole document. `~1` stands for `/` and `~0` for `~`.
    /// - Parameter pointer: The pointer.
    /// - Returns: The value, or `nil` when the pointer is malformed or leads nowhere.
    public func value(at pointer: String) -> JSON? {
        var current = self
        var found = true
        let wellFormed = JSONPointerSyntax.forEachReferenceToken(pointer) { token in
            switch current {
            case .object(let members):
                guard let next = members[token] else { break }
                current = next
                return true
            case .array(let elements):
                guard let index = JSONPointerSyntax.arrayIndex(token), index < elements.count else { break }
                current = elements[index]
                return true
            default:
                break
            }
            found = false
            return false
        }
        return wellFormed && found ? current : nil
    }
}
