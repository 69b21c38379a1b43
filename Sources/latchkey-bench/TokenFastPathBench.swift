import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime

/// The floor of the token fast path: one actor, one stored property.
actor BareTokenHolder {
    var token = "bench-at-0"
}

/// Section 2: `validAccessToken()` on a fresh session, one task, beside a bare actor property read.
struct TokenFastPathBench {
    /// Batches per side; the median batch is reported.
    let batches: Int
    /// Wall time a batch should take, in seconds.
    let batchSeconds: Double

    func run() async throws -> SectionResult {
        let transport = NeverTransport()
        let store = InMemorySessionStore()
        let oidc = try OidcClient(
            issuer: URL(string: "https://issuer.example.com")!, clientID: "latchkey-bench",
            options: AuthClientOptions(transport: transport, store: store))
        try await StoredSession.seed(
            StoredSession.session(provider: "oidc", expiresIn: 3600), into: store, for: oidc.client)
        guard case .signedIn = await oidc.restore() else { throw BenchError("the stored session did not restore") }
        let holder = BareTokenHolder()

        // Calibrate: how many calls make one batch.
        var iterations = 1_000
        while true {
            let start = Clock.now()
            blackHole(try await Self.subject(oidc, iterations))
            let seconds = Clock.seconds(start, Clock.now())
            if seconds >= batchSeconds / 4 || iterations >= 50_000_000 {
                iterations = max(1_000, Int(Double(iterations) * batchSeconds / max(seconds, 1e-9)))
                break
            }
            iterations *= 4
        }
        var subjectTimes: [Double] = []
        var floorTimes: [Double] = []
        for _ in 0..<batches {
            var start = Clock.now()
            blackHole(try await Self.subject(oidc, iterations))
            subjectTimes.append(Clock.seconds(start, Clock.now()) * 1e9 / Double(iterations))
            start = Clock.now()
            blackHole(await Self.floor(holder, iterations))
            floorTimes.append(Clock.seconds(start, Clock.now()) * 1e9 / Double(iterations))
        }
        let requests = transport.count
        let subject = Stats.median(subjectTimes)
        let floor = Stats.median(floorTimes)
        let ratio = subject / floor

        var table = Table(
            "Token fast path: validAccessToken() on a fresh session, one task",
            [
                ("call", "call", false), ("ns/call (median)", "nanosPerCall", true), ("min", "nanosMin", true),
                ("max", "nanosMax", true), ("calls/s", "callsPerSecond", true), ("vs floor", "ratioToFloor", true),
                ("requests", "requests", true),
            ])
        table.add([
            .text("OidcClient.validAccessToken()"), .nanos(subject), .nanos(subjectTimes.min() ?? .nan),
            .nanos(subjectTimes.max() ?? .nan), .rate(1e9 / subject), .ratio(ratio), .int(requests),
        ])
        table.add([
            .text("floor: await actor.property"), .nanos(floor), .nanos(floorTimes.min() ?? .nan),
            .nanos(floorTimes.max() ?? .nan), .rate(1e9 / floor), .ratio(1), .none,
        ])
        table.notes = [
            "\(batches) batches of \(Format.int(iterations)) calls per side, interleaved, from one detached task;"
                + " median batch shown.",
            "The session comes from an InMemorySessionStore record (expires in 1 h), restored before timing; the"
                + " transport fails and counts any request (must stay 0).",
        ]
        return SectionResult(
            key: "tokenFastPath", tables: [table],
            targets: [
                .check("token fast path within 10x of a bare actor read", ratio <= 10, Format.ratio(ratio)),
                .check("token fast path sends 0 requests", requests == 0, "\(requests) requests"),
            ])
    }

    @inline(never)
    static func subject(_ client: OidcClient, _ iterations: Int) async throws(AuthError) -> Int {
        var sum = 0
        for _ in 0..<iterations { sum &+= try await client.validAccessToken().utf8.count }
        return sum
    }

    @inline(never)
    static func floor(_ holder: BareTokenHolder, _ iterations: Int) async -> Int {
        var sum = 0
        for _ in 0..<iterations { sum &+= await holder.token.utf8.count }
        return sum
    }
}
