import LatchkeyDescriptor
import LatchkeyGenerator
import Testing

/// `actionGroups` become nested sub-client types; `event`, `then` and `accessTokenClaims` reach the spec literal
/// and the generated methods.
@Suite struct SubClientGenerationTests {
    @Test("Supabase: client.mfa is a nested MFA type with its values' enums; getClaims and the assurance level")
    func supabase() throws {
        let result = DescriptorLoader.load(path: PackageRoot.path("Descriptors/supabase.json"))
        let descriptor = try #require(result.descriptor, "\(result.diagnostics)")
        let generator = try Generator(templatesDirectory: PackageRoot.path("Templates"))
        let code = try generator.render(descriptor, fileName: "supabase.json")
        #expect(code.contains("public var mfa: MFA { MFA(client: client) }"))
        #expect(code.contains("public struct MFA: Swift.Sendable {"))
        #expect(code.contains(#"return try await client.perform(action: "mfaVerify", arguments: arguments)"#))
        #expect(code.contains(#"event: "mfa_challenge_verified""#))
        #expect(code.contains("followUps: [\n                    LatchkeyRuntime.ActionFollowUpSpec("))
        #expect(code.contains(#"arguments: ["challengeId": "/id"]"#))
        #expect(code.contains(#"keysRequest: "jwks""#))
        #expect(code.contains("public func getClaims(jwt: Swift.String? = nil)"))
        // The assurance level is in the MFA type (indented as its member), not on the client.
        #expect(code.contains("        public func getAuthenticatorAssuranceLevel()"))
        #expect(!code.contains("\n    public func getAuthenticatorAssuranceLevel()"))
        // A grouped action's `values` become an enum nested in its sub-client, sent as its raw value.
        #expect(code.contains("        public enum MfaChallengeChannel: Swift.String, Swift.Sendable,"))
        #expect(code.contains("            channel: MfaChallengeChannel? = nil,"))
        #expect(code.contains(#"if let channel { arguments["channel"] = .string(channel.rawValue) }"#))
        #expect(!code.contains("\n    public enum MfaChallengeChannel"))
        // Grouped actions are not on the client itself.
        #expect(!code.contains("\n    public func challengeAndVerify("))
    }

    @Test("An action whose then runs a ceremony takes an authenticator, with an Apple presentationAnchor: overload")
    func ceremonies() throws {
        let result = DescriptorLoader.load(path: PackageRoot.path("Descriptors/supabase.json"))
        let descriptor = try #require(result.descriptor, "\(result.diagnostics)")
        let generator = try Generator(templatesDirectory: PackageRoot.path("Templates"))
        let code = try generator.render(descriptor, fileName: "supabase.json")
        #expect(code.contains("ceremony: LatchkeyRuntime.PasskeyCeremonySpec(\n"))
        #expect(code.contains("kind: .assertion,\n                            optionsPointer: \"/options\","))
        #expect(code.contains("extension SupabaseClient {\n"))
        #expect(code.contains("extension SupabaseClient.MFA {\n"))
        #expect(code.contains("        authenticator: some LatchkeyRuntime.PasskeyAuthenticator\n"))
        #expect(
            code.contains(
                #"try await client.perform(action: "signInWithPasskey", passkeyAuthenticator: authenticator)"#))
        #expect(code.contains("#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))"))
        #expect(code.contains("            presentationAnchor: AuthenticationServices.ASPresentationAnchor\n"))
        #expect(
            code.contains("authenticator: LatchkeyRuntime.PlatformPasskeyAuthenticator(anchor: { presentationAnchor })")
        )
        // Not also generated without the authenticator.
        #expect(!code.contains("public func signInWithPasskey() "))
    }

    @Test("A descriptor without the keys generates none of it")
    func absent() throws {
        let result = DescriptorLoader.load(path: PackageRoot.path("Descriptors/github.json"))
        let descriptor = try #require(result.descriptor, "\(result.diagnostics)")
        let generator = try Generator(templatesDirectory: PackageRoot.path("Templates"))
        let code = try generator.render(descriptor, fileName: "github.json")
        #expect(!code.contains("getClaims"))
        #expect(!code.contains("accessTokenClaims"))
        #expect(!code.contains("Swift.Sendable {"))
    }
}
