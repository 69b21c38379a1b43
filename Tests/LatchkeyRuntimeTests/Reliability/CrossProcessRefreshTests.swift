// posix_spawn: only where ChildSpawn exists (not iOS, tvOS, watchOS, visionOS).
#if os(macOS) || os(Linux)
    import Foundation
    @_spi(Generated) import LatchkeyTesting
    import LatchkeyPlatform
    import Testing

    @_spi(Generated) @testable import LatchkeyRuntime

    /// A token endpoint that rotates refresh tokens and answers `400 invalid_grant` to any refresh token it sees
    /// a second time, counting every presentation.
    final class RotatingTokenEndpoint: Sendable {
        struct Ledger {
            var issued = 0
            var live: Set<String> = []
            var presented: [String: Int] = [:]
            var requests = 0
            var reuses = 0
        }

        let ledger = Locked(Ledger())
        /// How long each answer is held back (the refresh lock is held that long).
        let delay: Double

        init(delay: Double) { self.delay = delay }

        /// Makes a refresh token valid.
        func seed(_ token: String) { _ = ledger.withLock { $0.live.insert(token) } }

        func respond(_ request: RecordedRequest) -> TestResponse {
            guard request.method == "POST", request.path == "/token", request.formBody["grant_type"] == "refresh_token"
            else {
                return .json(["error": "not_found"], status: 404)
            }
            let token = request.formBody["refresh_token"] ?? ""
            // The verdict is taken on arrival: a second presentation is reuse, however the answers interleave.
            let number: Int? = ledger.withLock { ledger in
                ledger.requests += 1
                ledger.presented[token, default: 0] += 1
                guard ledger.live.remove(token) != nil else {
                    ledger.reuses += 1
                    return nil
                }
                ledger.issued += 1
                ledger.live.insert("rt-\(ledger.issued)")
                return ledger.issued
            }
            let response: TestResponse
            if let number {
                response = .json([
                    "access_token": "at-\(number)", "refresh_token": "rt-\(number)", "token_type": "bearer",
                    "expires_in": 3600,
                ])
            } else {
                response = .json(["error": "invalid_grant", "error_description": "refresh token reused"], status: 400)
            }
            return delay > 0 ? .delay(delay, then: response) : response
        }
    }

    /// Issue 8, part 3: two processes over one file store (an app and its extension) refresh one expired session
    /// at the same moment; the file lock makes one refresh and the other adopt its result.
    @Suite("Reliability: two processes, one file store")
    struct ReliabilityCrossProcessTests {
        struct Result: Sendable {
            var ok: Bool
            var accessToken: String?
            var refreshToken: String?
            var adopted: Bool
            var state: String
            var code: String?

            init(line: String?) {
                let object =
                    line.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } ?? [:]
                ok = object["result"] as? String == "ok"
                accessToken = object["accessToken"] as? String
                refreshToken = object["refreshToken"] as? String
                adopted = object["adopted"] as? Bool ?? false
                state = object["state"] as? String ?? "no answer: \(line ?? "nil")"
                code = object["code"] as? String
            }
        }

        struct Totals: Sendable {
            var rounds = 0
            var requests = 0
            var reuses = 0
            var adopted = 0
            var lost = 0
            var disagreements = 0
        }

        /// Runs `rounds` races of two `refresh` processes and returns what happened; checks each round when `locked`.
        private func race(rounds: Int, locked: Bool, delay: Double) async throws -> Totals {
            guard let crasher = StoreCrasher.require() else { return Totals() }
            let endpoint = RotatingTokenEndpoint(delay: delay)
            let server = try TestHTTPServer { endpoint.respond($0) }
            defer { server.stop() }
            let scratch = ScratchDirectory("two-processes")
            defer { scratch.remove() }
            var totals = Totals()
            for round in 1...rounds {
                let directory = scratch.child("round-\(round)")
                let store = FileSessionStore(directory: directory)
                let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
                let seed = Session(
                    accessToken: "at-seed-\(round)", refreshToken: "rt-seed-\(round)",
                    expiresAt: now.addingTimeInterval(-60),
                    issuedAt: now.addingTimeInterval(-3660), user: User(id: "user-1"), provider: "crasher")
                // The identity of the crasher's client: the `crasher` provider with its one input, the token URL.
                let identity = ProviderIdentity(
                    provider: ProviderSpec(
                        name: "crasher", displayName: "Store crasher", inputs: [InputSpec(name: "tokenURL", kind: .url)]
                    ),
                    inputs: ["tokenURL": server.url("/token").absoluteString])
                try await store.save(StoredRecords.encode(seed, identity: identity), key: "acme")
                endpoint.seed("rt-seed-\(round)")
                let before = endpoint.ledger.withLock { $0 }
                let arguments =
                    ["refresh", server.url("/token").absoluteString, directory.path, "acme", "--wait-for-go"]
                    + (locked ? [] : ["--no-lock"])
                let lines = try await DedicatedThread.run { () throws -> [String?] in
                    let children = try [ChildProcess(crasher, arguments), ChildProcess(crasher, arguments)]
                    for child in children where child.readLine(timeout: 30) != "ready" {
                        throw ChildProcessError(description: "a refresh process did not start")
                    }
                    for child in children { child.writeLine("go") }
                    let lines = children.map { $0.readLine(timeout: 90) }
                    for child in children { try child.waitForExit() }
                    return lines
                }
                let results = lines.map(Result.init(line:))
                let after = endpoint.ledger.withLock { $0 }
                let stored = try await store.load(key: "acme").flatMap {
                    StoredRecords.decodeSession($0, identity: identity)
                }
                let requests = after.requests - before.requests
                let reuses = after.reuses - before.reuses
                totals.rounds += 1
                totals.requests += requests
                totals.reuses += reuses
                totals.adopted += results.filter(\.adopted).count
                totals.lost +=
                    results.filter { !$0.ok || !$0.state.hasPrefix("signedIn") }.count + (stored == nil ? 1 : 0)
                let agree = results.allSatisfy {
                    $0.ok && $0.accessToken == stored?.accessToken && $0.refreshToken == stored?.refreshToken
                }
                if !agree { totals.disagreements += 1 }
                guard locked else { continue }
                #expect(reuses == 0, "round \(round): a refresh token was sent twice: \(after.presented)")
                #expect(after.presented.values.allSatisfy { $0 == 1 }, "round \(round)")
                #expect(requests == 1, "round \(round): \(requests) refresh requests")
                #expect(results.allSatisfy { $0.ok }, "round \(round): \(results)")
                #expect(results.allSatisfy { $0.state.hasPrefix("signedIn") }, "round \(round): \(results)")
                #expect(
                    agree,
                    "round \(round): the processes and the store disagree: \(results), stored \(String(describing: stored))"
                )
                #expect(stored?.accessToken.hasPrefix("at-") == true && stored?.accessToken != seed.accessToken)
                #expect(results.filter(\.adopted).count == 1, "round \(round): exactly one process adopts: \(results)")
            }
            return totals
        }

        @Test("with the file lock, racing processes never reuse a refresh token and end with the same session")
        func lockedRaces() async throws {
            let rounds = Stress.count(20, stress: 200)
            let totals = try await race(rounds: rounds, locked: true, delay: 0.05)
            guard StoreCrasher.url != nil else { return }
            #expect(totals.rounds == rounds)
            #expect(totals.reuses == 0)
            #expect(totals.lost == 0)
            #expect(totals.disagreements == 0)
            reportFigure(
                "two-process refresh races",
                "\(totals.rounds) rounds (\(totals.rounds * 2) processes), refresh requests: \(totals.requests), "
                    + "refresh tokens reused: \(totals.reuses), adoptions: \(totals.adopted), sessions lost: \(totals.lost)"
            )
        }

        @Test("control: without the lock the same races reuse refresh tokens, so the check above can fail")
        func unlockedRacesReuse() async throws {
            let totals = try await race(rounds: Stress.count(4, stress: 20), locked: false, delay: 0.1)
            guard StoreCrasher.url != nil else { return }
            #expect(totals.reuses > 0, "no race produced a reuse without the lock")
            reportFigure(
                "control (no lock)",
                "\(totals.rounds) rounds, refresh tokens reused: \(totals.reuses), processes signed out: \(totals.lost)"
            )
        }
    }
#endif
