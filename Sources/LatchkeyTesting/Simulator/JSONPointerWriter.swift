import Foundation
import LatchkeyRuntime

/// Builds JSON objects (`JSONSerialization` dictionaries) by placing values at JSON pointers.
enum JSONPointerWriter {
    /// The reference tokens of a pointer (`/a/b~1c` → `a`, `b/c`); empty for the whole document or a malformed
    /// pointer (RFC 6901, read by the runtime's ``JSONPointerSyntax``).
    static func tokens(_ pointer: String) -> [String] {
        JSONPointerSyntax.referenceTokens(pointer) ?? []
    }

    /// Places `value` at `pointer`, creating intermediate objects.
    static func set(_ value: Any, at pointer: String?, in object: inout [String: Any]) {
        guard let pointer else { return }
        let path = tokens(pointer)
        guard !path.isEmpty else { return }
        object = setting(value, path[...], in: object)
    }

    private static func setting(_ value: Any, _ path: ArraySlice<String>, in object: [String: Any]) -> [String: Any] {
        var copy = object
        guard let head = path.first else { return copy }
        if path.count == 1 {
            copy[head] = value
        } else {
            copy[head] = setting(value, path.dropFirst(), in: copy[head] as? [String: Any] ?? [:])
        }
        return copy
    }
}
