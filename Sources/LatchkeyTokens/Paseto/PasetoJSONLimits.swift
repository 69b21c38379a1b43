/// Shape limits checked on JSON bytes before they reach the JSON parser (paseto-spec, Payload
/// Processing, "Storing JSON in the Footer"): a bounded nesting depth and a bounded number of keys, so
/// hostile input cannot drive the parser into deep recursion.
package struct PasetoJSONLimits: Sendable {
    /// The deepest nesting of objects and arrays allowed (a flat object has depth 1).
    package let maximumDepth: Int
    /// The most object keys allowed, counted across every level.
    package let maximumKeys: Int
    /// The most bytes allowed.
    package let maximumLength: Int

    /// Limits for a token payload (the token itself is already capped at 64 KiB).
    package static let payload = PasetoJSONLimits(
        maximumDepth: 32, maximumKeys: 4096, maximumLength: PasetoV4Public.maximumTokenLength)
    /// Limits for a footer read for its `kid`; small and shallow.
    package static let footer = PasetoJSONLimits(maximumDepth: 4, maximumKeys: 32, maximumLength: 4096)
    /// Limits for a key document (``PasetoKeySet/init(document:)``).
    package static let keyDocument = PasetoJSONLimits(
        maximumDepth: 8, maximumKeys: 65_536, maximumLength: PasetoKeySet.maximumDocumentLength)

    /// Whether the bytes stay within the limits. This is a scan, not validation: the parser still
    /// rejects malformed JSON.
    package func allows(_ bytes: [UInt8]) -> Bool {
        guard bytes.count <= maximumLength else { return false }
        var depth = 0
        var keys = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                guard depth <= maximumDepth else { return false }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: ":"):
                keys += 1
                guard keys <= maximumKeys else { return false }
            default:
                break
            }
        }
        return true
    }
}
