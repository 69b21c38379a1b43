import LatchkeyTokens
import LatchkeyVocabulary

extension AuthClient {
    /// Checks the arguments a request's URL names (`{baseURL}/user/identities/{identityId}`): each must be one
    /// path segment of RFC 3986 unreserved characters (letters, digits, `-`, `.`, `_`, `~`), and neither `.`
    /// nor `..`, so an argument can never reach another path, a query or a fragment.
    /// - Throws: `validation_failed` before any request.
    func checkPathArguments(_ arguments: [String: ActionArgument], request: RequestSpec) throws(AuthError) {
        for name in request.url.variables.sorted() {
            guard case .string(let text)? = arguments[name] else { continue }
            let unreserved = text.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                    || byte == UInt8(ascii: "~")
            }
            guard unreserved, !text.isEmpty, text != ".", text != ".." else {
                throw failure(
                    .validationFailed,
                    "The parameter '\(name)' goes into the URL's path and may hold only letters, digits, - . _ ~.")
            }
        }
    }
}
