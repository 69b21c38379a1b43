/// A JSON value: a token response, a user document, a discovery document.
///
/// Decoding never traps: malformed input yields `nil` from ``JSON/init(data:)``.
public enum JSON: Sendable, Hashable, Codable {
    /// An object.
    case object([String: JSON])
    /// An array.
    case array([JSON])
    /// A string.
    case string(String)
    /// A number.
    case number(Double)
    /// A boolean.
    case bool(Bool)
    /// `null`.
    case null

    /// Decodes a value from a decoder.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    /// Encodes the value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .object(let members): try container.encode(members)
        case .array(let elements): try container.encode(elements)
        case .string(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        case .bool(let flag): try container.encode(flag)
        case .null: try container.encodeNil()
        }
    }

    /// The string, when the value is one.
    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number, when the value is one.
    public var double: Double? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The number as an integer, when the value is an integral number that fits.
    public var int: Int? {
        guard case .number(let number) = self, number.rounded(.towardZero) == number,
            number >= -9_007_199_254_740_992, number <= 9_007_199_254_740_992
        else { return nil }
        return Int(number)
    }

    /// The boolean, when the value is one.
    public var bool: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The members, when the value is an object.
    public var object: [String: JSON]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements, when the value is an array.
    public var array: [JSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// Whether the value is `null`.
    public var isNull: Bool { self == .null }

    /// The member with this name, when the value is an object that has it.
    public subscript(key: String) -> JSON? { object?[key] }

    /// The value as text for a form field, query parameter or header: strings as they are, numbers in
    /// their shortest form, booleans as `true`/`false`; `nil` for `null`, objects and arrays.
    public var scalarText: String? {
        switch self {
        case .string(let text): text
        case .number(let number): JSON.format(number)
        case .bool(let flag): flag ? "true" : "false"
        case .null, .object, .array: nil
        }
    }

    /// The value is "set" for error detection: not null, not `false`, not zero, not empty.
    package var isPresentValue: Bool {
        switch self {
        case .null: false
        case .bool(let flag): flag
        case .number(let number): number != 0
        case .string(let text): !text.isEmpty
        case .array(let elements): !elements.isEmpty
        case .object(let members): !members.isEmpty
        }
    }

    package static func format(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number.rounded(.towardZero) == number, abs(number) < 1e15 { return String(Int64(number)) }
        return "\(number)"
    }
}
