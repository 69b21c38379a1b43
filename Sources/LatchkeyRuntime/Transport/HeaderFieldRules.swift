import LatchkeyTokens

/// What may go into a header field before a request leaves the process (RFC 9110 §5.1, §5.5).
enum HeaderFieldRules {
    /// Checks every header of a request: a name must be a non-empty RFC 9110 token, and neither a name nor a
    /// value may hold CR, LF or NUL, which would end the field (or the whole request) early and let the
    /// rest be read as another header or another request.
    /// - Parameter request: The request about to be sent.
    /// - Throws: `invalid_request` naming the offending header (never its value), before anything is sent.
    static func check(_ request: TransportRequest) throws(AuthError) {
        for header in request.headers {
            guard isToken(header.name) else {
                throw AuthError(.invalidRequest, "A header name is not an HTTP token; nothing was sent.")
            }
            guard !header.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else {
                throw AuthError(
                    .invalidRequest,
                    "The value of the header '\(header.name)' holds CR, LF or NUL; nothing was sent.")
            }
        }
    }

    /// Whether `name` is `1*tchar` (RFC 9110 §5.6.2).
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    return true
                default:
                    return "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }
}
