import LatchkeyPlatform
import LatchkeyTokens

/// The signed-in person (or principal), mapped from a user document through `UserMapping`.
public struct User: Sendable, Codable, Hashable, CustomStringConvertible {
    /// The stored fields, behind one reference: a user rides in every session, state and event.
    private struct Fields: Sendable, Hashable {
        var id: String
        var email: String?
        var name: String?
        var role: String?
        var scopes: [String]
        var attributes: JSON
    }
    private var storage: SharedFields<Fields>

    /// The provider's stable identifier.
    public var id: String {
        get { storage.fields.id }
        set { storage = storage.updating { $0.id = newValue } }
    }
    /// The email address.
    public var email: String? {
        get { storage.fields.email }
        set { storage = storage.updating { $0.email = newValue } }
    }
    /// The display name.
    public var name: String? {
        get { storage.fields.name }
        set { storage = storage.updating { $0.name = newValue } }
    }
    /// A role.
    public var role: String? {
        get { storage.fields.role }
        set { storage = storage.updating { $0.role = newValue } }
    }
    /// Granted scopes.
    public var scopes: [String] {
        get { storage.fields.scopes }
        set { storage = storage.updating { $0.scopes = newValue } }
    }
    /// The whole user document as the provider sent it.
    public var attributes: JSON {
        get { storage.fields.attributes }
        set { storage = storage.updating { $0.attributes = newValue } }
    }

    private enum CodingKeys: String, CodingKey {
        case id, email, name, role, scopes, attributes
    }

    /// Creates a user.
    /// - Parameters:
    ///   - id: The stable identifier.
    ///   - email: The email address.
    ///   - name: The display name.
    ///   - role: A role.
    ///   - scopes: Granted scopes.
    ///   - attributes: The whole user document.
    public init(
        id: String, email: String? = nil, name: String? = nil, role: String? = nil, scopes: [String] = [],
        attributes: JSON = .object([:])
    ) {
        storage = SharedFields(
            Fields(id: id, email: email, name: name, role: role, scopes: scopes, attributes: attributes))
    }

    /// Decodes a user: `id`, `scopes` and `attributes` are required, the others may be absent.
    /// - Parameter decoder: The decoder.
    /// - Throws: A decoding error for a missing or mistyped member.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            email: try container.decodeIfPresent(String.self, forKey: .email),
            name: try container.decodeIfPresent(String.self, forKey: .name),
            role: try container.decodeIfPresent(String.self, forKey: .role),
            scopes: try container.decode([String].self, forKey: .scopes),
            attributes: try container.decode(JSON.self, forKey: .attributes))
    }

    /// Encodes every member, an absent optional left out.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(email, forKey: .email)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(role, forKey: .role)
        try container.encode(scopes, forKey: .scopes)
        try container.encode(attributes, forKey: .attributes)
    }

    /// `User(id: …, email: …)`; the attributes are left out.
    public var description: String {
        var parts = ["id: \(id)"]
        if let email { parts.append("email: \(email)") }
        if let name { parts.append("name: \(name)") }
        return "User(\(parts.joined(separator: ", ")))"
    }
}

extension User: CustomReflectable {
    /// The fields as stored properties, as `dump` and debuggers showed them before they moved behind one
    /// reference.
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: storage.fields).children, displayStyle: .struct)
    }
}
