import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

@Suite("Supabase: a session issued already expired")
struct SupabaseExpiredIssueTests {
    static let email = "ada@example.com"
    static let password = "correct-horse"

    @Test("expires_in: -60 with expires_at in the past: validAccessToken() refreshes, once for concurrent callers")
    func expiredAtIssueRefreshesOnce() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: Self.email, password: Self.password)
            harness.gotrue.issueExpiredSessions(1)
            let supabase = try harness.makeClient()
            let first = try await supabase.signIn(email: Self.email, password: Self.password)
            #expect(first.expiresAt.map { $0 < Date() } == true)
            harness.gotrue.resetRecording()

            let client = supabase.client
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 { group.addTask { try await client.validAccessToken() } }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }

            let refreshes = harness.gotrue.requests("/token").filter { $0.query("grant_type") == "refresh_token" }
            #expect(refreshes.count == 1)
            #expect(refreshes.first?.jsonBody as? [String: String] == ["refresh_token": first.refreshToken!])
            #expect(Set(tokens).count == 1)
            #expect(tokens.first != first.accessToken)
            // The refreshed session has a lifetime again: no further refresh.
            #expect(try await client.validAccessToken() == tokens.first)
            #expect(harness.gotrue.requests("/token").count == 1)
        }
    }
}
