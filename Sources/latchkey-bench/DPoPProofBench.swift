import Foundation
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

/// Section 9: the cost of one DPoP proof (RFC 9449: a P-256 signature over a small JWT), beside the loopback
/// request it goes with, in the same run.
///
/// A proof is timed as the pipeline's DPoP stage makes one: a fresh `jti` (16 bytes of the system CSPRNG),
/// `Date()` for `iat`, `ath` of an access token, the claims and the ES256 signature. Beside it, the signature
/// alone (its floor: the same libcrypto/CryptoKit call over the same bytes). The requests are loopback GETs
/// through the platform's default transport (libcurl on Linux) and through `URLSessionHTTPTransport`, on warm
/// connections. Proofs and requests are taken in interleaved rounds, so a change of machine load touches both.
/// The target is against the default transport, the one a request goes through unless the app gives another.
struct DPoPProofBench {
    let rounds: Int
    let proofsPerRound: Int
    let requestsPerRound: Int

    func run() async throws -> SectionResult {
        let server = try TestHTTPServer { _ in .json(["ok": true]) }
        defer { server.stop() }
        let url = server.url("/resource")
        let key = try DPoPKey.generate()
        let defaultTransport = AuthClientOptions.defaultTransport()
        let urlSession = URLSessionHTTPTransport()
        let accessToken = "bench-access-token-" + RandomToken.make(bytes: 24)
        let signingInput = Array(
            try DPoPProof.make(
                key: key, method: "GET", url: url, accessToken: accessToken, nonce: nil, issuedAt: Date(), jti: "warm"
            )
            .split(separator: ".").prefix(2).joined(separator: ".").utf8)
        for transport in [defaultTransport, urlSession] {  // warm the connection pools
            _ = try await transport.send(TransportRequest(method: "GET", url: url))
        }

        var proofTimes: [Double] = []
        var signatureTimes: [Double] = []
        var defaultTimes: [Double] = []
        var urlSessionTimes: [Double] = []
        for _ in 0..<rounds {
            for _ in 0..<proofsPerRound {
                let start = Clock.now()
                blackHole(
                    try DPoPProof.make(
                        key: key, method: "GET", url: url, accessToken: accessToken, nonce: nil, issuedAt: Date(),
                        jti: RandomToken.make(bytes: 16)))
                proofTimes.append(Clock.seconds(start, Clock.now()))
                let signatureStart = Clock.now()
                blackHole(try key.sign(signingInput))
                signatureTimes.append(Clock.seconds(signatureStart, Clock.now()))
            }
            for _ in 0..<requestsPerRound {
                for (transport, times) in [(defaultTransport, 0), (urlSession, 1)] {
                    let start = Clock.now()
                    blackHole(try await transport.send(TransportRequest(method: "GET", url: url)))
                    let elapsed = Clock.seconds(start, Clock.now())
                    if times == 0 { defaultTimes.append(elapsed) } else { urlSessionTimes.append(elapsed) }
                }
            }
        }
        let proof = Stats.median(proofTimes)
        let request = Stats.median(defaultTimes)
        let share = proof / request
        let urlSessionShare = proof / Stats.median(urlSessionTimes)
        var table = Table(
            "DPoP: one proof (ES256, \(Self.backend)) vs one loopback request",
            [
                ("what", "what", false), ("p50", "medianSeconds", true), ("p90", "p90Seconds", true),
                ("samples", "samples", true), ("proof share", "proofShare", true),
            ])
        table.add([
            .text("one DPoP proof (jti, iat, ath, claims, signature)"), .seconds(proof),
            .seconds(Stats.percentile(proofTimes, 90)), .int(proofTimes.count), .none,
        ])
        table.add([
            .text("  its floor: the ES256 signature alone"), .seconds(Stats.median(signatureTimes)),
            .seconds(Stats.percentile(signatureTimes, 90)), .int(signatureTimes.count), .none,
        ])
        table.add([
            .text("one loopback GET, default transport (\(Self.transportName(defaultTransport)))"), .seconds(request),
            .seconds(Stats.percentile(defaultTimes, 90)), .int(defaultTimes.count),
            Cell(Format.fixed(share * 100, 1) + "%", .number(share)),
        ])
        table.add([
            .text("one loopback GET, URLSessionHTTPTransport"), .seconds(Stats.median(urlSessionTimes)),
            .seconds(Stats.percentile(urlSessionTimes, 90)), .int(urlSessionTimes.count),
            Cell(Format.fixed(urlSessionShare * 100, 1) + "%", .number(urlSessionShare)),
        ])
        table.notes = [
            "\(rounds) interleaved rounds of \(proofsPerRound) proofs (each followed by one bare signature) and "
                + "\(requestsPerRound) requests per transport; p50 over all rounds.",
            "proof share: the proof's p50 over the request's p50. Target: ≤ 5% with the default transport.",
        ]
        let target = TargetResult(
            name: "a DPoP proof ≤ 5% of a loopback request", outcome: share <= 0.05 ? .met : .missed,
            detail: Format.fixed(share * 100, 1) + "% of a default-transport request ("
                + Format.fixed(urlSessionShare * 100, 1) + "% of a URLSessionHTTPTransport one)")
        return SectionResult(key: "dpop", tables: [table], targets: [target])
    }

    private static var backend: String {
        #if canImport(CryptoKit)
            "CryptoKit"
        #else
            "libcrypto"
        #endif
    }

    private static func transportName(_ transport: any HTTPTransport) -> String {
        transport is URLSessionHTTPTransport ? "URLSessionHTTPTransport" : "libcurl"
    }
}
