import LatchkeyTokens

/// The signed-in person (or principal), mapped from a user document through `UserMapping`.
public struct User: Sendable, Codable, Hashable, CustomStringConvertible {
    /// The provider's stable identifier.
    public var id: String
    /// The email address.
    public var email: String?
    /// The display name.
    public var name: String?
    /// A role.
    public var role: String?
    /// Granted scopes.
    public var scopes: [String]
    /// The whole user document as the provider sent it.
    public var attributes: JSON

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
        self.id = id
        self.email = email
        self.name = name
        self.role = role
        self.scopes = scopes
        self.attributes = attributes
    }

    /// `User(id: …, email: …)`; the attributes are left out.
    public var description: String {
        var parts = ["id: \(id)"]
        if let email { parts.append("email: \(email)") }
        if let name { parts.append("name: \(name)") }
        return "User(\(parts.joined(separator: ", ")))"
    }
}
