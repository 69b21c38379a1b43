// posix_spawn: only where ChildSpawn exists (not iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
    import Foundation
    import Testing

    /// `latchkey-gen new` writes the current descriptor format, and a descriptor in the previous format still
    /// validates (version 2 only adds keys).
    @Suite struct NewDescriptorVersionTests {
        @Test func newWritesFormatVersion2AndVersion1StillValidates() async throws {
            let directory = try CLITests.workspace()
            defer { try? FileManager.default.removeItem(at: directory) }
            #expect(try await CLITests.run(["new", "acme-id"], in: directory).status == 0)
            let file = directory.appendingPathComponent("Descriptors/acme-id.json")
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.contains("\"formatVersion\": 2,"))
            #expect(try await CLITests.run(["validate", "Descriptors/acme-id.json"], in: directory).status == 0)

            // The one-line migration works backwards too: the same descriptor as version 1 is valid.
            try text.replacingOccurrences(of: "\"formatVersion\": 2,", with: "\"formatVersion\": 1,")
                .write(to: file, atomically: true, encoding: .utf8)
            let old = try await CLITests.run(["validate", "Descriptors/acme-id.json"], in: directory)
            #expect(old.status == 0, "\(old.stderr)")

            // A version-2 key in the version-1 file: a located error naming it.
            try text.replacingOccurrences(of: "\"formatVersion\": 2,", with: "\"formatVersion\": 1,")
                .replacingOccurrences(
                    of: "\"discovery\": {",
                    with: "\"tokens\": {\"issuerValidation\": \"tenant_placeholder\"},\n  \"discovery\": {"
                )
                .write(to: file, atomically: true, encoding: .utf8)
            let refused = try await CLITests.run(["validate", "Descriptors/acme-id.json"], in: directory)
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("acme-id.json:"), "\(refused.stderr)")
            #expect(refused.stderr.contains("\"issuerValidation\" needs formatVersion 2"), "\(refused.stderr)")
        }
    }
#endif
