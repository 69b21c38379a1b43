/// A JSON value together with where it starts in the source and its JSON pointer.
public struct JSONNode: Sendable, Hashable {
    /// The value.
    public var value: JSONValue
    /// Where the value starts (its first character: `{`, `[`, `"`, `-`, a digit or a letter).
    public var location: SourceLocation
    /// The pointer from the document root to this value.
    public var pointer: JSONPointer

    /// Creates a node.
    public init(value: JSONValue, location: SourceLocation, pointer: JSONPointer) {
        self.value = value
        self.location = location
        self.pointer = pointer
    }

    /// The string, when the value is a string.
    public var string: String? {
        if case .string(let string) = value { return string }
        return nil
    }

    /// The Boolean, when the value is `true` or `false`.
    public var bool: Bool? {
        if case .bool(let bool) = value { return bool }
        return nil
    }

    /// The number, when the value is a number.
    public var number: JSONNumber? {
        if case .number(let number) = value { return number }
        return nil
    }

    /// The integer, when the value is a number that is exactly an integer in `Int` range.
    public var int: Int? { number?.int }

    /// The double, when the value is a number that is finite as a `Double`.
    public var double: Double? { number?.double }

    /// The object, when the value is an object.
    public var object: JSONObject? {
        if case .object(let object) = value { return object }
        return nil
    }

    /// The elements, when the value is an array.
    public var array: [JSONNode]? {
        if case .array(let array) = value { return array }
        return nil
    }

    /// Whether the value is `null`.
    public var isNull: Bool { value == .null }

    /// The JSON type name used in messages: "object", "array", "string", "number", "boolean" or "null".
    public var typeName: String { value.typeName }
}
