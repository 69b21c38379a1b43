import Foundation

/// An account on a ``ProviderSimulator``.
public struct SimulatedUser: Sendable, Hashable {
    /// The stable identifier (`sub`).
    public var id: String
    /// The email address (also accepted as the password flow's identifier).
    public var email: String
    /// The display name.
    public var name: String
    /// The password for password grants.
    public var password: String
    /// A role, for descriptors that map one.
    public var role: String

    /// Creates a user.
    public init(id: String, email: String, name: String, password: String, role: String = "authenticated") {
        self.id = id
        self.email = email
        self.name = name
        self.password = password
        self.role = role
    }

    /// Ada Lovelace, `ada@example.com`, password `analytical-engine`.
    public static let demo = SimulatedUser(
        id: "user-ada", email: "ada@example.com", name: "Ada Lovelace", password: "analytical-engine")

    /// Whether an identifier (email or id) names this user.
    func isIdentified(by identifier: String) -> Bool {
        identifier.caseInsensitiveCompare(email) == .orderedSame || identifier == id
    }
}
