// supabase-peer-bench: supabase-swift's AuthClient against the GoTrue-shaped server of
// `latchkey-bench serve-gotrue`. Built by scripts/supabase-peer.sh in a throwaway package outside Latchkey;
// never part of Latchkey's build. Prints `OPERATION VALUE UNIT` lines, one median per operation.
import Auth
import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session store: memory, as Latchkey's side uses `InMemorySessionStore`.
final class MemoryStorage: AuthLocalStorage {
    private let values = Mutex<[String: Data]>([:])
    func store(key: String, value: Data) throws { values.withLock { $0[key] = value } }
    func retrieve(key: String) throws -> Data? { values.withLock { $0[key] } }
    func remove(key: String) throws { _ = values.withLock { $0.removeValue(forKey: key) } }
}

struct Failure: Error, CustomStringConvertible { let description: String }

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
func seconds(since start: UInt64) -> Double { Double(now() &- start) / 1e9 }
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[(sorted.count - 1) / 2]
}
func emit(_ operation: String, _ value: Double, _ unit: String) {
    print("\(operation) \(String(format: "%.6f", value)) \(unit)")
}

/// The peer's half of the side-by-side: the same operations, in the same order, as `latchkey-bench supabase-side`.
struct PeerBench {
    let base: URL
    let samples: Int
    var authURL: URL { base.appendingPathComponent("auth/v1") }
    let apiKey = "sb_publishable_latchkey_bench"

    /// The fetch Latchkey's transport is measured with: an ephemeral `URLSession` with cookies, cache and
    /// credential storage off (as `URLSessionHTTPTransport` configures its own). `URLSession.shared`, the
    /// peer's default, consults a `URLCache` on every request on Linux; it is measured too, in its own rows.
    static let hardenedSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        return URLSession(configuration: configuration)
    }()

    /// The client as an app makes it, with no automatic refresh (the bench drives refreshes itself).
    func makeClient(storage: MemoryStorage = MemoryStorage(), shared: Bool = false) -> AuthClient {
        let session = shared ? URLSession.shared : Self.hardenedSession
        let fetch: AuthClient.FetchHandler = { request in try await session.data(for: request) }
        return AuthClient(
            configuration: AuthClient.Configuration(
                url: authURL, headers: ["apikey": apiKey], localStorage: storage, fetch: fetch,
                autoRefreshToken: false))
    }

    func tokenRequests(_ grant: String) async throws -> Int {
        let (data, _) = try await URLSession.shared.data(from: base.appendingPathComponent("bench/stats"))
        let counts = try JSONSerialization.jsonObject(with: data) as? [String: Int]
        return counts?[grant] ?? 0
    }

    func timed(_ count: Int, _ body: () async throws -> Void) async throws -> Double {
        for _ in 0..<10 { try await body() }  // warm-up
        var times: [Double] = []
        for _ in 0..<count {
            let start = now()
            try await body()
            times.append(seconds(since: start))
        }
        return median(times)
    }

    func run() async throws {
        let client = makeClient()
        emit(
            "password-sign-in",
            try await timed(samples) {
                _ = try await client.signIn(email: "ada@example.com", password: "analytical-engine")
            } * 1e3, "ms")
        emit("forced-refresh", try await timed(samples) { _ = try await client.refreshSession() } * 1e3, "ms")
        let defaultClient = makeClient(shared: true)
        emit(
            "password-sign-in/URLSession.shared",
            try await timed(samples) {
                _ = try await defaultClient.signIn(email: "ada@example.com", password: "analytical-engine")
            } * 1e3, "ms")
        emit(
            "forced-refresh/URLSession.shared",
            try await timed(samples) { _ = try await defaultClient.refreshSession() } * 1e3, "ms")

        // The session getter on a fresh session: batches of ~0.1 s, median per call.
        var perCall: [Double] = []
        for _ in 0..<7 {
            var calls = 0
            let start = now()
            while seconds(since: start) < 0.1 {
                for _ in 0..<50 { _ = try await client.session }
                calls += 50
            }
            perCall.append(seconds(since: start) / Double(calls))
        }
        emit("session-getter", median(perCall) * 1e6, "us")

        // 100 concurrent callers on an expired session: a fresh client whose stored session expired 10 s ago.
        var walls: [Double] = []
        var refreshes: [Int] = []
        for _ in 0..<5 {
            let storage = MemoryStorage()
            let signer = makeClient(storage: storage)
            _ = try await signer.signIn(email: "ada@example.com", password: "analytical-engine")
            guard let key = ["supabase.auth.token"].first(where: { (try? storage.retrieve(key: $0)) != nil }),
                let data = try storage.retrieve(key: key),
                var record = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { throw Failure(description: "no stored session") }
            let expired = Date().timeIntervalSince1970 - 10
            if record["expires_at"] != nil { record["expires_at"] = expired } else { record["expiresAt"] = expired }
            try storage.store(key: key, value: try JSONSerialization.data(withJSONObject: record))
            let expiredClient = makeClient(storage: storage)
            let before = try await tokenRequests("refresh_token")
            let start = now()
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<100 { group.addTask { try await expiredClient.session.accessToken } }
                var tokens = Set<String>()
                for try await token in group { tokens.insert(token) }
                return tokens
            }
            walls.append(seconds(since: start))
            refreshes.append(try await tokenRequests("refresh_token") - before)
            guard tokens.count == 1 else {
                throw Failure(description: "\(tokens.count) distinct tokens for 100 callers")
            }
        }
        emit("100-callers-expired", median(walls) * 1e3, "ms")
        emit("refresh-requests", Double(refreshes.max() ?? -1), "requests")
    }

}

var base: URL?
var samples = 200
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--url": base = arguments.next().flatMap(URL.init(string:))
    case "--samples": samples = arguments.next().flatMap(Int.init) ?? samples
    default:
        FileHandle.standardError.write(Data("supabase-peer-bench: unknown argument \(argument)\n".utf8))
        exit(2)
    }
}
guard let base else {
    FileHandle.standardError.write(Data("usage: supabase-peer-bench --url BASE [--samples N]\n".utf8))
    exit(2)
}
let bench = PeerBench(base: base, samples: samples)
do {
    try await Task.detached { try await bench.run() }.value
} catch {
    FileHandle.standardError.write(Data("supabase-peer-bench: \(error)\n".utf8))
    exit(1)
}
