import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Supabase: configuration and the test server's contract")
struct SupabaseConfigurationTests {
    @Test("The project URL is trimmed, the base is <project>/auth/v1, and apikey goes on every request")
    func baseURLAndAPIKey() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: "ada@example.com", password: "correct-horse")
            let supabase = try harness.makeClient(projectURL: harness.gotrue.projectURL.absoluteString + "//")
            let session = try await supabase.signIn(email: "ada@example.com", password: "correct-horse")
            _ = try await supabase.client.fetchUser()
            try await supabase.client.signOut()

            let wire = harness.gotrue.requests
            #expect(wire.map(\.path) == ["/auth/v1/token", "/auth/v1/user", "/auth/v1/logout"])
            for request in wire {
                #expect(request.headerValues("apikey") == [GoTrueServer.publishableKey])
                #expect(request.headerValues("X-Supabase-Api-Version") == ["2024-01-01"])
            }
            #expect(wire[1].header("Authorization") == "Bearer \(session.accessToken)")
        }
    }

    static let anonJWT = GoTrueServer.jwt(["iss": "supabase", "ref": "abcd", "role": "anon"])
    static let serviceRoleJWT = GoTrueServer.jwt(["iss": "supabase", "ref": "abcd", "role": "service_role"])

    @Test(
        "A secret key is refused before any request",
        arguments: ["sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz", serviceRoleJWT, "  sb_secret_padded  "])
    func secretKeysRefused(key: String) async throws {
        try await withSupabase { harness in
            let error = await caughtAuthError {
                _ = try harness.makeClient(publishableKey: key)
            }
            #expect(error?.code == .secretInApp)
            #expect(error?.kind == .misconfigured)
            #expect(error?.provider == "supabase")
            #expect(error?.message.contains("never ship in an app") == true)
            let trimmed = key.trimmingCharacters(in: .whitespaces)
            #expect(error.map { !$0.description.contains(trimmed) } == true, "the key must not be echoed")
            #expect(harness.gotrue.requests.isEmpty)
        }
    }

    @Test("A publishable key and a legacy anon JWT are accepted")
    func publicKeysAccepted() async throws {
        try await withSupabase { harness in
            _ = try harness.makeClient(publishableKey: "sb_publishable_abc123")
            _ = try harness.makeClient(publishableKey: Self.anonJWT)
            #expect(harness.gotrue.requests.isEmpty)
        }
    }

    @Test("A project URL that is not https (or loopback http) is refused before any request")
    func insecureProjectURL() async throws {
        try await withSupabase { harness in
            let error = await caughtAuthError {
                _ = try harness.makeClient(projectURL: "http://abcd.supabase.co")
            }
            #expect(error?.code == .invalidConfiguration)
            #expect(harness.gotrue.requests.isEmpty)
        }
    }

    @Test("A wrong publishable key is refused by the gateway: invalid_client (misconfigured)")
    func wrongKeyAtTheGateway() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: "ada@example.com", password: "correct-horse")
            let supabase = try harness.makeClient(publishableKey: "sb_publishable_wrong")
            #expect(await supabase.client.restore() == .signedOut)
            let error = await caughtAuthError {
                _ = try await supabase.signIn(email: "ada@example.com", password: "correct-horse")
            }
            #expect(error?.code == "invalid_client")
            #expect(error?.kind == .misconfigured)
            #expect(error?.status == 401)
            #expect(supabase.client.state == .signedOut)
        }
    }

    /// The fake must refuse what GoTrue (or its gateway) refuses, or the wire tests prove nothing.
    @Test("The test server enforces the contract")
    func serverEnforcesContract() async throws {
        try await withSupabase { harness in
            harness.gotrue.addUser(email: "ada@example.com", password: "correct-horse")
            let base = harness.gotrue.projectURL.absoluteString + "/auth/v1"
            let key = GoTrueServer.publishableKey
            let credentials = #"{"email":"ada@example.com","password":"correct-horse"}"#

            var answer = try await Self.send(base + "/token?grant_type=password", body: credentials, headers: [:])
            #expect(answer.status == 401)
            #expect(answer.json["message"] as? String == "No API key found in request")

            let json = ["apikey": key, "Content-Type": "application/json"]
            answer = try await Self.send(base + "/token", body: credentials, headers: json)
            #expect(answer.status == 400)
            #expect(answer.json["error_code"] as? String == "invalid_credentials")
            #expect(answer.json["msg"] as? String == "unsupported_grant_type")
            #expect(answer.json["code"] as? Int == 400, "shape (A) without X-Supabase-Api-Version")

            answer = try await Self.send(
                base + "/token", body: #"{"grant_type":"password","email":"ada@example.com","password":"x"}"#,
                headers: json.merging(["X-Supabase-Api-Version": "2024-01-01"]) { $1 })
            #expect(answer.status == 400)
            #expect(answer.json["code"] as? String == "invalid_credentials", "shape (B) with the 2024-01-01 header")
            #expect(answer.json["message"] as? String == "unsupported_grant_type")
            #expect(answer.header["X-Supabase-Api-Version"] == "2024-01-01")

            answer = try await Self.send(
                base + "/token?grant_type=password", body: "email=ada%40example.com&password=correct-horse",
                headers: ["apikey": key, "Content-Type": "application/x-www-form-urlencoded"])
            #expect(answer.json["error_code"] as? String == "bad_json")

            answer = try await Self.send(
                base + "/token?grant_type=password",
                body: #"{"username":"ada@example.com","password":"correct-horse"}"#,
                headers: json)
            #expect(answer.json["error_code"] as? String == "bad_json", "an undeclared member is refused")

            answer = try await Self.send(base + "/user", body: nil, headers: ["apikey": key])
            #expect(answer.status == 401)
            #expect(answer.json["error_code"] as? String == "no_authorization")

            answer = try await Self.send(
                base + "/user", body: nil, headers: ["apikey": key, "Authorization": "Bearer nope"])
            #expect(answer.status == 403)
            #expect(answer.json["error_code"] as? String == "bad_jwt")

            answer = try await Self.send(
                base + "/token?grant_type=id_token", body: #"{"provider":"apple"}"#, headers: json)
            #expect(answer.status == 400)
            #expect(
                answer.json as NSDictionary == ["error": "invalid request", "error_description": "id_token required"])

            answer = try await Self.send(base + "/token?grant_type=password", body: credentials, headers: json)
            #expect(answer.status == 200)
            #expect(answer.json["token_type"] as? String == "bearer")
            #expect((answer.json["refresh_token"] as? String)?.count == 12)
        }
    }

    static func send(
        _ url: String, body: String?, headers: [String: String]
    ) async throws -> (status: Int, json: [String: Any], header: [String: String]) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = body == nil ? "GET" : "POST"
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        let http = response as? HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        let canonical = Dictionary(
            fields.map {
                ($0.key.lowercased() == "x-supabase-api-version" ? "X-Supabase-Api-Version" : $0.key, $0.value)
            },
            uniquingKeysWith: { first, _ in first })
        return (
            http?.statusCode ?? 0, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:], canonical
        )
    }
}
