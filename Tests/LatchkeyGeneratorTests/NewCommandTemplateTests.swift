// posix_spawn: only where ChildSpawn exists (not iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
    import Foundation
    import Testing

    /// `latchkey-gen new`: the plain OAuth 2.0 template, the display name as typed, and a `$schema` only where
    /// the schema is.
    @Suite struct NewCommandTemplateTests {
        static func text(_ directory: URL, _ path: String) throws -> String {
            try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8)
        }

        @Test func oauth2TemplateValidatesAndGenerates() async throws {
            let directory = try CLITests.workspace()
            defer { try? FileManager.default.removeItem(at: directory) }
            let run = try await CLITests.run(["new", "acme-oauth", "--oauth2"], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            let text = try Self.text(directory, "Descriptors/acme-oauth.json")
            #expect(!text.contains("\"discovery\""))
            #expect(!text.contains("\"nonce\""))
            #expect(text.contains("\"authorizeURL\": \"https://provider.example.com/oauth/authorize\""))
            #expect(try await CLITests.run(["validate", "Descriptors/acme-oauth.json"], in: directory).status == 0)
            #expect(try await CLITests.run(["generate", "Descriptors/acme-oauth.json"], in: directory).status == 0)
            let generated = try Self.text(directory, "Generated/acme-oauth.swift")
            #expect(generated.contains("public struct AcmeOauthClient"))
            #expect(generated.contains("browser sign-in (authorization code with PKCE)"))
        }

        @Test func displayNameKeepsItsCase() async throws {
            let directory = try CLITests.workspace()
            defer { try? FileManager.default.removeItem(at: directory) }
            // A name the catalog (copied into the workspace) does not use: `new` refuses to overwrite a descriptor.
            #expect(try await CLITests.run(["new", "Velocipede", "--oauth2"], in: directory).status == 0)
            let velocipede = try Self.text(directory, "Descriptors/velocipede.json")
            #expect(velocipede.contains("\"name\": \"velocipede\""))
            #expect(velocipede.contains("\"displayName\": \"Velocipede\""))
            let named = try await CLITests.run(["new", "my-idp", "--display-name", "My IdP"], in: directory)
            #expect(named.status == 0, "\(named.stderr)")
            #expect(try Self.text(directory, "Descriptors/my-idp.json").contains("\"displayName\": \"My IdP\""))
        }

        @Test func schemaOnlyWhereTheSchemaIs() async throws {
            let directory = try CLITests.workspace()
            defer { try? FileManager.default.removeItem(at: directory) }
            #expect(try await CLITests.run(["new", "inside"], in: directory).status == 0)
            #expect(
                try Self.text(directory, "Descriptors/inside.json").contains(
                    "\"$schema\": \"./descriptor.schema.json\""))
            #expect(try await CLITests.run(["new", "outside", "--output", "elsewhere"], in: directory).status == 0)
            let outside = try Self.text(directory, "elsewhere/outside.json")
            #expect(!outside.contains("$schema"))
            #expect(try await CLITests.run(["validate", "elsewhere/outside.json"], in: directory).status == 0)
        }

        @Test func oauth2AndDiscoveryTogetherIsAUsageError() async throws {
            let directory = try CLITests.workspace()
            defer { try? FileManager.default.removeItem(at: directory) }
            let run = try await CLITests.run(
                ["new", "x", "--oauth2", "--from-discovery", "discovery.json"], in: directory)
            #expect(run.status == 2)
            #expect(run.stderr.contains("--oauth2"))
        }
    }
#endif
