/// Serializes HTTP/1.1 responses for the local servers.
package enum HTTPResponseEncoding {
    /// The bytes of a response head, and of the body when given.
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: Header fields in order (the caller adds `Content-Length` and `Connection`).
    ///   - body: The body bytes.
    package static func encode(status: Int, headers: [(name: String, value: String)], body: [UInt8] = []) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(reason(for: status))\r\n"
        for header in headers {
            head += "\(header.name): \(header.value)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    /// The reason phrase of a status.
    package static func reason(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status \(status)"
        }
    }
}
