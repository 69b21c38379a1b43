import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// supabase-swift's `AuthAdmin` user calls, generated from `supabase-admin.json`, on the wire against the
/// GoTrue-shaped server (which requires the secret key as `apikey` and as the bearer token on `/admin/…`).
@Suite("Supabase admin: users")
struct SupabaseAdminUserTests {
    @Test(
        "listUsers(page:perPage:): GET /admin/users?page=&per_page=; the total and next and last pages from the headers"
    )
    func listUsers() async throws {
        try await withSupabase { harness in
            for name in ["ada", "grace", "alan"] {
                harness.gotrue.addUser(email: "\(name)@example.com", password: "pw-123456")
            }
            let admin = try harness.makeAdmin()
            guard case .page(let first) = try await admin.listUsers(page: 1, perPage: 2) else {
                Issue.record("not a page")
                return
            }
            #expect(first.total == 3)
            #expect(first.nextPage == 2)
            #expect(first.lastPage == 2)
            let users =
                (try JSONSerialization.jsonObject(with: JSONEncoder().encode(first.document)) as? [String: Any])?[
                    "users"] as? [[String: Any]]
            #expect(users?.map { $0["email"] as? String } == ["ada@example.com", "grace@example.com"])
            guard case .page(let last) = try await admin.listUsers(page: 2, perPage: 2) else { return }
            #expect(last.nextPage == nil)
            #expect(last.lastPage == 2)
            _ = try await admin.listUsers()
            let wire = harness.gotrue.requests
            expectAdminRequest(wire[0], "GET", "/admin/users", query: ["page": "1", "per_page": "2"])
            expectAdminRequest(wire[1], "GET", "/admin/users", query: ["page": "2", "per_page": "2"])
            // supabase-swift always sends both, empty when not given.
            expectAdminRequest(wire[2], "GET", "/admin/users", query: ["page": "", "per_page": ""])
            #expect(wire.map(\.rawQuery) == ["page=1&per_page=2", "page=2&per_page=2", "page=&per_page="])
        }
    }

    @Test("createUser, getUserById, updateUserById: POST /admin/users, GET and PUT /admin/users/{id} with typed bodies")
    func createGetUpdate() async throws {
        try await withSupabase { harness in
            let admin = try harness.makeAdmin()
            let created = try await admin.createUser(
                email: "ada@example.com", password: "correct-horse", emailConfirm: true,
                userMetadata: ["full_name": .string("Ada Lovelace")], appMetadata: ["plan": .string("pro")],
                role: "authenticated")
            let id = try #require(created.object["id"] as? String)
            let uuid = try #require(UUID(uuidString: id))
            #expect(created.object["email"] as? String == "ada@example.com")
            let fetched = try await admin.getUserById(userId: uuid)
            #expect(fetched.object["id"] as? String == id)
            let updated = try await admin.updateUserById(
                userId: uuid, phone: "+15550100", password: "new-password", banDuration: "24h")
            #expect(updated.object["phone"] as? String == "+15550100")
            #expect(harness.gotrue.password(of: "ada@example.com") == "new-password")

            let wire = harness.gotrue.requests
            #expect(wire.count == 3)
            expectAdminRequest(
                wire[0], "POST", "/admin/users",
                body: [
                    "email": "ada@example.com", "password": "correct-horse", "email_confirm": true,
                    "user_metadata": ["full_name": "Ada Lovelace"], "app_metadata": ["plan": "pro"],
                    "role": "authenticated",
                ])
            // The id is a UUID, sent as its uuidString (upper case), as supabase-swift's "\(uid)".
            expectAdminRequest(wire[1], "GET", "/admin/users/\(id.uppercased())")
            expectAdminRequest(
                wire[2], "PUT", "/admin/users/\(uuid.uuidString)",
                body: ["phone": "+15550100", "password": "new-password", "ban_duration": "24h"])
        }
    }

