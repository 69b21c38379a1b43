import Foundation
@_spi(Generated) import Latchkey

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `latchkey-bench supabase-side --url BASE [--samples N]`: Latchkey's half of scripts/supabase-peer.sh.
/// `SupabaseClient` against the server of `latchkey-bench serve-gotrue`, the same operations in the same order
/// as supabase-swift's half (scripts/supabase-peer/main.swift), printed as `OPERATION VALUE UNIT` lines.
struct SupabaseSideBench {
    let base: URL
    let samples: Int

    static func parse(_ arguments: [String]) throws -> SupabaseSideBench {
        var base: URL?
        var samples = 200
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--url": base = iterator.next().flatMap(URL.init(string:))
            case "--samples":
                guard let count = iterator.next().flatMap(Int.init), count > 0 else {
                    throw BenchError("--samples needs N > 0")
                }
                samples = count
            default: throw BenchError("supabase-side: unknown argument '\(argument)'")
            }
        }
        guard let base else { throw BenchError("supabase-side needs --url BASE (from latchkey-bench serve-gotrue)") }
        return SupabaseSideBench(base: base, samples: samples)
    }

    private func makeClient(store: InMemorySessionStore = InMemorySessionStore()) throws -> SupabaseClient {
        try SupabaseClient(
            projectURL: base, publishableKey: "sb_publishable_latchkey_bench", options: AuthClientOptions(store: store))
    }

    private func timed(_ body: () async throws -> Void) async throws -> Double {
        for _ in 0..<10 { try await body() }  // warm-up
        var times: [Double] = []
        for _ in 0..<samples {
            let start = Clock.now()
            try await body()
            times.append(Clock.seconds(start, Clock.now()))
        }
        return Stats.median(times)
    }

    private func tokenRequests(_ grant: String) async throws -> Int {
        let (data, _) = try await URLSession.shared.data(from: base.appendingPathComponent("bench/stats"))
        return ((try JSONSerialization.jsonObject(with: data)) as? [String: Int])?[grant] ?? 0
    }

    private static func emit(_ operation: String, _ value: Double, _ unit: String) {
        print("\(operation) \(Format.fixed(value, 6)) \(unit)")
    }

    func run() async throws {
        let supabase = try makeClient()
        let email = GoTrueServer.email
        let password = GoTrueServer.password
        Self.emit(
            "password-sign-in",
            try await timed { _ = try await supabase.signIn(email: email, password: password) } * 1e3,
            "ms")
        Self.emit(
            "forced-refresh", try await timed { _ = try await supabase.currentSession(forceRefresh: true) } * 1e3, "ms")

        // validAccessToken() on a fresh session: batches of ~0.1 s, median per call.
        var perCall: [Double] = []
        for _ in 0..<7 {
            var calls = 0
            let start = Clock.now()
            while Clock.seconds(start, Clock.now()) < 0.1 {
                for _ in 0..<50 { blackHole(try await supabase.validAccessToken()) }
                calls += 50
            }
            perCall.append(Clock.seconds(start, Clock.now()) / Double(calls))
        }
        Self.emit("session-getter", Stats.median(perCall) * 1e6, "us")

        // 100 concurrent callers on an expired session: a fresh client whose stored session expired 10 s ago.
        var walls: [Double] = []
        var refreshes: [Int] = []
        for _ in 0..<5 {
            var session = try await makeClient().signIn(email: email, password: password)
            session.expiresAt = Date().addingTimeInterval(-10)
            let store = InMemorySessionStore()
            let expired = try makeClient(store: store)
            try await StoredSession.seed(session, into: store, for: expired.client)
            guard case .signedIn = await expired.restore() else {
                throw BenchError("the stored session did not restore")
            }
            let before = try await tokenRequests("refresh_token")
            let start = Clock.now()
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<100 { group.addTask { try await expired.validAccessToken() } }
                var tokens = Set<String>()
                for try await token in group { tokens.insert(token) }
                return tokens
            }
            walls.append(Clock.seconds(start, Clock.now()))
            refreshes.append(try await tokenRequests("refresh_token") - before)
            guard tokens.count == 1 else { throw BenchError("\(tokens.count) distinct tokens for 100 callers") }
        }
        Self.emit("100-callers-expired", Stats.median(walls) * 1e3, "ms")
        Self.emit("refresh-requests", Double(refreshes.max() ?? -1), "requests")
    }
}
