import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// The Supabase spec without `X-Supabase-Api-Version`, so that GoTrue answers errors in its older shape (A).
let supabaseSpecWithoutAPIVersion: ProviderSpec = {
    var spec = SupabaseClient.provider
    spec.commonHeaders.removeAll { $0.name == "X-Supabase-Api-Version" }
    return spec
}()

@Suite("Supabase: error bodies in all three shapes map to stable codes")
struct SupabaseErrorTests {
    /// One row per row of `errors.map` in supabase.json: how GoTrue (or its gateway) answers, and the
    /// stable code and kind the client must report.
    struct Row: Sendable, CustomTestStringConvertible {
        /// The descriptor row: its provider code, `prefix*`, or `status N`.
        let rule: String
        let status: Int
        let answer: GoTrueServer.Failure
        let code: String
        let kind: AuthError.Kind
        /// The provider code the error must carry.
        let providerCode: String?

        var testDescription: String { rule }

        /// The provider's own message, verbatim: GoTrue's `msg` (shape A), `message` (shape B) or
        /// `error_description` (shape C), or the gateway's `message`.
        var providerMessage: String? {
            switch answer {
            case .http(_, _, let message): message
            case .oauth(_, let description): description
            case .raw: status == 401 ? "Invalid API key" : nil
            }
        }

        /// A GoTrue `HTTPError` (shape A or B as the request's API version says).
        static func http(_ providerCode: String, _ status: Int, _ code: String, _ kind: AuthError.Kind) -> Row {
            Row(
                rule: providerCode, status: status,
                answer: .http(status: status, code: providerCode, message: "GoTrue says \(providerCode)"), code: code,
                kind: kind, providerCode: providerCode)
        }
    }

    static let rows: [Row] = [
        .http("invalid_credentials", 400, "invalid_credentials", .rejected),
        .http("email_not_confirmed", 400, "email_not_confirmed", .rejected),
        .http("phone_not_confirmed", 400, "email_not_confirmed", .rejected),
        .http("user_already_exists", 422, "user_already_exists", .invalidInput),
        .http("email_exists", 422, "user_already_exists", .invalidInput),
        .http("phone_exists", 422, "user_already_exists", .invalidInput),
        .http("identity_already_exists", 422, "user_already_exists", .invalidInput),
        .http("weak_password", 422, "weak_password", .invalidInput),
        .http("same_password", 422, "weak_password", .invalidInput),
        Row(
            rule: "over_*", status: 429,
            answer: .http(status: 429, code: "over_email_send_rate_limit", message: "email rate limit exceeded"),
            code: "rate_limited", kind: .transport, providerCode: "over_email_send_rate_limit"),
        .http("refresh_token_already_used", 400, "session_expired", .rejected),
        .http("refresh_token_not_found", 400, "session_expired", .rejected),
        .http("session_not_found", 403, "session_expired", .rejected),
        .http("session_expired", 400, "session_expired", .rejected),
        .http("bad_jwt", 403, "session_expired", .rejected),
        .http("no_authorization", 401, "session_missing", .rejected),
        .http("user_not_found", 403, "session_expired", .rejected),
        .http("user_banned", 400, "user_banned", .rejected),
        .http("bad_code_verifier", 400, "bad_code_verifier", .rejected),
        .http("flow_state_expired", 422, "flow_state_expired", .rejected),
        .http("flow_state_not_found", 404, "flow_state_not_found", .rejected),
        .http("otp_expired", 403, "otp_expired", .rejected),
        .http("otp_disabled", 422, "provider_disabled", .misconfigured),
        .http("validation_failed", 400, "validation_failed", .invalidInput),
        .http("bad_json", 400, "invalid_request", .invalidInput),
        .http("email_address_invalid", 400, "validation_failed", .invalidInput),
        .http("email_address_not_authorized", 400, "validation_failed", .invalidInput),
        .http("reauthentication_needed", 400, "mfa_required", .rejected),
        .http("insufficient_aal", 401, "mfa_required", .rejected),
        .http("mfa_verification_failed", 422, "mfa_required", .rejected),
        .http("current_password_required", 400, "validation_failed", .invalidInput),
        .http("current_password_invalid", 400, "invalid_credentials", .rejected),
        .http("captcha_failed", 400, "validation_failed", .invalidInput),
        .http("signup_disabled", 422, "provider_disabled", .misconfigured),
        .http("email_provider_disabled", 422, "provider_disabled", .misconfigured),
        .http("phone_provider_disabled", 422, "provider_disabled", .misconfigured),
        .http("provider_disabled", 400, "provider_disabled", .misconfigured),
        .http("anonymous_provider_disabled", 422, "provider_disabled", .misconfigured),
        .http("feature_disabled", 400, "provider_disabled", .misconfigured),
        .http("conflict", 409, "rate_limited", .transport),
        .http("request_timeout", 504, "timeout", .transport),
        .http("hook_timeout", 422, "timeout", .transport),
        .http("unexpected_failure", 500, "server_error", .transport),
        .http("request_entity_too_large", 413, "invalid_request", .invalidInput),
        Row(
            rule: "invalid request", status: 400,
            answer: .oauth(error: "invalid request", description: "id_token required"),
            code: "invalid_request", kind: .invalidInput, providerCode: "invalid request"),
        Row(
            rule: "invalid nonce", status: 400, answer: .oauth(error: "invalid nonce", description: "Nonces mismatch"),
            code: "invalid_request", kind: .invalidInput, providerCode: "invalid nonce"),
        Row(
            rule: "status 429", status: 429, answer: .raw(.text("Too Many Requests", status: 429)),
            code: "rate_limited",
            kind: .transport, providerCode: nil),
        Row(
            rule: "status 401", status: 401,
            answer: .raw(
                .json(
                    [
                        "message": "Invalid API key",
                        "hint": "Double check your Supabase `anon` or `service_role` API key.",
                    ],
                    status: 401)),
            code: "invalid_client", kind: .misconfigured, providerCode: nil),
    ]

