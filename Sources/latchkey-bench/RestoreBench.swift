import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime

/// Section "restore": an app's launch path, `restore()` of a new client from the file store, with no request.
///
/// Each sample creates a `SupabaseClient` over a `FileSessionStore` in a fresh temporary directory holding one
/// stored session, and times `restore()` until it answers `.signedIn`: reading the record from disk (the
/// store's trust checks on the directory and its ancestors included), decoding and binding it. The client's
/// construction is timed separately; the transport fails and counts any request.
struct RestoreBench {
    /// Samples per row; the median is the figure.
    let samples: Int

    /// The target from issue 30: restore from the file store within 1 ms.
    static let targetSeconds = 0.001

    func run() async throws -> SectionResult {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("latchkey-bench-restore-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let transport = NeverTransport()
        let projectURL = URL(string: "https://bench.supabase.co")!
        var constructTimes: [Double] = []
        var restoreTimes: [Double] = []
        for index in 0..<(samples + 3) {
            let directory = root.appendingPathComponent("s\(index)", isDirectory: true)
            let store = FileSessionStore(directory: directory)
            let seeder = try SupabaseClient(
                projectURL: projectURL, publishableKey: "sb_publishable_latchkey_bench",
                options: AuthClientOptions(transport: transport, store: store))
            try await StoredSession.seed(
                StoredSession.session(provider: "supabase", expiresIn: 3600), into: store, for: seeder.client)

            var start = Clock.now()
            let fresh = try SupabaseClient(
                projectURL: projectURL, publishableKey: "sb_publishable_latchkey_bench",
                options: AuthClientOptions(transport: transport, store: FileSessionStore(directory: directory)))
            let constructed = Clock.seconds(start, Clock.now())
            start = Clock.now()
            guard case .signedIn = await fresh.restore() else {
                throw BenchError("the stored session did not restore from the file store")
            }
            let restored = Clock.seconds(start, Clock.now())
            if index >= 3 {  // the first runs warm up the file system and the code paths
                constructTimes.append(constructed)
                restoreTimes.append(restored)
            }
        }
        let requests = transport.count
        let median = Stats.median(restoreTimes)
        var table = Table(
            "Restore on launch: a new SupabaseClient's restore() from a FileSessionStore holding one session",
            [
                ("step", "step", false), ("median", "medianSeconds", true), ("p90", "p90Seconds", true),
                ("max", "maxSeconds", true), ("requests", "requests", true),
            ])
        table.add([
            .text("SupabaseClient(projectURL:publishableKey:options:)"), .seconds(Stats.median(constructTimes)),
            .seconds(Stats.percentile(constructTimes, 90)), .seconds(constructTimes.max() ?? .nan), .none,
        ])
        table.add([
            .text("restore() → .signedIn (file store)"), .seconds(median), .seconds(Stats.percentile(restoreTimes, 90)),
            .seconds(restoreTimes.max() ?? .nan), .int(requests),
        ])
        table.notes = [
            "\(samples) samples, each in its own store directory (after 3 warm-up samples); the record is written by"
                + " the store itself beforehand, so the timed read goes through the file system's cache.",
            "restore() reads the record with the store's checks (no symbolic link, owner and mode of the file, the"
                + " directory and every ancestor), decodes it and checks its binding to the client; no request may be sent.",
        ]
        return SectionResult(
            key: "restore", tables: [table],
            targets: [
                .check(
                    "restore() from the file store ≤ 1 ms (median)", median <= Self.targetSeconds,
                    Format.duration(median)),
                .check("restore() sends 0 requests", requests == 0, "\(requests) requests"),
            ])
    }
}
