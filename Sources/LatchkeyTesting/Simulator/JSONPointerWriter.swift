import Foundation
import LatchkeyRuntime
import LatchkeyVocabulary

/// Builds JSON values (`JSONSerialization` dictionaries and arrays) by placing values at JSON pointers.
enum JSONPointerWriter {
    /// The reference tokens of a pointer (`/a/b~1c` → `a`, `b/c`); empty for the whole document or a malformed
    /// pointer (RFC 6901, read by the runtime's ``JSONPointerSyntax``).
    static func tokens(_ pointer: String) -> [String] {
        JSONPointerSyntax.referenceTokens(pointer) ?? []
    }

    /// Places `value` at `pointer`, creating intermediate objects (and arrays where a new level is reached
    /// by an array index such as the `0` of `/errors/0/field`).
    static func set(_ value: Any, at pointer: String?, in object: inout [String: Any]) {
        guard let pointer else { return }
        let path = tokens(pointer)
        guard !path.isEmpty, let placed = placing(value, path[...], in: object) as? [String: Any] else { return }
        object = placed
    }

    /// Places `value` at `pointer` in any JSON value (`nil` for none yet): a document whose first level is an
    /// array index becomes an array (`/0/id` of Atlassian's `accessible-resources`).
    static func set(_ value: Any, at pointer: String, in document: Any?) -> Any {
        let path = tokens(pointer)
        guard !path.isEmpty else { return value }
        return placing(value, path[...], in: document)
    }

    private static func isIndex(_ token: String) -> Bool {
        !token.isEmpty && token.count < 6 && token.allSatisfy { $0.isASCII && $0.isNumber }
            && (token == "0" || !token.hasPrefix("0"))
    }

    private static func placing(_ value: Any, _ path: ArraySlice<String>, in node: Any?) -> Any {
        guard let head = path.first else { return value }
        let existing = node is NSNull ? nil : node
        if isIndex(head), existing == nil || existing is [Any], let index = Int(head) {
            var array = existing as? [Any] ?? []
            while array.count <= index { array.append(NSNull()) }
            array[index] = placing(value, path.dropFirst(), in: array[index])
            return array
        }
        var object = existing as? [String: Any] ?? [:]
        object[head] = placing(value, path.dropFirst(), in: object[head])
        return object
    }
}
