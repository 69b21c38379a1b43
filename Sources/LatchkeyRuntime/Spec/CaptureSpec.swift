import Foundation
import LatchkeyTokens

/// A descriptor's `captures.NAME`: a value read from a response, kept with the session (in its stored record)
/// and usable as `{NAME}` in later requests, such as Atlassian's cloud id from `accessible-resources`.
@_spi(Generated) public struct CaptureSpec: Sendable {
    /// The variable name (`cloudid`).
    public var name: String
    /// The request sent once after every sign-in whose answer holds the value; `nil` to read every token
    /// response (sign-in and refresh; a refresh that lacks the value keeps the earlier one).
    public var request: String?
    /// Where the value is in the response's JSON body (a string, or an integer in decimal).
    public var pointer: String?
    /// The response header holding the value.
    public var header: String?

    /// Creates a capture.
    /// - Parameters:
    ///   - name: The variable name.
    ///   - request: The request to send after sign-in, or `nil` for token responses.
    ///   - pointer: The JSON pointer to read.
    ///   - header: The header to read.
    public init(name: String, request: String? = nil, pointer: String? = nil, header: String? = nil) {
        self.name = name
        self.request = request
        self.pointer = pointer
        self.header = header
    }

    /// The captured text in a response, or `nil` when it holds none.
    func value(in document: JSON?, _ response: TransportResponse) -> String? {
        let text: String?
        if let header {
            text = response.header(header)?.trimmingCharacters(in: .whitespaces)
        } else if let pointer {
            text = SessionDecoder.text(document?.value(at: pointer))
        } else {
            text = nil
        }
        guard let text, !text.isEmpty, text.utf8.count <= 2048 else { return nil }
        return text
    }
}
