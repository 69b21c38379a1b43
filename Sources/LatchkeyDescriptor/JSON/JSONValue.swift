/// A parsed JSON value; containers hold ``JSONNode``s so every nested value keeps its location.
public indirect enum JSONValue: Sendable, Hashable {
    /// A JSON object, members in source order.
    case object(JSONObject)
    /// A JSON array.
    case array([JSONNode])
    /// A JSON string, escapes decoded.
    case string(String)
    /// A JSON number, kept as written.
    case number(JSONNumber)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// The JSON type name used in messages: "object", "array", "string", "number", "boolean" or "null".
    public var typeName: String {
        switch self {
        case .object: "object"
        case .array: "array"
        case .string: "string"
        case .number: "number"
        case .bool: "boolean"
        case .null: "null"
        }
    }
}
