import Foundation
import LatchkeyPlatform

extension LoopbackRequestRules {
    /// The largest `form_post` body accepted, in bytes.
    static let maximumFormBytes = 64 * 1024

    /// The methods a 405 answer allows.
    var allowedMethods: String { acceptsFormPost ? "GET, POST" : "GET" }

    /// Checks the head of a `POST` to the callback path: no query, a form content type, a known length
    /// within the limit, no transfer coding.
    func formPostHead(_ head: HTTPRequestHead) -> Decision {
        guard head.query == nil else { return .reject(status: 400, reason: "a form_post callback has no query") }
        let contentType = head.values(of: "Content-Type")
        let mediaType = contentType.first?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
        guard contentType.count == 1, mediaType?.lowercased() == "application/x-www-form-urlencoded" else {
            return .reject(status: 415, reason: "a form_post callback is application/x-www-form-urlencoded")
        }
        guard head.values(of: "Transfer-Encoding").isEmpty else {
            return .reject(status: 411, reason: "a form_post callback needs a Content-Length")
        }
        let lengths = head.values(of: "Content-Length")
        guard lengths.count == 1, let text = lengths.first, !text.isEmpty, text.allSatisfy(\.isASCII),
            text.allSatisfy(\.isNumber), text.count <= 9, let length = Int(text)
        else { return .reject(status: 411, reason: "a form_post callback needs one valid Content-Length") }
        guard length <= Self.maximumFormBytes else { return .reject(status: 413, reason: "form body too large") }
        return .readForm(length: length)
    }

    /// Decides a `form_post` callback once its body is read: the body becomes the callback URL's query.
    func decideFormPost(_ head: HTTPRequestHead, body: [UInt8]) -> Decision {
        guard let text = String(validatingUTF8Bytes: body),
            text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0 != "#" && $0.value != 127 })
        else { return .reject(status: 400, reason: "malformed form body") }
        guard let url = URL(string: callbackBase + (text.isEmpty ? "" : "?" + text)) else {
            return .reject(status: 400, reason: "malformed form body")
        }
        let items = Self.queryItems(text)
        if let expectedState {
            let states = items.filter { $0.name == "state" }.map(\.value)
            guard states == [expectedState] else { return .stateMismatch }
        }
        return .callback(url, isErrorResponse: items.contains { $0.name == "error" })
    }
}
