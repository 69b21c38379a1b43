import Foundation
import LatchkeyPlatform
import LatchkeyRuntime

/// What ``TestHTTPServer`` answers: a response, or a fault (dropped connection, truncated body, delay).
public struct TestResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields in order. `Content-Length` is added unless present (or unless `Transfer-Encoding:
    /// chunked` is set, which makes the server send the body in chunks); `Connection: close` always.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Data

    indirect enum Behavior: Sendable {
        case respond
        case dropConnection
        case resetMidBody
        case delay(LatchkeyDuration, TestResponse)
        case stream(StreamedBody)
    }

    var behavior: Behavior = .respond

    /// Creates a response.
    /// - Parameters:
    ///   - status: The status code (default 200).
    ///   - headers: Header fields in order.
    ///   - body: The body.
    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header (case-insensitive name).
    /// - Parameter name: The header name.
    public func header(_ name: String) -> String? { HTTPHeaderFields(headers)[name] }

    /// A JSON response from a `JSONSerialization` object (keys sorted). An object that is not valid JSON (a
    /// NaN or an infinity, a key that is not a string, a value of another type, at any depth) gives a 500
    /// naming the problem and where it is; it is checked before `JSONSerialization` sees it, which on Apple
    /// platforms would end the process with an Objective-C exception instead.
    /// - Parameters:
    ///   - object: A dictionary, array, string, number, bool or `NSNull`.
    ///   - status: The status code (default 200).
    ///   - headers: Extra header fields.
    public static func json(
        _ object: Any, status: Int = 200, headers: [(name: String, value: String)] = []
    ) -> TestResponse {
        if let problem = JSONObjectCheck.problem(in: object) {
            return .text("TestResponse.json: not JSON: \(problem)", status: 500)
        }
        guard
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        else {
            return .text("TestResponse.json: not a JSON object: \(type(of: object))", status: 500)
        }
        return TestResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: data)
    }

    /// A JSON response from an `Encodable` value (keys sorted).
    /// - Parameters:
    ///   - value: The value.
    ///   - status: The status code (default 200).
    ///   - headers: Extra header fields.
    public static func json(
        encoding value: some Encodable, status: Int = 200, headers: [(name: String, value: String)] = []
    ) -> TestResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value) else {
            return .text("TestResponse.json: cannot encode \(type(of: value))", status: 500)
        }
        return TestResponse(status: status, headers: [("Content-Type", "application/json")] + headers, body: data)
    }

    /// A plain-text response.
    /// - Parameters:
    ///   - text: The body.
    ///   - status: The status code (default 200).
    ///   - headers: Extra header fields.
    public static func text(
        _ text: String, status: Int = 200, headers: [(name: String, value: String)] = []
    ) -> TestResponse {
        TestResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, body: Data(text.utf8))
    }

    /// A redirect.
    /// - Parameters:
    ///   - location: The `Location` value.
    ///   - status: The status code (default 302).
    public static func redirect(to location: String, status: Int = 302) -> TestResponse {
        TestResponse(status: status, headers: [("Location", location)])
    }

    /// Closes the connection without answering.
    public static var dropConnection: TestResponse {
        var response = TestResponse(status: 0)
        response.behavior = .dropConnection
        return response
    }

    /// Sends a 200 head announcing a 1000-byte JSON body, sends a few bytes of it, then closes.
    public static var resetMidBody: TestResponse {
        resetMidBody(.json(["access_token": String(repeating: "x", count: 980)]))
    }

    /// Sends `response`'s head with its full `Content-Length`, then only the first half of its body
    /// (at least one byte short), then closes.
    /// - Parameter response: The response to truncate.
    public static func resetMidBody(_ response: TestResponse) -> TestResponse {
        var truncated = response
        truncated.behavior = .resetMidBody
        return truncated
    }

    /// Sends a head with these fields as they are (no `Content-Length` added: the body ends when the connection
    /// closes, unless the fields say otherwise), then `body` piece by piece (see ``StreamedBody``).
    /// - Parameters:
    ///   - status: The status code (default 200).
    ///   - headers: Header fields in order.
    ///   - body: What to write after the head.
    public static func streamed(
        status: Int = 200, headers: [(name: String, value: String)] = [], body: StreamedBody
    ) -> TestResponse {
        var response = TestResponse(status: status, headers: headers)
        response.behavior = .stream(body)
        return response
    }

    /// Waits, then answers (or faults) with `response`. ``TestHTTPServer/stop()`` cuts the wait short.
    /// - Parameters:
    ///   - seconds: The delay in seconds.
    ///   - response: What to send afterwards.
    public static func delay(_ seconds: Double, then response: TestResponse) -> TestResponse {
        var delayed = TestResponse(status: response.status)
        delayed.behavior = .delay(.seconds(seconds), response)
        return delayed
    }
}
