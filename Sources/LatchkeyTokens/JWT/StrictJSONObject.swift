import Foundation
import LatchkeyPlatform

/// Decodes the JSON object of a JWS header or payload strictly: UTF-8 only, an object at the top, and
/// no member name twice (RFC 7515 §5.2 — `JSONDecoder` would silently keep the first of two `alg`s).
///
/// The one JSON parser (`JSONBytesParser`) reads it, refusing repeated top-level names as it goes; nested
/// objects keep their first member of a name, as everywhere else.
package enum StrictJSONObject {
    /// The object's members, or `nil` when the bytes are not a UTF-8 JSON object with unique member names.
    /// - Parameter bytes: The decoded base64url part.
    package static func decode(_ bytes: [UInt8]) -> [String: JSON]? {
        guard String(validatingUTF8Bytes: bytes) != nil,
            bytes.first(where: { !isWhitespace($0) }) == UInt8(ascii: "{")
        else { return nil }
        return bytes.withUnsafeBytes { JSONBytesParser.parse($0, topLevelNames: .unique) }?.object
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
