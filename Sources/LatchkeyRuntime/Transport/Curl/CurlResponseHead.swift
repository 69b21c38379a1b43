#if os(Linux)
    import Foundation

    /// The head of a response as libcurl hands it over, one line at a time: the status line, the fields, then an
    /// empty line. An interim 1xx head is forgotten when the next status line arrives.
    struct CurlResponseHead {
        /// The most bytes of head accepted, all heads together (libcurl has its own, larger, per-field limit).
        static let maximumBytes = 256 * 1024

        private(set) var status: Int?
        /// The fields in the order received, names lower-cased, repeated fields kept.
        private(set) var fields: [(name: String, value: String)] = []
        /// Whether the final (non-1xx) head is complete.
        private(set) var isComplete = false
        private(set) var byteCount = 0

        /// What one line meant.
        enum Line {
            /// More of the head to come.
            case partial
            /// The final head is complete.
            case complete
            /// The head is over ``maximumBytes``.
            case tooLarge
        }

        /// Takes one line of the head, its CR LF included.
        mutating func take(_ line: UnsafeRawBufferPointer) -> Line {
            byteCount += line.count
            guard byteCount <= Self.maximumBytes else { return .tooLarge }
            var end = line.count
            while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: line[0..<end]), as: UTF8.self)
            if text.hasPrefix("HTTP/") {
                // A new head (the first, or the one after a 1xx): `HTTP/1.1 200 OK`.
                let parts = text.split(separator: " ", maxSplits: 2)
                status = parts.count >= 2 ? Int(parts[1]) : nil
                fields = []
                isComplete = false
                return .partial
            }
            if text.isEmpty {
                guard let status, !(100..<200).contains(status) else { return .partial }
                isComplete = true
                return .complete
            }
            if let first = text.utf8.first, first == 0x20 || first == 0x09, let last = fields.indices.last {
                // An obsolete folded continuation line: part of the previous field's value.
                fields[last].value += " " + Self.trimmed(Substring(text))
                return .partial
            }
            guard let colon = text.firstIndex(of: ":") else { return .partial }
            fields.append((text[..<colon].lowercased(), Self.trimmed(text[text.index(after: colon)...])))
            return .partial
        }

        /// The value of the first field with this (lower-case) name.
        func value(_ name: String) -> String? {
            fields.first { $0.name == name }?.value
        }

        /// Every `Content-Encoding` field's value, joined with commas (as one field would list them), or `nil`.
        var contentEncoding: String? {
            let values = fields.filter { $0.name == "content-encoding" }.map(\.value)
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }

        /// The announced body length, when it is a plain number.
        var contentLength: Int? {
            value("content-length").flatMap { Int($0) }
        }

        private static func trimmed(_ text: Substring) -> String {
            var view = text[...]
            while let first = view.first, first == " " || first == "\t" { view = view.dropFirst() }
            while let last = view.last, last == " " || last == "\t" { view = view.dropLast() }
            return String(view)
        }
    }
#endif
