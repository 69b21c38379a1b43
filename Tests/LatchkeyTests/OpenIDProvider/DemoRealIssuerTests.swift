import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// `latchkey-demo --issuer URL --client-id ID [--device]` as users run it, against the real provider of
// `ci-oidc/`. The user is `ci-oidc/fake_browser.py`: first on PATH as `xdg-open` for the browser sign-in
// (it logs in as ada, approves the consent page and delivers the redirect to the demo's loopback server),
// and, for the device flow, an agent that reads the code from the demo's output and approves it.
//
// Nested in ``OpenIDProviderTests`` for its traits: enabled only with `LATCHKEY_OIDC_ISSUER` (or in CI, where
// a missing provider fails), and serialized with the other real-provider tests, whose logins would
// otherwise change the `auth_time` of the ID token the demo refreshes.
// posix_spawn: not on iOS, tvOS, watchOS, visionOS.
#if os(macOS) || os(Linux)
    extension OpenIDProviderTests {
        @Suite("latchkey-demo against the real provider")
        struct DemoRealIssuerTests {
            @Test("--issuer --client-id: system browser, loopback redirect, refresh, sign-out; no token printed")
            func browserSignIn() async throws {
                let demo = try DemoHarness()
                defer { demo.removeScratch() }
                let run = try await demo.run(["--client-id", RealProvider.publicClient, "--timeout", "60"])
                #expect(run.status == 0, "\(run.stderr)\(run.stdout)\n\(demo.browserLog)")
                #expect(run.stdout.contains("Signing in through the browser flow"))
                Self.expectSignedInRefreshedAndSignedOut(run)
                let delivered = await OIDCTest.eventually { demo.browserLog.contains("delivered the redirect to") }
                #expect(delivered, "xdg-open was not the fake browser: \(demo.browserLog)")
                #expect(
                    demo.browserLog.range(of: #"http://127\.0\.0\.1:\d+/callback: 200"#, options: .regularExpression)
                        != nil, "\(demo.browserLog)")
            }

            @Test("--issuer --client-id --device: the user approves the printed code; refresh, sign-out")
            func deviceSignIn() async throws {
                let demo = try DemoHarness()
                defer { demo.removeScratch() }
                let (run, agent) = try await demo.runDevice(["--client-id", RealProvider.deviceClient, "--device"])
                #expect(run.status == 0, "\(run.stderr)\(run.stdout)\n\(demo.browserLog)")
                #expect(agent == 0, "the approving agent failed: \(demo.browserLog)")
                let code = try #require(
                    run.stdout.firstMatch(of: /and enter the code ([0-9A-V]{8})\n/)?.1, "no user code in \(run.stdout)")
                #expect(run.stdout.contains("To sign in, open \(try RealProvider.issuer().absoluteString)/device/\n"))
                #expect(demo.browserLog.contains("device code \(code): Authorized"), "\(demo.browserLog)")
                #expect(!run.stdout.contains("Signing in through the browser flow"), "the device flow, not the browser")
                Self.expectSignedInRefreshedAndSignedOut(run)
            }

            @Test("a wrong --client-id fails with a clear message and status 1, in the browser and the device flow")
            func wrongClientID() async throws {
                let demo = try DemoHarness()
                defer { demo.removeScratch() }
                let browser = try await demo.run(["--client-id", "latchkey-unknown", "--timeout", "5"])
                #expect(browser.status == 1, "\(browser.stderr)\(browser.stdout)")
                #expect(browser.stderr.hasPrefix("Error (timeout): The browser did not come back"), "\(browser.stderr)")
                #expect(browser.stderr.contains("check --client-id"), "\(browser.stderr)")
                #expect(demo.browserLog.contains("Invalid client_id"), "the provider's page: \(demo.browserLog)")
                #expect(!browser.stdout.contains("Signed in"))

                let device = try await demo.run(["--client-id", "latchkey-unknown", "--device"])
                #expect(device.status == 1, "\(device.stderr)\(device.stdout)")
                #expect(device.stderr.hasPrefix("Error (invalid_request)"), "\(device.stderr)")
                #expect(device.stderr.contains("Invalid client_id"), "\(device.stderr)")
                #expect(!device.stdout.contains("Signed in"))
            }

            static func expectSignedInRefreshedAndSignedOut(
                _ run: DemoHarness.Run, sourceLocation: SourceLocation = #_sourceLocation
            ) {
                let lines = run.stdout.split(separator: "\n").map(String.init)
                let expected = [
                    "Signed in as Ada Lovelace", "Refreshing the session…", "  Got a new access token.", "Signing out…",
                    "Signed out.",
                ]
                let indices = expected.map { lines.firstIndex(of: $0) }
                #expect(!indices.contains(nil), "missing steps in:\n\(run.stdout)", sourceLocation: sourceLocation)
                #expect(
                    indices == indices.sorted { ($0 ?? 0) < ($1 ?? 0) }, "steps out of order",
                    sourceLocation: sourceLocation)
                #expect(run.stderr.isEmpty, "\(run.stderr)", sourceLocation: sourceLocation)
                let leaks = DemoHarness.tokenLike(in: run.stdout + run.stderr)
                #expect(leaks.isEmpty, "token-like text printed: \(leaks)", sourceLocation: sourceLocation)
            }
        }
    }

    /// Runs the built `latchkey-demo` against the real provider, with `ci-oidc/fake_browser.py` as the user.
    struct DemoHarness {
        struct Run {
            var status: Int32
            var stdout: String
            var stderr: String
        }

        let issuer: URL
        let binary: URL
        let python: URL
        let fakeBrowser: URL
        /// A scratch folder: `bin/xdg-open`, the fake browser's log, the demo's output.
        let directory: URL

        init() throws {
            issuer = try RealProvider.issuer()
            binary = try #require(
                BuildProducts.executable("latchkey-demo"),
                "latchkey-demo is not built next to the tests; run `swift build` first")
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            python = root.appendingPathComponent("ci-oidc/.venv/bin/python")
            fakeBrowser = root.appendingPathComponent("ci-oidc/fake_browser.py")
            try #require(
                FileManager.default.isExecutableFile(atPath: python.path),
                "no \(python.path): run bash ci-oidc/setup.sh")
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-demo-real-\(UUID())")
            let bin = directory.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            let wrapper = bin.appendingPathComponent("xdg-open")
            try "#!/bin/sh\nexec '\(python.path)' '\(fakeBrowser.path)' \"$@\"\n".write(
                to: wrapper, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        }

        /// Deletes the scratch folder (failure messages carry the logs already).
        func removeScratch() { try? FileManager.default.removeItem(at: directory) }

        private func file(_ name: String) -> String { directory.appendingPathComponent(name).path }

        /// What the fake browser and the device agent logged.
        var browserLog: String { (try? String(contentsOfFile: file("browser.log"), encoding: .utf8)) ?? "" }

        /// The demo's environment: the fake `xdg-open` first on PATH, the fake browser's log, and the device
        /// endpoint django-oauth-toolkit's discovery does not list.
        private var environment: [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] =
                directory.appendingPathComponent("bin").path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            environment["LATCHKEY_FAKE_BROWSER_LOG"] = file("browser.log")
            environment["LATCHKEY_OIDC_DEVICE_AUTHORIZATION_ENDPOINT"] =
                issuer.absoluteString + "/device-authorization/"
            return environment
        }

        /// Runs `latchkey-demo --issuer ISSUER` with `arguments`; killed after `limit`.
        func run(_ arguments: [String], limit: LatchkeyDuration = .seconds(120)) async throws -> Run {
            let name = UUID().uuidString
            let pid = try DemoChild.start(
                binary.path, ["--issuer", issuer.absoluteString] + arguments, environment: environment,
                stdout: file("\(name).out"), stderr: file("\(name).err"))
            let status = await DemoChild.wait(pid, limit: limit)
            let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
            return Run(status: status ?? -1, stdout: read(file("\(name).out")), stderr: read(file("\(name).err")))
        }

        /// Runs the demo's device flow with the approving agent watching its output; returns the agent's status too.
        func runDevice(_ arguments: [String]) async throws -> (Run, agent: Int32?) {
            let output = file("device.out")
            let agent = try DemoChild.start(
                python.path, [fakeBrowser.path, "--device", "--watch", output, "--timeout", "60"],
                environment: environment, stdout: file("agent.out"), stderr: file("agent.out"))
            let pid = try DemoChild.start(
                binary.path, ["--issuer", issuer.absoluteString] + arguments, environment: environment, stdout: output,
                stderr: file("device.err"))
            let status = await DemoChild.wait(pid, limit: .seconds(120))
            let agentStatus = await DemoChild.wait(agent, limit: .seconds(status == 0 ? 30 : 0))
            let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
            return (
                Run(status: status ?? -1, stdout: read(output), stderr: read(file("device.err"))),
                agentStatus
            )
        }

        /// Runs of text that look like a token: a JWT (`eyJ...`), or 20 or more token characters mixing digits or
        /// letter cases (an opaque access or refresh token; words such as `device_authorization_endpoint` do not).
        static func tokenLike(in text: String) -> [String] {
            text.matches(of: /[A-Za-z0-9._~+=\-]{20,}/).map { String($0.output) }.filter { run in
                run.contains("eyJ") || run.contains(where: \.isNumber)
                    || (run.contains(where: \.isUppercase) && run.contains(where: \.isLowercase))
            }
        }
    }

    /// Starts programs through ``ChildSpawn`` (`posix_spawn`, not Foundation's `Process`, whose `run()` crashes a
    /// test process with many descriptors open), output to files, and waits for them without blocking a thread.
    enum DemoChild {
        /// Starts `path` with `arguments` (after argv[0]) and `environment`, stdin from `/dev/null`.
        static func start(
            _ path: String, _ arguments: [String], environment: [String: String], stdout: String, stderr: String
        ) throws -> pid_t {
            try ChildSpawn.start(
                path, arguments, environment: environment, stdout: .file(stdout),
                stderr: stderr == stdout ? .stdout : .file(stderr))
        }

        /// Waits for `pid` without blocking a thread; kills it after `limit`. Returns its exit status (or signal
        /// number), `nil` when it had to be killed.
        static func wait(_ pid: pid_t, limit: LatchkeyDuration) async -> Int32? {
            let deadline = MonotonicInstant.now + limit
            var status: Int32 = 0
            while true {
                let done = waitpid(pid, &status, WNOHANG)
                if done == pid {
                    let signal = status & 0x7f
                    return signal == 0 ? (status >> 8) & 0xff : signal
                }
                if done < 0 && errno != EINTR { return nil }
                if MonotonicInstant.now >= deadline {
                    kill(pid, SIGKILL)
                    _ = await DedicatedThread.run { () -> pid_t in
                        var killed: Int32 = 0
                        return waitpid(pid, &killed, 0)
                    }
                    return nil
                }
                try? await LatchkeyDuration.sleep(.milliseconds(50))
            }
        }
    }
#endif

/// The token scan the real-provider demo tests rely on, checked without a provider.
@Suite struct DemoRealIssuerTokenScanTests {
    @Test func flagsJWTsAndOpaqueTokensButNotTheDemosWords() {
        let jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"
        let opaque = "QyT1bq7XJH3kPZ0wLr9mNvA2sDfG4h"
        let text = """
            Signed in as Ada Lovelace
            access \(jwt) refresh \(opaque)
            Error (invalid_configuration): no device_authorization_endpoint: set LATCHKEY_OIDC_DEVICE_AUTHORIZATION_ENDPOINT
            To sign in, open http://127.0.0.1:9400/o/device/?user_code=2GQAKITR
            """
        #expect(DemoHarness.tokenLike(in: text) == [jwt, opaque])
    }
}
