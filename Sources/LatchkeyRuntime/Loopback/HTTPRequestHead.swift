import LatchkeyPlatform

/// The request line and header fields of an HTTP/1.x request, as a local server reads them.
package struct HTTPRequestHead: Sendable {
    /// The method, as sent.
    package var method: String
    /// The request target, as sent (origin form: path and query).
    package var target: String
    /// The protocol version, for example `HTTP/1.1`.
    package var version: String
    /// Header fields in arrival order, names as sent.
    package var headers: [(name: String, value: String)]

    /// The values of every header with this name (case-insensitive).
    package func values(of name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The first value of a header (case-insensitive).
    package func value(of name: String) -> String? {
        values(of: name).first
    }

    /// The target's path (before `?`).
    package var path: String {
        String(target.prefix { $0 != "?" })
    }

    /// The target's query (after the first `?`), or `nil` when there is none.
    package var query: String? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        return String(target[target.index(after: mark)...])
    }

    /// Parses a head (without the final empty line).
    /// - Parameter bytes: The bytes before `CRLF CRLF`.
    /// - Returns: The head, or `nil` when it is malformed.
    package static func parse(_ bytes: ArraySlice<UInt8>) -> HTTPRequestHead? {
        guard let text = String(validatingUTF8Bytes: bytes) else { return nil }
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        guard !lines.isEmpty else { return nil }
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, !requestLine[0].isEmpty, !requestLine[1].isEmpty,
            requestLine[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }),
            requestLine[2] == "HTTP/1.1" || requestLine[2] == "HTTP/1.0"
        else { return nil }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon]
            guard !name.isEmpty,
                name.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "\u{7F}" && $0.asciiValue! > 32 })
            else { return nil }
            let value = line[line.index(after: colon)...].trimmingPrefix(while: { $0 == " " || $0 == "\t" })
            let trimmed = value.reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed()
            headers.append((String(name), String(trimmed)))
        }
        return HTTPRequestHead(
            method: String(requestLine[0]), target: String(requestLine[1]), version: String(requestLine[2]),
            headers: headers)
    }
}

extension Substring {
    fileprivate func trimmingPrefix(while predicate: (Character) -> Bool) -> Substring {
        self.drop(while: predicate)
    }
}

/// Reads request heads from a socket.
package enum HTTPHeadReader {
    /// The outcome of reading a head.
    package enum Outcome: Sendable {
        /// A head, and the bytes that followed it (the start of the body).
        case head(HTTPRequestHead, rest: [UInt8])
        /// The head exceeded the limit.
        case tooLarge
        /// The head is not HTTP/1.x.
        case malformed
        /// The peer closed or failed before sending a whole head.
        case closed
        /// The deadline passed.
        case timedOut
    }

    /// Reads until `CRLF CRLF`.
    /// - Parameters:
    ///   - descriptor: The connection.
    ///   - limit: The largest head accepted, in bytes (the final `CRLF CRLF` included).
    ///   - deadline: When to give up.
    package static func read(_ descriptor: Int32, limit: Int, deadline: MonotonicInstant) -> Outcome {
        var buffer: [UInt8] = []
        while true {
            switch SocketIO.read(descriptor, maximum: 16384, deadline: deadline) {
            case .bytes(let bytes):
                let searchStart = max(0, buffer.count - 3)
                buffer += bytes
                if let end = headEnd(in: buffer, from: searchStart) {
                    guard end + 4 <= limit else { return .tooLarge }
                    guard let head = HTTPRequestHead.parse(buffer[..<end]) else { return .malformed }
                    return .head(head, rest: Array(buffer[(end + 4)...]))
                }
                if buffer.count >= limit { return .tooLarge }
            case .closed, .failed:
                return .closed
            case .timedOut:
                return .timedOut
            }
        }
    }

    private static func headEnd(in buffer: [UInt8], from start: Int) -> Int? {
        guard buffer.count >= 4 else { return nil }
        var index = start
        while index + 3 < buffer.count {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                return index
            }
            index += 1
        }
        return nil
    }
}
