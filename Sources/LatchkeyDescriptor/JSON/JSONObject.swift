/// A JSON object: its members in source order, duplicates included.
public struct JSONObject: Sendable, Hashable {
    /// Objects with more members than this keep a key index for lookups.
    static let indexThreshold = 8

    /// The members in source order. When a key is duplicated (which the parser reports as an
    /// error), every occurrence is kept here.
    public var members: [JSONMember] {
        didSet { index = Self.makeIndex(members) }
    }

    /// The position of each key's first occurrence; empty for small objects.
    private var index: [String: Int]

    /// Creates an object from members in source order.
    public init(members: [JSONMember] = []) {
        self.members = members
        self.index = Self.makeIndex(members)
    }

    /// Creates an object with an index the parser has already built.
    init(members: [JSONMember], index: [String: Int]) {
        self.members = members
        self.index = members.count > Self.indexThreshold ? index : [:]
    }

    /// The value of the first member named `key`, or nil.
    public subscript(key: String) -> JSONNode? {
        member(key)?.value
    }

    /// The first member named `key` (with its key location), or nil.
    public func member(_ key: String) -> JSONMember? {
        if members.count > Self.indexThreshold {
            return index[key].map { members[$0] }
        }
        return members.first { $0.key == key }
    }

    /// The keys in source order (duplicates included).
    public var keys: [String] { members.map(\.key) }

    /// The number of members.
    public var count: Int { members.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// Two objects are equal when their members, in order, are equal.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members == rhs.members
    }

    /// Hashes the members.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(members)
    }

    private static func makeIndex(_ members: [JSONMember]) -> [String: Int] {
        guard members.count > indexThreshold else { return [:] }
        var index: [String: Int] = [:]
        index.reserveCapacity(members.count)
        for (position, member) in members.enumerated() where index[member.key] == nil {
            index[member.key] = position
        }
        return index
    }
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    /// The key, escapes decoded.
    public var key: String
    /// Where the key's opening quote is.
    public var keyLocation: SourceLocation
    /// The value.
    public var value: JSONNode

    /// Creates a member.
    public init(key: String, keyLocation: SourceLocation, value: JSONNode) {
        self.key = key
        self.keyLocation = keyLocation
        self.value = value
    }
}
