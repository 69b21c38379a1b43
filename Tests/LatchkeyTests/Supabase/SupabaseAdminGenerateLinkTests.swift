import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// supabase-swift's per-kind `GenerateLinkParams` (`.signUp`, `.invite`, `.magicLink`, `.recovery`,
/// `.emailChangeCurrent`, `.emailChangeNew`), generated from `supabase-admin.json` as one method each: the body
/// members and `redirect_to` each kind sends.
@Suite("Supabase admin: generateLink per kind")
struct SupabaseAdminGenerateLinkTests {
    static let redirect = URL(string: "https://app.example/cb")!

    @Test(
        "generateSignUpLink, generateInviteLink, generateMagicLink, generateRecoveryLink, generateEmailChange…Link: each kind's type and members, and nothing else",
        arguments: ["signup", "invite", "magiclink", "recovery", "email_change_current", "email_change_new"])
    func generate(type: String) async throws {
        try await withSupabase { harness in
            if !["signup", "invite"].contains(type) {
                harness.gotrue.addUser(email: "ada@example.com", password: "pw-123456")
            }
            let admin = try harness.makeAdmin()
            let data: [String: JSON] = ["from": .string("admin")]
            let result =
                switch type {
                case "signup":
                    try await admin.generateSignUpLink(
                        email: "ada@example.com", password: "pw-654321", data: data, redirectTo: Self.redirect)
                case "invite":
                    try await admin.generateInviteLink(email: "ada@example.com", data: data, redirectTo: Self.redirect)
                case "magiclink":
                    try await admin.generateMagicLink(email: "ada@example.com", data: data, redirectTo: Self.redirect)
                case "recovery":
                    try await admin.generateRecoveryLink(email: "ada@example.com", redirectTo: Self.redirect)
                case "email_change_current":
                    try await admin.generateEmailChangeCurrentLink(
                        email: "ada@example.com", newEmail: "ada@new.example", redirectTo: Self.redirect)
                default:
                    try await admin.generateEmailChangeNewLink(
                        email: "ada@example.com", newEmail: "ada@new.example", redirectTo: Self.redirect)
                }
            #expect(result.object["verification_type"] as? String == type)
            #expect(harness.gotrue.outbox.isEmpty, "generateLink sends no email")
            var body: [String: Any] = ["type": type, "email": "ada@example.com"]
            if type == "signup" { body["password"] = "pw-654321" }
            if ["signup", "invite", "magiclink"].contains(type) { body["data"] = ["from": "admin"] }
            if type.hasPrefix("email_change") { body["new_email"] = "ada@new.example" }
            #expect(harness.gotrue.requests.count == 1)
            expectAdminRequest(
                harness.gotrue.requests.first, "POST", "/admin/generate_link",
                query: ["redirect_to": Self.redirect.absoluteString], body: body)
        }
    }
}
