import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Section 3: N concurrent callers of `validAccessToken()` on an expiring session share one refresh.
struct CoalescingBench {
    let callerCounts: [Int]
    /// How long the server waits before answering a refresh, in seconds.
    let serverDelay: Double

    func run() async throws -> SectionResult {
        let issued = Locked(0)
        let delay = serverDelay
        let server = try TestHTTPServer { request in
            guard request.path.hasSuffix("/token") else { return .text("not found", status: 404) }
            let number = issued.withLock { value -> Int in
                value += 1
                return value
            }
            return .delay(
                delay, then: .json(TokenResponses.supabase(access: "bench-at-\(number)", refresh: "bench-rt-\(number)"))
            )
        }
        defer { server.stop() }
        let tokenURL = server.url("/auth/v1/token?grant_type=refresh_token")

        // The floor: the same request, alone, through bare URLSession.
        let bare = URLSession(configuration: .ephemeral)
        defer { bare.invalidateAndCancel() }
        var floorTimes: [Double] = []
        for _ in 0..<5 {
            var request = URLRequest(url: tokenURL)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(#"{"refresh_token":"bench-rt-0"}"#.utf8)
            let start = Clock.now()
            let (data, _) = try await bare.data(for: request)
            blackHole(try JSONSerialization.jsonObject(with: data))
            floorTimes.append(Clock.seconds(start, Clock.now()))
        }
        let floor = Stats.median(floorTimes)

        var table = Table(
            "Refresh coalescing: N concurrent validAccessToken() on an expired session (TestHTTPServer, loopback, \(Int(serverDelay * 1000)) ms server delay)",
            [
                ("callers", "callers", true), ("refresh requests", "refreshRequests", true),
                ("distinct tokens", "distinctTokens", true), ("p50", "p50Seconds", true), ("p99", "p99Seconds", true),
                ("max", "maxSeconds", true), ("wall", "wallSeconds", true), ("floor", "floorSeconds", true),
                ("p50/floor", "p50RatioToFloor", true), ("verdict", "verdict", false),
            ])
        var allSingle = true
        for callers in callerCounts {
            server.resetRecording()
            let store = InMemorySessionStore()
            let supabase = try SupabaseClient(
                projectURL: server.baseURL, publishableKey: "sb_publishable_latchkey_bench",
                options: AuthClientOptions(store: store))
            try await StoredSession.seed(
                StoredSession.session(provider: "supabase", expiresIn: -10), into: store, for: supabase.client)
            guard case .signedIn = await supabase.restore() else {
                throw BenchError("the stored session did not restore")
            }
            let start = Clock.now()
            let results = try await withThrowingTaskGroup(of: (Double, String).self) { group in
                for _ in 0..<callers {
                    group.addTask {
                        let begin = Clock.now()
                        let token = try await supabase.validAccessToken()
                        return (Clock.seconds(begin, Clock.now()), token)
                    }
                }
                var collected: [(Double, String)] = []
                for try await result in group { collected.append(result) }
                return collected
            }
            let wall = Clock.seconds(start, Clock.now())
            let latencies = results.map(\.0)
            let tokens = Set(results.map(\.1))
            let requests = server.requests.filter { $0.path.hasSuffix("/token") }.count
            let ok = requests == 1 && tokens.count == 1
            allSingle = allSingle && ok
            let p50 = Stats.percentile(latencies, 50)
            table.add([
                .int(callers), .int(requests), .int(tokens.count), .seconds(p50),
                .seconds(Stats.percentile(latencies, 99)),
                .seconds(latencies.max() ?? .nan), .seconds(wall), .seconds(floor), .ratio(p50 / floor),
                .text(ok ? "ok" : "BUG"),
            ])
        }
        table.notes = [
            "Each row: a fresh SupabaseClient whose stored session expired 10 s ago; N child tasks call"
                + " validAccessToken() at once. Latency per caller, from its own start.",
            "floor = the same refresh request sent alone with bare URLSession (median of 5), server delay included.",
            "refresh requests counted from the server's recorded requests; must be 1 for every N.",
        ]
        return SectionResult(
            key: "refreshCoalescing", tables: [table],
            targets: [
                .check(
                    "refresh coalescing: 1 request for 1…\(Format.int(callerCounts.max() ?? 0)) callers", allSingle,
                    allSingle ? "1 request each" : "see table")
            ])
    }
}
