import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime

/// Reads a request body from a socket: exact lengths and `chunked` coding, with a deadline.
struct BufferedSocketReader {
    struct Failure: Error {
        /// The status to answer with, or `nil` when the peer went away.
        var status: Int?
        var reason: String
    }

    let descriptor: Int32
    var buffer: [UInt8]
    let deadline: MonotonicInstant

    /// Reads exactly `count` bytes, or `nil` when the connection ends first.
    mutating func read(exactly count: Int) -> [UInt8]? {
        while buffer.count < count {
            guard fill() else { return nil }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    /// Reads a line ending in CRLF (without it), or `nil` when it is longer than `limit` or the
    /// connection ends.
    mutating func readLine(limit: Int = 8192) -> [UInt8]? {
        var searched = 0
        while true {
            if let end = buffer[searched...].firstIndex(of: 10) {
                guard end > 0, buffer[end - 1] == 13 else { return nil }
                let line = Array(buffer[..<(end - 1)])
                buffer.removeFirst(end + 1)
                return line
            }
            searched = buffer.count
            guard buffer.count <= limit, fill() else { return nil }
        }
    }

    /// Decodes a `chunked` body (trailers are read and dropped).
    mutating func readChunked(limit: Int) -> Result<[UInt8], Failure> {
        var body: [UInt8] = []
        while true {
            guard let line = readLine() else { return .failure(Failure(status: 400, reason: "bad chunk size line")) }
            let sizeText = String(decoding: line.prefix { $0 != UInt8(ascii: ";") }, as: UTF8.self)
                .trimmingCharacters(in: [" ", "\t"])
            guard let size = Int(sizeText, radix: 16), size >= 0 else {
                return .failure(Failure(status: 400, reason: "bad chunk size"))
            }
            if size == 0 { break }
            guard body.count + size <= limit else {
                return .failure(Failure(status: 413, reason: "request body too large"))
            }
            guard let chunk = read(exactly: size), let end = read(exactly: 2), end == [13, 10] else {
                return .failure(Failure(status: 400, reason: "bad chunk"))
            }
            body += chunk
        }
        while true {
            guard let trailer = readLine() else { return .failure(Failure(status: 400, reason: "bad trailer")) }
            if trailer.isEmpty { return .success(body) }
        }
    }

    private mutating func fill() -> Bool {
        guard case .bytes(let bytes) = SocketIO.read(descriptor, maximum: 65536, deadline: deadline) else {
            return false
        }
        buffer += bytes
        return true
    }
}

extension String {
    fileprivate func trimmingCharacters(in characters: Set<Character>) -> String {
        String(self.drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}