    @Test("deleteUser: DELETE /admin/users/{id} with should_soft_delete, or an empty object (GoTrue's hard delete)")
    func deleteUser() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: "ada@example.com", password: "pw-123456")
            harness.gotrue.addUser(email: "grace@example.com", password: "pw-123456")
            let ada = try #require(harness.gotrue.userID(of: "ada@example.com").flatMap(UUID.init(uuidString:)))
            let grace = try #require(harness.gotrue.userID(of: "grace@example.com").flatMap(UUID.init(uuidString:)))
            let admin = try harness.makeAdmin()
            #expect(try await admin.deleteUser(userId: ada, shouldSoftDelete: true) == .none)
            #expect(harness.gotrue.isSoftDeleted(ada.uuidString.lowercased()))
            _ = try await admin.deleteUser(userId: grace)
            #expect(harness.gotrue.userID(of: "grace@example.com") == nil)
            let wire = harness.gotrue.requests
            expectAdminRequest(
                wire[0], "DELETE", "/admin/users/\(ada.uuidString)", body: ["should_soft_delete": true])
            expectAdminRequest(wire[1], "DELETE", "/admin/users/\(grace.uuidString)", body: [:])
        }
    }

    @Test("inviteUserByEmail: POST /admin/invite?redirect_to= with email and data; GoTrue emails an invite")
    func invite() async throws {
        try await withSupabase { harness in
            let admin = try harness.makeAdmin()
            let redirect = URL(string: "https://app.example/welcome")!
            let invited = try await admin.inviteUserByEmail(
                email: "grace@example.com", data: ["team": .string("navy")], redirectTo: redirect)
            #expect(invited.object["email"] as? String == "grace@example.com")
            #expect(harness.gotrue.outbox.map(\.type) == ["invite"])
            expectAdminRequest(
                harness.gotrue.requests.first, "POST", "/admin/invite",
                query: ["redirect_to": redirect.absoluteString],
                body: ["email": "grace@example.com", "data": ["team": "navy"]])
        }
    }

    @Test(
        "generateLink: POST /admin/generate_link with each type's members; the action link and OTP come back",
        arguments: ["signup", "invite", "magiclink", "recovery", "email_change_current", "email_change_new"])
    func generateLink(type: String) async throws {
        try await withSupabase { harness in
            if !["signup", "invite"].contains(type) {
                harness.gotrue.addUser(email: "ada@example.com", password: "pw-123456")
            }
            let admin = try harness.makeAdmin()
            let isChange = type.hasPrefix("email_change")
            let result = try await admin.generateLink(
                type: try #require(SupabaseAdminClient.GenerateLinkType(rawValue: type)), email: "ada@example.com",
                password: type == "signup" ? "pw-654321" : nil,
                newEmail: isChange ? "ada@new.example" : nil,
                data: type == "magiclink" ? ["from": .string("admin")] : nil,
                redirectTo: URL(string: "https://app.example/cb"))
            #expect(result.object["verification_type"] as? String == type)
            #expect((result.object["action_link"] as? String)?.contains("/auth/v1/verify?") == true)
            #expect((result.object["email_otp"] as? String)?.count == 6)
            #expect(harness.gotrue.outbox.isEmpty, "generateLink sends no email")
            var body: [String: Any] = ["type": type, "email": "ada@example.com"]
            if type == "signup" { body["password"] = "pw-654321" }
            if isChange { body["new_email"] = "ada@new.example" }
            if type == "magiclink" { body["data"] = ["from": "admin"] }
            expectAdminRequest(
                harness.gotrue.requests.first, "POST", "/admin/generate_link",
                query: ["redirect_to": "https://app.example/cb"], body: body)
        }
    }

    @Test("signOut(jwt:scope:): POST /logout?scope= with the user's token as the bearer and the secret key as apikey")
    func signOutUser() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: "ada@example.com", password: "correct-horse")
            let app = try harness.makeClient()
            let session = try await app.signIn(email: "ada@example.com", password: "correct-horse")
            harness.gotrue.resetRecording()
            let admin = try harness.makeAdmin()
            _ = try await admin.signOut(jwt: session.accessToken, scope: .local)
            #expect(harness.gotrue.liveSessions == 0)
            let local = harness.gotrue.requests
            #expect(local.count == 1)
            expectAdminRequest(local.first, "POST", "/logout", query: ["scope": "local"], bearer: session.accessToken)
            let again = try await app.signIn(email: "ada@example.com", password: "correct-horse")
            harness.gotrue.resetRecording()
            _ = try await admin.signOut(jwt: again.accessToken)
            let global = harness.gotrue.requests
            #expect(global.count == 1)
            expectAdminRequest(global.first, "POST", "/logout", query: ["scope": "global"], bearer: again.accessToken)
            #expect(harness.gotrue.liveSessions == 0)
        }
    }

    @Test("listPasskeys and deletePasskey: GET and DELETE /admin/users/{id}/passkeys[/{passkeyId}]")
    func passkeys() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: "ada@example.com", password: "pw-123456")
            let id = try #require(harness.gotrue.userID(of: "ada@example.com"))
            let passkey = harness.gotrue.addPasskey(userID: id)
            let user = try #require(UUID(uuidString: id))
            let passkeyID = try #require(UUID(uuidString: passkey))
            let admin = try harness.makeAdmin()
            let listed = try await admin.listPasskeys(userId: user)
            #expect((listed.json as? [[String: Any]])?.map { $0["id"] as? String } == [passkey])
            _ = try await admin.deletePasskey(userId: user, passkeyId: passkeyID)
            #expect(harness.gotrue.passkeys(of: id).isEmpty)
            let wire = harness.gotrue.requests
            expectAdminRequest(wire[0], "GET", "/admin/users/\(user.uuidString)/passkeys")
            expectAdminRequest(
                wire[1], "DELETE", "/admin/users/\(user.uuidString)/passkeys/\(passkeyID.uuidString)")
        }
    }
}
