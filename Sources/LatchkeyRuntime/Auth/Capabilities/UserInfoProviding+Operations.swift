import Foundation

extension UserInfoProviding {
    /// Fetches the signed-in user from the provider.
    /// - Returns: The user.
    /// - Throws: `session_missing` when signed out, and provider errors.
    public func fetchUser() async throws(AuthError) -> User { try await client.fetchUser() }
}
