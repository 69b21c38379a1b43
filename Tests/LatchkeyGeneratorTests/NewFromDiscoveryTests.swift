// posix_spawn: only where ChildSpawn exists (not iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
    import Foundation
    import Testing

    /// `latchkey-gen new NAME --from-discovery FILE` uses every member of the saved document it can.
    @Suite struct NewFromDiscoveryTests {
        static func new(_ document: String) async throws -> (text: String, run: CLITests.Run, directory: URL) {
            let directory = try CLITests.workspace()
            try Data(document.utf8).write(to: directory.appendingPathComponent("discovery.json"))
            let run = try await CLITests.run(["new", "example", "--from-discovery", "discovery.json"], in: directory)
            let text =
                (try? String(
                    contentsOf: directory.appendingPathComponent("Descriptors/example.json"), encoding: .utf8)) ?? ""
            return (text, run, directory)
        }

        @Test func everyPublishedEndpointBecomesAFlow() async throws {
            let (text, run, directory) = try await Self.new(
                #"""
                {"issuer": "https://login.example.com", "authorization_endpoint": "https://login.example.com/authorize",
                 "token_endpoint": "https://login.example.com/token", "jwks_uri": "https://login.example.com/keys",
                 "revocation_endpoint": "https://login.example.com/revoke",
                 "end_session_endpoint": "https://login.example.com/logout",
                 "device_authorization_endpoint": "https://login.example.com/device",
                 "scopes_supported": ["openid", "email", "offline_access", "phone"],
                 "id_token_signing_alg_values_supported": ["RS256", "HS256"],
                 "code_challenge_methods_supported": ["S256", "plain"]}
                """#)
            defer { try? FileManager.default.removeItem(at: directory) }
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("revocation"), "\(run.stdout)")
            #expect(text.contains(#""url": "{discovered.revocation_endpoint}""#))
            #expect(text.contains(#""signOut": { "request": "revokeToken" }"#))
            #expect(text.contains(#""deviceCode": { "authorization": "deviceAuthorization", "token": "deviceToken" }"#))
            #expect(text.contains(#""url": "{discovered.end_session_endpoint}""#))
            #expect(text.contains(#""validateIDToken": true, "jwks": "{discovered.jwks_uri}""#))
            #expect(text.contains(#""scopes": ["openid", "email", "offline_access"]"#))
            #expect(text.contains(#""code_challenge_method": "S256""#))
            #expect(try await CLITests.run(["validate", "Descriptors/example.json"], in: directory).status == 0)
            #expect(try await CLITests.run(["generate", "Descriptors/example.json"], in: directory).status == 0)
            let generated = try String(
                contentsOf: directory.appendingPathComponent("Generated/example.swift"), encoding: .utf8)
            #expect(generated.contains("device authorization"))
            #expect(generated.contains("RP-initiated logout"))
        }

        @Test func whatTheDocumentLacksIsLeftOut() async throws {
            let (text, run, directory) = try await Self.new(
                #"""
                {"issuer": "https://login.example.com", "jwks_uri": "https://login.example.com/keys",
                 "id_token_signing_alg_values_supported": ["HS256"], "code_challenge_methods_supported": ["plain"]}
                """#)
            defer { try? FileManager.default.removeItem(at: directory) }
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("HS256"), "an unverifiable algorithm is named: \(run.stderr)")
            #expect(!text.contains("revokeToken"))
            #expect(!text.contains("deviceCode"))
            #expect(!text.contains("endSession"))
            #expect(!text.contains("validateIDToken"))
            #expect(!text.contains("code_challenge"))
            #expect(try await CLITests.run(["validate", "Descriptors/example.json"], in: directory).status == 0)
        }
    }
#endif
