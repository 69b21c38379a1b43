// posix_spawn: only where ChildSpawn exists (not iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
    import Foundation
    @_spi(Generated) import LatchkeyTesting
    import Testing

    /// `latchkey-demo --device` as users run it, offline against the simulator: the demo prints the
    /// verification address and the user code, plays the user who approves it, polls, and signs in.
    @Suite struct DemoDeviceTests {
        static var binary: URL? { BuildProducts.executable("latchkey-demo") }

        static func run(_ arguments: [String]) async throws -> CLITests.Run {
            guard let binary else {
                Issue.record("latchkey-demo is not built next to the tests; run `swift build` first")
                return CLITests.Run(status: -1, stdout: "", stderr: "")
            }
            let directory = FileManager.default.temporaryDirectory
            return try await DedicatedThread.run { try CLITests.runBlocking(binary, arguments, in: directory) }
        }

        @Test(arguments: [["--device"], ["--device", "--provider", "github"], ["--provider", "entra-id", "--device"]])
        func deviceFlowOnTheSimulator(arguments: [String]) async throws {
            let run = try await Self.run(arguments)
            #expect(run.status == 0, "\(run.stderr)\(run.stdout)")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            let address = try #require(lines.first { $0.hasPrefix("To sign in, open http://127.0.0.1:") })
            #expect(address.hasSuffix("/device/verify"))
            let codeLine = try #require(lines.first { $0.contains("and enter the code ") })
            let code = try #require(codeLine.split(separator: " ").last.map(String.init))
            #expect(code.range(of: #"^[B-Z]{4}-[B-Z]{4}$"#, options: .regularExpression) != nil, "user code \(code)")
            #expect(run.stdout.contains("approving the code \(code)"))
            #expect(run.stdout.contains("Signed in as Ada Lovelace"))
            #expect(run.stdout.contains("The API answered: Hello, Ada Lovelace"))
            #expect(run.stdout.contains("Signed out."))
            #expect(!run.stdout.contains("Signing in through the browser flow"), "the device flow, not the browser")
            #expect(run.stderr.isEmpty, "\(run.stderr)")
        }

        @Test func aProviderWithoutAPublicDeviceFlowIsRefused() async throws {
            for provider in ["base-idp", "google"] {
                let run = try await Self.run(["--device", "--provider", provider])
                #expect(run.status == 1)
                #expect(run.stderr.contains("has no device flow a public client can run"), "\(run.stderr)")
                #expect(run.stdout.isEmpty)
            }
        }

        @Test func helpDocumentsTheDeviceFlow() async throws {
            let run = try await Self.run(["--help"])
            #expect(run.status == 0)
            #expect(run.stdout.contains("--issuer URL --client-id ID --device"))
            #expect(run.stdout.contains("DEVICE FLOW (--device, RFC 8628)"))
            #expect(run.stdout.contains("github"))
        }
    }
#endif
