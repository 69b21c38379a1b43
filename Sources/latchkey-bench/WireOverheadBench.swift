import Foundation
@_spi(Generated) import Latchkey
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Section 5: a token request through the generated client beside the same request sent with bare
/// URLSession against the same loopback server.
struct WireOverheadBench {
    let samples: Int

    func run() async throws -> SectionResult {
        let issued = Locked(0)
        let server = try TestHTTPServer { request in
            guard request.path.hasSuffix("/token") else { return .text("not found", status: 404) }
            let number = issued.withLock { value -> Int in
                value += 1
                return value
            }
            return .json(TokenResponses.supabase(access: "bench-at-\(number)", refresh: "bench-rt-\(number)"))
        }
        defer { server.stop() }
        let supabase = try SupabaseClient(
            projectURL: server.baseURL, publishableKey: "sb_publishable_latchkey_bench",
            options: AuthClientOptions(store: InMemorySessionStore()))
        // The configuration URLSessionHTTPTransport uses (ephemeral with cookies, cache and credential storage off):
        // plain `.ephemeral` keeps an in-memory URLCache that bare URLSession consults on every request, a cost
        // the client side never pays.
        let bareConfiguration = URLSessionConfiguration.ephemeral
        bareConfiguration.httpCookieAcceptPolicy = .never
        bareConfiguration.httpShouldSetCookies = false
        bareConfiguration.httpCookieStorage = nil
        bareConfiguration.urlCredentialStorage = nil
        bareConfiguration.urlCache = nil
        bareConfiguration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        let bare = URLSession(configuration: bareConfiguration)
        defer { bare.invalidateAndCancel() }

        // One request of each kind through the client, recorded, to replay byte for byte with URLSession.
        server.resetRecording()
        _ = try await supabase.signIn(email: "ada@example.com", password: "analytical-engine")
        _ = try await supabase.currentSession(forceRefresh: true)
        let recorded = server.requests
        guard recorded.count == 2 else { throw BenchError("expected 2 recorded requests, got \(recorded.count)") }
        let replays = recorded.map { Self.urlRequest(replaying: $0, base: server.baseURL) }
        // The same password request as an TransportRequest, for the transport-only row.
        let transport = URLSessionHTTPTransport()
        let defaultTransport = AuthClientOptions.defaultTransport()
        let defaultName = defaultTransport is URLSessionHTTPTransport ? "URLSession" : "libcurl"
        let transportRequest = TransportRequest(
            method: recorded[0].method, url: URL(string: server.baseURL.absoluteString + recorded[0].target)!,
            headers: recorded[0].headers.filter {
                !["host", "content-length", "connection", "accept-encoding"].contains($0.name.lowercased())
            }, body: recorded[0].body)

        var table = Table(
            "Overhead over the wire: token request through SupabaseClient vs the same request with bare URLSession (loopback)",
            [
                ("request", "request", false), ("client p50", "clientMedianSeconds", true),
                ("bare p50", "bareMedianSeconds", true),
                ("ratio", "ratio", true), ("p50/p50", "ratioOfMedians", true), ("client p90", "clientP90Seconds", true),
                ("bare p90", "bareP90Seconds", true),
                ("samples", "samples", true),
            ])
        var ratios: [(String, Double)] = []
        let kinds: [(String, URLRequest, @Sendable () async throws -> Void)] = [
            (
                "password sign-in (POST /token?grant_type=password)", replays[0],
                {
                    _ = try await supabase.signIn(email: "ada@example.com", password: "analytical-engine")
                }
            ),
            (
                "refresh (POST /token?grant_type=refresh_token)", replays[1],
                {
                    _ = try await supabase.currentSession(forceRefresh: true)
                }
            ),
            (
                "diagnostic: URLSessionHTTPTransport.send alone (password request)", replays[0],
                {
                    let response = try await transport.send(transportRequest)
                    guard response.status == 200 else { throw BenchError("transport request failed") }
                    blackHole(try JSONSerialization.jsonObject(with: response.body))
                }
            ),
            (
                "diagnostic: default transport (\(defaultName)) .send alone (password request)", replays[0],
                {
                    let response = try await defaultTransport.send(transportRequest)
                    guard response.status == 200 else { throw BenchError("transport request failed") }
                    blackHole(try JSONSerialization.jsonObject(with: response.body))
                }
            ),
        ]
        for (name, replay, clientCall) in kinds {
            var clientTimes: [Double] = []
            var bareTimes: [Double] = []
            for index in 0..<(samples + 10) {
                // Alternate which side goes first, so neither always follows the other.
                let clientFirst = index % 2 == 0
                var clientSeconds = 0.0
                var bareSeconds = 0.0
                for side in clientFirst ? [0, 1] : [1, 0] {
                    let start = Clock.now()
                    if side == 0 {
                        try await clientCall()
                        clientSeconds = Clock.seconds(start, Clock.now())
                    } else {
                        let (data, response) = try await bare.data(for: replay)
                        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
                            throw BenchError("bare request failed")
                        }
                        blackHole(try JSONSerialization.jsonObject(with: data))
                        bareSeconds = Clock.seconds(start, Clock.now())
                    }
                }
                if index >= 10 {  // the first 10 pairs warm up
                    clientTimes.append(clientSeconds)
                    bareTimes.append(bareSeconds)
                }
            }
            // Each pair runs back to back under the same load: the median of the pair ratios is steadier than
            // the ratio of the medians on a busy machine. Both are shown.
            let ratio = Stats.median(zip(clientTimes, bareTimes).map { $0 / $1 })
            let ratioOfMedians = Stats.median(clientTimes) / Stats.median(bareTimes)
            if !name.hasPrefix("diagnostic") { ratios.append((name, ratio)) }
            table.add([
                .text(name), .seconds(Stats.median(clientTimes)), .seconds(Stats.median(bareTimes)), .ratio(ratio),
                .ratio(ratioOfMedians),
                .seconds(Stats.percentile(clientTimes, 90)), .seconds(Stats.percentile(bareTimes, 90)), .int(samples),
            ])
        }
        table.notes = [
            "client = SupabaseClient.signIn(email:password:) / currentSession(forceRefresh: true): request building, "
                + "the default transport (\(defaultName)), response mapping, session decoding, store write (InMemorySessionStore),"
                + " state publish.",
            "bare = the request the client sent, replayed byte for byte (method, URL, headers, body) with URLSession"
                + " (.ephemeral with cookies, cache and credential storage off, as URLSessionHTTPTransport configures it),"
                + " then JSONSerialization of the body.",
            "diagnostic rows: a transport alone (URLSessionHTTPTransport, and the default one; no engine) against the same"
                + " bare request; they show how much of the overhead is the transport. Not part of the target.",
            "ratio = median over the pairs of client time / bare time (the target); p50/p50 = client p50 / bare p50.",
            "Median of \(samples) pairs after 10 warm-up pairs, sides alternating; TestHTTPServer answers at once"
                + " (one connection per request, Connection: close).",
        ]
        table.add(
            try await Self.engineAlone(
                "diagnostic: engine alone, password sign-in (canned in-process transport, no socket)", samples: samples
            ) { client in _ = try await client.signIn(email: "ada@example.com", password: "analytical-engine") })
        table.add(
            try await Self.engineAlone(
                "diagnostic: engine alone, forced refresh (canned in-process transport, no socket)", samples: samples
            ) { client in _ = try await client.currentSession(forceRefresh: true) })
        let worst = ratios.max { $0.1 < $1.1 }
        return SectionResult(
            key: "wireOverhead", tables: [table],
            targets: [
                .check(
                    "over-the-wire overhead ≤ 1.05x bare URLSession", (worst?.1 ?? .infinity) <= 1.05,
                    ratios.map { "\($0.0.prefix(while: { $0 != " " })) \(Format.ratio($0.1))" }.joined(separator: ", "))
            ])
    }

    /// A diagnostic row: `call` through a client whose transport answers in process, so the time is the
    /// engine's alone (no bare side; the ratio columns are empty).
    static func engineAlone(
        _ name: String, samples: Int, _ call: @Sendable (SupabaseClient) async throws -> Void
    ) async throws -> [Cell] {
        let client = try SupabaseClient(
            projectURL: URL(string: "https://bench.invalid")!, publishableKey: "sb_publishable_latchkey_bench",
            options: AuthClientOptions(transport: CannedTransport(), store: InMemorySessionStore()))
        _ = try await client.signIn(email: "ada@example.com", password: "analytical-engine")
        var times: [Double] = []
        for index in 0..<(samples + 10) {
            let start = Clock.now()
            try await call(client)
            if index >= 10 { times.append(Clock.seconds(start, Clock.now())) }
        }
        return [
            .text(name), .seconds(Stats.median(times)), .text("-"), .text("-"), .text("-"),
            .seconds(Stats.percentile(times, 90)), .text("-"), .int(samples),
        ]
    }

    static func urlRequest(replaying recorded: RecordedRequest, base: URL) -> URLRequest {
        var request = URLRequest(url: URL(string: base.absoluteString + recorded.target)!)
        request.httpMethod = recorded.method
        let skipped: Set<String> = ["host", "content-length", "connection", "accept-encoding"]
        for (name, value) in recorded.headers where !skipped.contains(name.lowercased()) {
            request.addValue(value, forHTTPHeaderField: name)
        }
        request.httpBody = recorded.body.isEmpty ? nil : recorded.body
        // As URLSessionHTTPTransport sets them on its own requests.
        request.timeoutInterval = 30
        request.cachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        request.httpShouldHandleCookies = false
        return request
    }
}
