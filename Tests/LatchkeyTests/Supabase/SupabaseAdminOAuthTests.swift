import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// supabase-swift's `AuthAdminOAuth` (client registrations, secret key) and `AuthOAuthServer` (the consent page's
/// calls, with the signed-in user's access token) calls, generated from `supabase-admin.json`, on the wire.
@Suite("Supabase admin: OAuth 2.1 server")
struct SupabaseAdminOAuthTests {
    @Test("OAuth clients: create, list (a page), get, update, regenerate the secret, delete under /admin/oauth/clients")
    func clients() async throws {
        try await withSupabase { harness in
            let admin = try harness.makeAdmin()
            let created = try await admin.createClient(
                clientName: "Notes", redirectUris: ["https://notes.example/cb"], clientUri: "https://notes.example",
                grantTypes: [.authorizationCode, .refreshToken], responseTypes: [.code], scope: "openid email")
            let id = try #require((created.object["client_id"] as? String).flatMap(UUID.init(uuidString:)))
            let secret = try #require(created.object["client_secret"] as? String)
            guard case .page(let page) = try await admin.listClients(perPage: 10) else {
                Issue.record("not a page")
                return
            }
            #expect(page.total == 1)
            #expect(page.lastPage == 1)
            #expect(page.nextPage == nil)
            #expect(try await admin.getClient(clientId: id).object["client_name"] as? String == "Notes")
            let updated = try await admin.updateClient(
                clientId: id, clientName: "Notes 2", logoUri: "https://notes.example/logo.png",
                redirectUris: ["https://notes.example/cb2"], grantTypes: [.authorizationCode])
            #expect(updated.object["client_name"] as? String == "Notes 2")
            let regenerated = try await admin.regenerateClientSecret(clientId: id)
            #expect(regenerated.object["client_secret"] as? String != secret)
            _ = try await admin.deleteClient(clientId: id)
            #expect(harness.gotrue.oauthClientIDs.isEmpty)

            let wire = harness.gotrue.requests
            #expect(wire.count == 6)
            expectAdminRequest(
                wire[0], "POST", "/admin/oauth/clients",
                body: [
                    "client_name": "Notes", "redirect_uris": ["https://notes.example/cb"],
                    "client_uri": "https://notes.example", "grant_types": ["authorization_code", "refresh_token"],
                    "response_types": ["code"], "scope": "openid email",
                ])
            // supabase-swift always sends both, empty when not given.
            expectAdminRequest(wire[1], "GET", "/admin/oauth/clients", query: ["page": "", "per_page": "10"])
            #expect(wire[1].rawQuery == "page=&per_page=10")
            expectAdminRequest(wire[2], "GET", "/admin/oauth/clients/\(id.uuidString)")
            expectAdminRequest(
                wire[3], "PUT", "/admin/oauth/clients/\(id.uuidString)",
                body: [
                    "client_name": "Notes 2", "logo_uri": "https://notes.example/logo.png",
                    "redirect_uris": ["https://notes.example/cb2"], "grant_types": ["authorization_code"],
                ])
            expectAdminRequest(wire[4], "POST", "/admin/oauth/clients/\(id.uuidString)/regenerate_secret")
            expectAdminRequest(wire[5], "DELETE", "/admin/oauth/clients/\(id.uuidString)")
        }
    }

    @Test("The consent page: getAuthorizationDetails, approve or deny, listGrants, revokeGrant with the user's token")
    func consent() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: "ada@example.com", password: "correct-horse")
            let admin = try harness.makeAdmin()
            let client = try await admin.createClient(clientName: "Notes", redirectUris: ["https://notes.example/cb"])
            let clientID = try #require(client.object["client_id"] as? String)
            let jwt = try await harness.makeClient().signIn(email: "ada@example.com", password: "correct-horse")
                .accessToken
            let approved = harness.gotrue.addPendingAuthorization(clientID: clientID)
            let denied = harness.gotrue.addPendingAuthorization(clientID: clientID)
            harness.gotrue.resetRecording()

            let details = try await admin.getAuthorizationDetails(authorizationId: approved, jwt: jwt)
            #expect((details.object["client"] as? [String: Any])?["name"] as? String == "Notes")
            let approval = try await admin.approveAuthorization(authorizationId: approved, jwt: jwt)
            #expect((approval.object["redirect_url"] as? String)?.hasPrefix("https://notes.example/cb?code=") == true)
            _ = try await admin.getAuthorizationDetails(authorizationId: denied, jwt: jwt)
            let denial = try await admin.denyAuthorization(authorizationId: denied, jwt: jwt)
            #expect(denial.object["redirect_url"] as? String == "https://notes.example/cb?error=access_denied")
            let grants = try await admin.listGrants(jwt: jwt)
            #expect((grants.json as? [[String: Any]])?.count == 1)
            _ = try await admin.revokeGrant(clientId: try #require(UUID(uuidString: clientID)), jwt: jwt)

            let wire = harness.gotrue.requests
            try #require(wire.count == 6, "\(wire.map { $0.method + " " + $0.path })")
            expectAdminRequest(wire[0], "GET", "/oauth/authorizations/\(approved)", bearer: jwt)
            expectAdminRequest(
                wire[1], "POST", "/oauth/authorizations/\(approved)/consent", bearer: jwt, body: ["action": "approve"])
            expectAdminRequest(wire[2], "GET", "/oauth/authorizations/\(denied)", bearer: jwt)
            expectAdminRequest(
                wire[3], "POST", "/oauth/authorizations/\(denied)/consent", bearer: jwt, body: ["action": "deny"])
            expectAdminRequest(wire[4], "GET", "/user/oauth/grants", bearer: jwt)
            // supabase-swift: `client_id` is `clientId.uuidString`.
            expectAdminRequest(
                wire[5], "DELETE", "/user/oauth/grants", query: ["client_id": clientID.uppercased()], bearer: jwt)
        }
    }
}

