/// A strict RFC 8259 JSON parser that keeps the source location and JSON pointer of every value.
///
/// - Input is UTF-8; a UTF-8 byte order mark at the very start is accepted and skipped (it does
///   not count as a column). Any ill-formed UTF-8 is an error at the offending sequence's first byte.
/// - Parsing stops at the first syntax error (the result then has no root). Duplicate keys are
///   reported as errors at the second key, but parsing continues and the tree keeps both members.
/// - Nesting is limited to ``maximumDepth`` levels; the parser is iterative, so no input can
///   overflow the stack.
/// - Any JSON value is accepted at the top level.
public enum JSONParser {
    /// The deepest nesting of arrays and objects accepted; one level deeper is an error.
    public static let maximumDepth = 256

    /// Parses UTF-8 bytes.
    public static func parse(_ bytes: some Collection<UInt8>) -> JSONParseResult {
        if let result = bytes.withContiguousStorageIfAvailable({ parse(buffer: $0) }) {
            return result
        }
        return Array(bytes).withUnsafeBufferPointer { parse(buffer: $0) }
    }

    /// Parses a string.
    public static func parse(_ text: String) -> JSONParseResult {
        var text = text
        return text.withUTF8 { parse(buffer: $0) }
    }

    private static func parse(buffer: UnsafeBufferPointer<UInt8>) -> JSONParseResult {
        var builder = JSONTreeBuilder(bytes: buffer)
        return builder.run()
    }
}
