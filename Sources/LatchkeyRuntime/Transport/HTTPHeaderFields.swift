/// HTTP header fields in order, with names that compare case-insensitively (RFC 9110 §5.1).
///
/// A repeated field stays repeated: two `WWW-Authenticate` fields are two entries, in the order they were
/// received or will be sent. Setting a field through the name subscript (`fields["Accept"] = …`) or
/// ``set(_:_:)`` replaces every field of that name, so a request never carries a default and an override of the
/// same field. The description and the mirror name the fields but never show a value (values carry tokens and
/// secrets).
public struct HTTPHeaderFields: Sendable, Hashable, RandomAccessCollection, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// One header field: a name as written and its value.
    public struct Field: Sendable, Hashable {
        /// The name as written (`Content-Type`); compare it with ``HTTPHeaderFields/names(_:match:)``.
        public let name: String
        /// The value.
        public var value: String

        /// Creates a field.
        /// - Parameters:
        ///   - name: The name.
        ///   - value: The value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field]

    /// Creates an empty list.
    public init() { fields = [] }

    /// Creates a list of fields in the given order.
    /// - Parameter pairs: The names and values, repeated names kept.
    public init(_ pairs: some Sequence<(name: String, value: String)>) {
        fields = pairs.map { Field(name: $0.name, value: $0.value) }
    }

    /// Creates a list from a literal of `(name, value)` pairs, repeated names kept.
    /// - Parameter elements: The names and values.
    public init(arrayLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// Creates a list from a literal of `name: value` pairs in the literal's order, repeated names kept.
    /// - Parameter elements: The names and values.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The position of the first field.
    public var startIndex: Int { fields.startIndex }
    /// The position after the last field.
    public var endIndex: Int { fields.endIndex }

    /// The field at a position.
    /// - Parameter position: A valid position.
    public subscript(position: Int) -> Field { fields[position] }

    /// The value of the first field with this name, or `nil`; setting it replaces every field of the name by
    /// one at the end (`nil` removes them).
    /// - Parameter name: The name, in any case.
    public subscript(_ name: String) -> String? {
        get { fields.first { Self.names($0.name, match: name) }?.value }
        set {
            if let newValue { set(name, newValue) } else { removeAll(named: name) }
        }
    }

    /// The values of every field with this name, in order.
    /// - Parameter name: The name, in any case.
    /// - Returns: The values; empty when there is no such field.
    public func values(for name: String) -> [String] {
        fields.filter { Self.names($0.name, match: name) }.map(\.value)
    }

    /// Whether a field with this name is present.
    /// - Parameter name: The name, in any case.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.names($0.name, match: name) }
    }

    /// Adds a field at the end, keeping any of the same name.
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    public mutating func append(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field of this name by one field at the end.
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    public mutating func set(_ name: String, _ value: String) {
        removeAll(named: name)
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field of this name.
    /// - Parameter name: The name, in any case.
    public mutating func removeAll(named name: String) {
        fields.removeAll { Self.names($0.name, match: name) }
    }

    /// Whether two field names are the same name (ASCII case-insensitive, as RFC 9110 §5.1 says).
    /// - Parameters:
    ///   - lhs: One name.
    ///   - rhs: The other.
    /// - Returns: `true` when they name the same field.
    public static func names(_ lhs: String, match rhs: String) -> Bool {
        let left = lhs.utf8
        let right = rhs.utf8
        guard left.count == right.count else { return false }
        for (a, b) in zip(left, right) where a != b {
            guard lowercased(a) == lowercased(b) else { return false }
        }
        return true
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Two lists are equal when they hold the same fields in the same order, names compared case-insensitively.
    public static func == (lhs: HTTPHeaderFields, rhs: HTTPHeaderFields) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { names($0.name, match: $1.name) && $0.value == $1.value }
    }

    /// Hashes the lower-cased names and the values in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields.count)
        for field in fields {
            hasher.combine(field.name.lowercased())
            hasher.combine(field.value)
        }
    }
}

extension HTTPHeaderFields: RedactedReflecting {
    /// The field names in order, never a value.
    public var description: String { "HTTPHeaderFields(\(fields.map(\.name).joined(separator: ", ")))" }
}