/// What the admin client refuses, and what it never shows.
@Suite("Supabase admin: refusals and secrecy")
struct SupabaseAdminRefusalTests {
    @Test(
        "A publishable or anon key is refused by the admin client before any request",
        arguments: [GoTrueServer.publishableKey, SupabaseConfigurationTests.anonJWT, "", "sb_secretive"])
    func publishableKeyRefused(key: String) async throws {
        try await withSupabase { harness in
            let error = await caughtAuthError { _ = try harness.makeAdmin(secretKey: key) }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.kind == .misconfigured)
            if !key.isEmpty {
                #expect(error?.message.contains("secret key") == true)
                #expect(error.map { !"\($0)".contains(key) && !$0.message.contains(key) } == true)
            }
            #expect(harness.gotrue.requests.isEmpty)
        }
    }

    @Test("A sb_secret_ key and a service_role JWT are accepted; the gateway refuses a wrong secret: invalid_client")
    func secretKeysAccepted() async throws {
        try await withSupabase { harness in
            _ = try harness.makeAdmin(secretKey: SupabaseConfigurationTests.serviceRoleJWT)
            let wrong = try harness.makeAdmin(secretKey: "sb_secret_not_this_project")
            let error = await caughtAuthError { _ = try await wrong.listUsers() }
            #expect(error?.code.rawValue == "invalid_client")
            #expect(harness.gotrue.requests.count == 1)
        }
    }

    @Test("Invalid arguments send nothing: missing or unknown values, path segments that would escape, bad list items")
    func invalidArgumentsSendNothing() async throws {
        try await withSupabase { harness in
            let admin = try harness.makeAdmin()
            let calls: [@Sendable () async throws -> Void] = [
                // Ids are UUIDs in the generated methods; text given to perform(action:arguments:) is refused.
                { _ = try await admin.client.perform(action: "getUserById", arguments: ["userId": .string("..")]) },
                {
                    _ = try await admin.client.perform(
                        action: "deletePasskey", arguments: ["userId": .string("."), "passkeyId": .string("x")])
                },
                // Values outside the descriptor's lists cannot be written with the generated enums; through
                // perform(action:arguments:) they are refused before any request.
                {
                    _ = try await admin.client.perform(
                        action: "generateLink",
                        arguments: ["type": .string("sms"), "email": .string("ada@example.com")])
                },
                {
                    _ = try await admin.client.perform(
                        action: "signOutUser", arguments: ["jwt": .string("token"), "scope": .string("everyone")])
                },
                { _ = try await admin.createClient(clientName: "x", redirectUris: ["https://a.example", ""]) },
                {
                    _ = try await admin.client.perform(
                        action: "createClient",
                        arguments: [
                            "clientName": .string("x"), "redirectUris": .strings(["https://a"]),
                            "grantTypes": .strings(["password"]),
                        ])
                },
                { _ = try await admin.client.perform(action: "getUserById") },
            ]
            for call in calls {
                let error = await caughtAuthError { try await call() }
                #expect(error?.code == .validationFailed)
            }
            #expect(harness.gotrue.requests.isEmpty)
        }
    }

    @Test("A path argument cannot add a segment, a query or a fragment: refused before any request")
    func pathArgumentsStayOneSegment() async throws {
        try await withSupabase { harness in
            let admin = try harness.makeAdmin()
            for id in ["../../user?x=1#f", "a/b", "a?b", "a#b", "a%2Fb", "", ".."] {
                let error = await caughtAuthError {
                    _ = try await admin.getAuthorizationDetails(authorizationId: id, jwt: "user-token")
                }
                #expect(error?.code == .validationFailed, "\(id)")
            }
            #expect(harness.gotrue.requests.isEmpty)
            _ = try? await admin.getAuthorizationDetails(authorizationId: "0b9f-UUID_like~1.2", jwt: "user-token")
            expectAdminRequest(
                harness.gotrue.requests.first, "GET", "/oauth/authorizations/0b9f-UUID_like~1.2", bearer: "user-token")
        }
    }

    @Test("The secret key never appears in a description, dump, log or error")
    func secretNeverShown() async throws {
        try await withSupabase { harness in
            let lines = Locked<[String]>([])
            let options = harness.options(
                store: InMemorySessionStore(), logger: { record in lines.withLock { $0.append("\(record)") } })
            let admin = try SupabaseAdminClient(
                projectURL: harness.gotrue.projectURL, secretKey: GoTrueServer.secretKey, options: options)
            harness.gotrue.failNext("/admin/users", .http(status: 422, code: "email_exists", message: "taken"))
            let error = await caughtAuthError { _ = try await admin.createUser(email: "ada@example.com") }
            #expect(error?.code.rawValue == "user_already_exists")
            _ = try await admin.listUsers()
            var dumped = ""
            dump(admin, to: &dumped)
            var texts = [String(describing: admin), String(reflecting: admin), dumped, "\(admin.client)"]
            texts += error.map { ["\($0)", $0.message, String(reflecting: $0)] } ?? []
            texts += lines.withLock { $0 }
            for text in texts { #expect(!text.contains(GoTrueServer.secretKey), "\(text.prefix(200))") }
            #expect(!lines.withLock { $0 }.isEmpty)
        }
    }
}
