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
    public var serialized: Data { Data(serializedText.utf8) }

    /// The compact JSON text of the value, object members sorted by name.
    public var serializedText: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let number): out += JSON.format(number)
        case .string(let text): JSON.writeString(text, to: &out)
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                element.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                JSON.writeString(key, to: &out)
                out += ":"
                members[key]?.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