    static func key(of rule: ErrorMappingSpec.Rule) -> String {
        if let code = rule.providerCode { return code }
        if let prefix = rule.providerCodePrefix { return prefix + "*" }
        return "status \(rule.status ?? 0)"
    }

    @Test("The table has exactly one row per mapping in supabase.json, with the same code and kind")
    func tableMatchesDescriptor() {
        let rules = SupabaseClient.provider.errors.rules
        #expect(Self.rows.count == rules.count)
        for rule in rules {
            let rows = Self.rows.filter { $0.rule == Self.key(of: rule) }
            #expect(rows.count == 1, "rule \(Self.key(of: rule))")
            #expect(rows.first?.code == rule.code, "rule \(Self.key(of: rule))")
            #expect(rows.first?.kind == rule.kind, "rule \(Self.key(of: rule))")
        }
    }

    @Test(
        "Every mapping yields its code and kind, in shape (B) and shape (A) (shape C where GoTrue uses it)",
        arguments: rows)
    func mapping(row: Row) async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: "ada@example.com", password: "correct-horse")
            let current = try harness.makeClient()
            let older = try harness.makeClient(redirectURIs: [:], spec: supabaseSpecWithoutAPIVersion)
            for (client, versioned) in [(current, true), (older, false)] {
                #expect(await client.client.restore() == .signedOut)
                harness.gotrue.failNext("/token", row.answer)
                let error = await caughtAuthError {
                    _ = try await client.signIn(email: "ada@example.com", password: "correct-horse")
                }
                let shape = versioned ? "B" : "A"
                #expect(error?.code.rawValue == row.code, "shape \(shape)")
                #expect(error?.kind == row.kind, "shape \(shape)")
                #expect(error?.status == row.status, "shape \(shape)")
                #expect(error?.providerCode == row.providerCode, "shape \(shape)")
                #expect(error?.providerMessage == row.providerMessage, "shape \(shape)")
                #expect(error?.provider == "supabase")
                #expect(client.client.state == .signedOut)
                let sent = harness.gotrue.requests.last
                #expect(sent?.headerValues("X-Supabase-Api-Version") == (versioned ? ["2024-01-01"] : []))
            }
            #expect(harness.gotrue.requests.count == 2)
        }
    }

    struct CallbackRow: Sendable, CustomTestStringConvertible {
        let rule: String
        /// The redirect's parameters, as GoTrue puts them in the query and the fragment.
        let parameters: [(String, String)]
        let code: String
        let kind: AuthError.Kind

        var testDescription: String { rule }

        static func gotrue(_ error: String, _ errorCode: String?, _ code: String, _ kind: AuthError.Kind) -> CallbackRow
        {
            var parameters = [("error", error)]
            if let errorCode { parameters.append(("error_code", errorCode)) }
            parameters.append(("error_description", "GoTrue says \(errorCode ?? error)"))
            return CallbackRow(rule: errorCode ?? error, parameters: parameters, code: code, kind: kind)
        }
    }

    static let callbackRows: [CallbackRow] = [
        .gotrue("access_denied", nil, "login_cancelled", .cancelled),
        .gotrue("access_denied", "otp_expired", "otp_expired", .rejected),
        .gotrue("invalid_request", "bad_oauth_state", "state_mismatch", .invalidResponse),
        .gotrue("invalid_request", "bad_oauth_callback", "invalid_callback", .invalidResponse),
        .gotrue("invalid_request", "flow_state_already_used", "invalid_callback", .invalidResponse),
        .gotrue("access_denied", "signup_disabled", "provider_disabled", .misconfigured),
        .gotrue("server_error", nil, "server_error", .transport),
        .gotrue("temporarily_unavailable", nil, "server_error", .transport),
        .gotrue("invalid_request", nil, "invalid_request", .invalidInput),
    ]

    @Test("The callback table has one row per callback mapping in supabase.json")
    func callbackTableMatchesDescriptor() {
        let rules = SupabaseClient.provider.errors.callbackRules
        #expect(Self.callbackRows.count == rules.count)
        for rule in rules {
            let rows = Self.callbackRows.filter { $0.rule == Self.key(of: rule) }
            #expect(rows.count == 1, "rule \(Self.key(of: rule))")
            #expect(rows.first?.code == rule.code)
            #expect(rows.first?.kind == rule.kind)
        }
    }

    @Test("Every callback error mapping yields its code and kind, and no token request", arguments: callbackRows)
    func callbackMapping(row: CallbackRow) async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            _ = try await supabase.client.prepareAuthorization(
                redirectURI: SupabaseAppURLs.callback, additionalParameters: ["provider": "google"])
            let encoded = GoTrueState.encode(row.parameters)
            let url = URL(string: SupabaseAppURLs.callback.absoluteString + "?" + encoded + "#" + encoded + "&sb=")!

            let error = await caughtAuthError { _ = try await supabase.client.handleCallback(url) }

            #expect(error?.code.rawValue == row.code)
            #expect(error?.kind == row.kind)
            #expect(harness.gotrue.requests.isEmpty)
            #expect(supabase.client.state == .signedOut)
            #expect(try await harness.storedSession() == nil)
            // GoTrue echoes no state: nothing proves the error came from it, so the sign-in stays pending
            // (until its lifetime ends) and a forged error cannot end it.
            #expect(try await harness.storedPending()?.count == 1)
        }
    }

    @Test("The provider's message is kept verbatim, with every secret the request sent cut out")
    func providerMessageIsRedacted() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: "ada@example.com", password: "correct-horse-battery")
            let client = try harness.makeClient()
            harness.gotrue.failNext(
                "/token",
                .http(status: 400, code: "invalid_credentials", message: "No user for password correct-horse-battery."))

            let error = await caughtAuthError {
                _ = try await client.signIn(email: "ada@example.com", password: "correct-horse-battery")
            }

            #expect(error?.providerMessage == "No user for password <redacted>.")
            #expect(error?.providerCode == "invalid_credentials")
            #expect(error?.code == .invalidCredentials)
            let description = String(describing: try #require(error))
            #expect(description.range(of: "correct-horse") == nil)
            #expect(description.range(of: "provider message: No user for password <redacted>.") != nil)
        }
    }

    @Test("A callback's error_description is the provider message, with its error_code as the provider code")
    func callbackProviderMessage() async throws {
        try await withSupabase { harness in
            let supabase = try harness.makeClient()
            let url = URL(
                string: SupabaseAppURLs.callback.absoluteString
                    + "#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired&sb="
            )!
            let error = await caughtAuthError { _ = try await supabase.client.handleCallback(url) }
            #expect(error?.code == .init(rawValue: "otp_expired"))
            #expect(error?.providerCode == "otp_expired")
            #expect(error?.providerMessage == "Email link is invalid or has expired")
            #expect(harness.gotrue.requests.isEmpty)
        }
    }

    // MARK: - Refresh-token reuse

    @Test("A refresh after another process rotated and stored the session adopts it with zero requests")
    func adoptsWhatAnotherProcessStored() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: "ada@example.com", password: "correct-horse")
            let app = try harness.makeClient()
            _ = try await app.signIn(email: "ada@example.com", password: "correct-horse")
            // An app extension over the same file store refreshes twice.
            let appExtension = try harness.makeClient()
            #expect(await appExtension.client.restore().isSignedIn)
            _ = try await appExtension.client.currentSession(forceRefresh: true)
            let newest = try await appExtension.client.currentSession(forceRefresh: true)
            harness.gotrue.resetRecording()

            let adopted = try await app.client.currentSession(forceRefresh: true)

            #expect(adopted.refreshToken == newest.refreshToken)
            #expect(adopted.accessToken == newest.accessToken)
            #expect(harness.gotrue.requests.isEmpty, "the used refresh token is never sent again")
            #expect(app.client.state.isSignedIn)
            // And the adopted session refreshes normally.
            let next = try await app.client.currentSession(forceRefresh: true)
            expectGoTrueRequest(
                harness.gotrue.requests.last, "POST", "/token", query: ["grant_type": "refresh_token"],
                body: ["refresh_token": newest.refreshToken!])
            #expect(next.refreshToken != newest.refreshToken)
        }
    }

    @Test(
        "refresh_token_already_used: re-read the store and adopt a newer session, and sign out only when there is none",
        arguments: [true, false])
    func reuseAdoptsThenSignsOut(versioned: Bool) async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: "ada@example.com", password: "correct-horse")
            let spec = versioned ? SupabaseClient.provider : supabaseSpecWithoutAPIVersion
            let app = try harness.makeClient(redirectURIs: [:], spec: spec)
            let first = try await app.signIn(email: "ada@example.com", password: "correct-horse")
            // Another process over the same files that does not take the refresh lock (an older build, or a
            // file system without flock) refreshes twice while the app's refresh is in flight.
            let racer = try harness.makeClient(
                redirectURIs: [:], spec: spec, store: UnlockedFileStore(files: harness.store))
            #expect(await racer.client.restore().isSignedIn)
            harness.gotrue.beforeRefresh(with: first.refreshToken!) {
                _ = try? await racer.client.currentSession(forceRefresh: true)
                _ = try? await racer.client.currentSession(forceRefresh: true)
            }
            harness.gotrue.resetRecording()

            let adopted = try await app.client.currentSession(forceRefresh: true)

            let refreshes = harness.gotrue.requests("/token")
            #expect(refreshes.count == 3, "the app's refresh, then the racer's two")
            expectGoTrueRequest(
                refreshes.first, "POST", "/token", query: ["grant_type": "refresh_token"],
                body: ["refresh_token": first.refreshToken!], apiVersion: versioned)
            let newest = try #require(await racer.client.cachedSession)
            #expect(adopted.accessToken == newest.accessToken)
            #expect(adopted.refreshToken == newest.refreshToken)
            #expect(app.client.state.isSignedIn)
            #expect(try await harness.storedSession()?["refreshToken"] as? String == newest.refreshToken)

            // GoTrue revoked the whole family on the reuse: the adopted token is dead too, and this time the
            // store holds nothing newer, so the app signs out.
            #expect(!harness.gotrue.isUsable(refreshToken: newest.refreshToken!))
            let error = await caughtAuthError { _ = try await app.client.currentSession(forceRefresh: true) }
            #expect(error?.code == .sessionExpired)
            #expect(error?.kind == .rejected)
            #expect(error?.providerCode == "refresh_token_already_used")
            #expect(error?.status == 400)
            #expect(app.client.state == .signedOut)
            #expect(try await harness.storeIsEmpty())
            #expect(harness.gotrue.requests("/token").count == 4)
        }
    }

    @Test("One rotation behind is GoTrue's fail-to-save allowance: the active token comes back, no error")
    func oneRotationBehind() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: "ada@example.com", password: "correct-horse")
            let app = try harness.makeClient()
            let first = try await app.signIn(email: "ada@example.com", password: "correct-horse")
            let rotated = try #require(harness.gotrue.rotateOutOfBand(first.refreshToken!))

            let session = try await app.client.currentSession(forceRefresh: true)

            #expect(session.refreshToken == rotated)
            #expect(session.accessToken != first.accessToken)
            #expect(app.client.state.isSignedIn)
        }
    }

    @Test("A refresh after a global sign-out elsewhere is session_expired and signs out")
    func refreshAfterGlobalSignOut() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: "ada@example.com", password: "correct-horse")
            let app = try harness.makeClient()
            _ = try await app.signIn(email: "ada@example.com", password: "correct-horse")
            let elsewhere = try harness.makeClient(store: InMemorySessionStore())
            _ = try await elsewhere.signIn(email: "ada@example.com", password: "correct-horse")
            try await elsewhere.client.signOut(scope: "global")

            let error = await caughtAuthError { _ = try await app.client.currentSession(forceRefresh: true) }

            #expect(error?.code == .sessionExpired)
            #expect(error?.kind == .rejected)
            #expect(error?.providerCode == "refresh_token_not_found")
            #expect(app.client.state == .signedOut)
            #expect(try await harness.storeIsEmpty())
        }
    }
}

/// The files of a ``FileSessionStore`` without its refresh lock.
struct UnlockedFileStore: SessionStore {
    let files: FileSessionStore

    func load(key: String) async throws(AuthError) -> Data? { try await files.load(key: key) }
    func save(_ data: Data, key: String) async throws(AuthError) { try await files.save(data, key: key) }
    func remove(key: String) async throws(AuthError) { try await files.remove(key: key) }
}
