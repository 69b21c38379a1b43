// posix_spawn: only where ChildSpawn exists (not iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
    import Foundation
    import Testing

    /// `latchkey-demo --provider NAME` for every catalog descriptor, offline on the simulator: fixed-host
    /// providers, providers that need a client secret, `form_post`, https-only redirects and password flows.
    @Suite struct DemoProviderTests {
        /// Every descriptor in `Descriptors/` that signs someone in, by name: a server-side client
        /// (`"audience": "server"`, Supabase's admin API) has no sign-in for the demo to run.
        static let catalog: [String] = {
            let directory = PackageRoot.url.appendingPathComponent("Descriptors")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return files.filter { $0.hasSuffix(".json") && $0 != "descriptor.schema.json" }
                .filter { file in
                    let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path)
                    let object = data.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
                    return object?["audience"] as? String != "server"
                }
                .map { String($0.dropLast(5)) }.sorted()
        }()

        @Test("every catalog descriptor runs on the simulator", arguments: catalog)
        func everyProvider(name: String) async throws {
            let run = try await DemoDeviceTests.run(["--provider", name])
            #expect(run.status == 0, "\(name): \(run.stderr)\(run.stdout)")
            #expect(run.stdout.contains("Signed in as "), "\(name): \(run.stdout)")
            #expect(run.stdout.contains("The API answered: "), "\(name): \(run.stdout)")
            #expect(run.stdout.contains("Signed out."), "\(name): \(run.stdout)")
        }

        @Test func theCatalogIsTheDemosList() async throws {
            #expect(Self.catalog.count >= 22)
            let run = try await DemoDeviceTests.run(["--help"])
            for name in Self.catalog { #expect(run.stdout.contains(name), "\(name) missing from --help") }
            let unknown = try await DemoDeviceTests.run(["--provider", "nonexistent"])
            #expect(unknown.status != 0)
            #expect(unknown.stderr.contains("Unknown provider 'nonexistent'"))
        }
    }
#endif
