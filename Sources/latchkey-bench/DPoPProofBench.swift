import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

/// Section 9: the cost of one DPoP proof (RFC 9449: a P-256 signature over a small JWT), beside the loopback
/// request it goes with, in the same run.
struct DPoPProofBench {
    let proofs: Int
    let requests: Int

    func run() async throws -> SectionResult {
        let server = try TestHTTPServer { _ in .json(["ok": true]) }
        defer { server.stop() }
        let url = server.url("/resource")
        let key = try DPoPKey.generate()
        let transport = URLSessionHTTPTransport()
        _ = try await transport.send(TransportRequest(method: "GET", url: url))  // warm the connection pool

        var proofTimes: [Double] = []
        for index in 0..<proofs {
            let start = Clock.now()
            blackHole(
                try DPoPProof.make(
                    key: key, method: "GET", url: url, accessToken: "bench-access-token", nonce: nil,
                    issuedAt: Date(), jti: "jti-\(index)"))
            proofTimes.append(Clock.seconds(start, Clock.now()))
        }
        var requestTimes: [Double] = []
        for _ in 0..<requests {
            let start = Clock.now()
            blackHole(try await transport.send(TransportRequest(method: "GET", url: url)))
            requestTimes.append(Clock.seconds(start, Clock.now()))
        }
        let proof = Stats.median(proofTimes)
        let request = Stats.median(requestTimes)
        let share = proof / request
        var table = Table(
            "DPoP: one proof (ES256, libcrypto/CryptoKit) vs one loopback request",
            [
                ("what", "what", false), ("p50", "medianSeconds", true), ("p90", "p90Seconds", true),
                ("samples", "samples", true),
            ])
        table.add([
            .text("one DPoP proof"), .seconds(proof), .seconds(Stats.percentile(proofTimes, 90)), .int(proofs),
        ])
        table.add([
            .text("one loopback GET (URLSessionHTTPTransport)"), .seconds(request),
            .seconds(Stats.percentile(requestTimes, 90)), .int(requests),
        ])
        let target = TargetResult(
            name: "a DPoP proof ≤ 5% of a loopback request", outcome: share <= 0.05 ? .met : .missed,
            detail: Format.fixed(share * 100, 1) + "%")
        return SectionResult(key: "dpop", tables: [table], targets: [target])
    }
}
