/// The characters a token may hold before it is copied into a header.
enum TokenSyntax {
    /// Whether `token` can be sent as a bearer credential without changing the header it is sent in: RFC 6750
    /// §2.1's `b64token` characters (`ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/"`, then any number of `=`)
    /// widened to every HTTP token character (RFC 9110 §5.6.2 `tchar`: also `! # $ % & ' * ^ ` | `), since
    /// providers issue such tokens and expect them back as bearer tokens: Salesforce's `<org id>!<token>`
    /// (`00DB0000000TfcR!AQQAQ…`), Login with Amazon's `Atza|IwEB…`. None of these can end a header or start a
    /// parameter; a token with a space, a comma, a quote, a semicolon, a control character (CR, LF, NUL), a
    /// non-ASCII byte or an inner `=` is refused, so that no token can add a header or a request to the one it is
    /// sent in.
    static func isBearerToken(_ token: String) -> Bool {
        var bytes = token.utf8[...]
        while bytes.last == UInt8(ascii: "=") { bytes = bytes.dropLast() }
        guard !bytes.isEmpty else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"),
                UInt8(ascii: "/"):
                return true
            case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
                UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "|"):
                return true
            default:
                return false
            }
        }
    }

    /// The token types a session may carry: `Bearer` (RFC 6750), compared without case. Any other type
    /// (`DPoP`, `mac`, `N_A`) needs a proof or a header Latchkey does not send, so sending such a token as a
    /// bearer token would be wrong. A provider whose access tokens are PASETO tokens may call them `PASETO`.
    /// - Parameters:
    ///   - type: The `token_type` the provider sent.
    ///   - acceptsPaseto: Whether the descriptor declares PASETO access tokens.
    static func isAcceptedTokenType(_ type: String, acceptsPaseto: Bool, acceptsDPoP: Bool = false) -> Bool {
        let lower = type.lowercased()
        return lower == "bearer" || (acceptsPaseto && lower == "paseto") || (acceptsDPoP && lower == "dpop")
    }
}
