import Foundation

extension JSON {
    /// Parses a JSON document; returns `nil` for anything that is not valid JSON (never traps).
    /// - Parameter data: The bytes, UTF-8.
    public init?(data: Data) {
        let parsed: JSON?? = data.withUnsafeBytes { bytes in
            // UTF-16 and UTF-32 (a byte-order mark, or a NUL among the first four bytes, which UTF-8 JSON never
            // has): `JSONDecoder` detects and reads them, and still does.
            if bytes.prefix(4).contains(0) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
                return nil
            }
            return .some(JSONBytesParser.parse(bytes))
        }
        guard let value = parsed ?? (try? JSONDecoder().decode(JSON.self, from: data)) else { return nil }
        self = value
    }

    /// The compact JSON text of the value, object members sorted by name (deterministic).
    public var serialized: Data { Data(serializedBytes()) }

    /// The compact JSON text of the value, object members sorted by name.
    public var serializedText: String { String(decoding: serializedBytes(), as: UTF8.self) }

    /// The UTF-8 bytes of the compact text. Written as bytes, strings copied in runs between the characters
    /// that need an escape: appending scalar by scalar to a `String` made the session record's encoding (two
    /// JWTs and the user document on every commit) the runtime's largest cost after the transport.
    private func serializedBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        write(to: &out)
        return out
    }

    package func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): out.append(contentsOf: JSON.format(number).utf8)
        case .string(let text): JSON.writeString(text, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSON.writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A string literal: `"` and `\` escaped, `\n`, `\r`, `\t` by name, other control characters as
    /// `\u00xx`; every other byte of the UTF-8 text as it is.
    package static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
                case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
                case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
                case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: #"\u00"#.utf8)
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0x0F)])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
