import Foundation
import FuzzSupport
@_spi(Generated) import LatchkeyRuntime
import Synchronization

// Fuzzes what a DPoP-bound client (RFC 9449) does with a hostile server's `DPoP-Nonce` header, its
// `WWW-Authenticate` challenges (RFC 9110 §11.6.1) and its `use_dpop_nonce` errors: the DPoP proof stage, the
// nonce retry stage, the challenge reader and the nonce memory, end to end through public calls of an
// AuthClient on a scripted in-process transport.
//
// Input: an HTTP response, as for FuzzTokenResponse: a first line of three digits (the status), header lines
// (`name: value`, repeated names kept) up to an empty line, then the body; without the status line, a 200 whose
// body is the whole input. For example:
//
//     401
//     WWW-Authenticate: Bearer realm="api", DPoP error="use_dpop_nonce", algs="ES256"
//     DPoP-Nonce: eyJ7S_zG.eyJH0-Z.HX4w-7v
//
// A client of a provider whose tokens are always DPoP-bound signs in with a password (answered with a valid
// DPoP token response, no nonce), then every later request is answered with the input: (a) an app's resource
// request through `send(_:)`, (b) a forced refresh, (c) `authorizedRequest(_:)` for the resource (which sends
// nothing unless the session from (b) needs refreshing). The resource and the token endpoint share an origin,
// and their nonces are still kept apart (RFC 9449 §9): (b) starts with no nonce whatever (a) left.
//
// Invariants:
// - nothing crashes or hangs;
// - (a) and (b) each send one request, or two when the first answer asked for a retry;
// - a retry follows only an answer whose `DPoP-Nonce` (the first field, whitespace trimmed) is RFC 9449 §8.1's
//   `1*NQCHAR` within 1,024 bytes, with status 400 or 401; and a 400 `{"error":"use_dpop_nonce"}` or a 401
//   `WWW-Authenticate: DPoP error="use_dpop_nonce"` with such a nonce is retried;
// - every request carries one `DPoP` header, a compact JWS whose header is `dpop+jwt` with a `jwk` and whose
//   payload has `htm`, `htu`, `jti`, `iat`; its `nonce` claim is present exactly when an answer to a request of
//   the same role (token request, or resource request) gave a valid nonce, and is the last such one (so a
//   retry's is the nonce of the answer it retries);
// - resource requests carry `Authorization: DPoP <token>` and `ath`; token requests neither;
// - no error's description, debug description or dump holds the access or refresh token.

/// LATCHKEY_FUZZ_VERBOSE=1 prints what each call made of the input (for corpus work).
let verbose = ProcessInfo.processInfo.environment["LATCHKEY_FUZZ_VERBOSE"] != nil

func report(_ step: String, _ outcome: String) {
    if verbose { print("\(step): \(outcome)") }
}

/// Answers the first request (the sign-in) with ``signInResponse`` and every later one with the input, checking
/// each request's proof against the nonces the answers so far offered.
final class ScriptedTransport: HTTPTransport {
    struct State {
        var requests: [TransportRequest] = []
        /// The last valid nonce an answer to a token request offered: what the next token request's proof must
        /// carry (the authorization server's, RFC 9449 §8).
        var tokenNonce: String?
        /// The last valid nonce an answer to a resource request offered: what the next resource request's proof
        /// must carry (the resource server's, §9: a nonce is accepted only by the server that gave it, so the
        /// client keeps the two apart even on one origin).
        var resourceNonce: String?
    }

    let reply: TransportResponse
    let state = Mutex(State())

    init(_ reply: TransportResponse) { self.reply = reply }

    var requests: [TransportRequest] { state.withLock { $0.requests } }
    var resourceNonce: String? { state.withLock { $0.resourceNonce } }

    func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
        state.withLock { state in
            let isResource = request.header("Authorization") != nil
            checkProof(of: request, expectedNonce: isResource ? state.resourceNonce : state.tokenNonce)
            let answer = state.requests.isEmpty ? signInResponse : reply
            state.requests.append(request)
            if let offered = offeredNonce(answer), isNonce(offered) {
                if isResource { state.resourceNonce = offered } else { state.tokenNonce = offered }
            }
            return answer
        }
    }
}

/// A request's proof: one `DPoP` field, a well-formed proof for this method and URL, carrying exactly the nonce
/// expected. Returns its claims.
@discardableResult
func checkProof(of request: TransportRequest, expectedNonce: String?) -> [String: JSON] {
    let proofs = request.headerFields.values(for: "DPoP")
    Fuzz.check(proofs.count == 1, "\(proofs.count) DPoP fields on \(request.method) \(request.url)")
    let claims = proofClaims(proofs[0])
    Fuzz.check(claims["htm"]?.string == request.method, "a proof's htm is not \(request.method)")
    Fuzz.check(claims["htu"]?.string == request.url.absoluteString, "a proof's htu is not \(request.url)")
    Fuzz.check(!(claims["jti"]?.string ?? "").isEmpty, "a proof without a jti")
    Fuzz.check(claims["iat"]?.double != nil, "a proof without an iat")
    if let claim = claims["nonce"] {
        Fuzz.check(claim.string.map(isNonce) ?? false, "a proof's nonce claim is not 1*NQCHAR: \(claim)")
    }
    Fuzz.check(
        claims["nonce"]?.string == expectedNonce,
        "a proof carries nonce \(String(describing: claims["nonce"])), expected \(String(describing: expectedNonce))")
    return claims
}

/// Whether an answer plainly asks for a nonce, in the two forms RFC 9449 §8 and §9 show.
func plainlyAsksForNonce(_ response: TransportResponse) -> Bool {
    switch response.status {
    case 400: JSON(data: response.body)?["error"]?.string == "use_dpop_nonce"
    case 401: response.headerFields.values(for: "WWW-Authenticate").contains(#"DPoP error="use_dpop_nonce""#)
    default: false
    }
}

/// One exchange ((a) or (b)): one request, or two when the answer asked for a retry with a valid nonce.
func checkExchange(_ sent: ArraySlice<TransportRequest>, _ reply: TransportResponse, _ step: String) {
    Fuzz.check((1...2).contains(sent.count), "\(step) sent \(sent.count) requests")
    let offered = offeredNonce(reply)
    let validOffer = offered.map(isNonce) ?? false
    if sent.count == 2 {
        Fuzz.check(validOffer, "\(step) retried after a DPoP-Nonce that is not a nonce: \(String(describing: offered))")
        Fuzz.check([400, 401].contains(reply.status), "\(step) retried after HTTP \(reply.status)")
        let retried = proofClaims(sent[sent.startIndex + 1].header("DPoP") ?? "")
        Fuzz.check(retried["nonce"]?.string == offered, "\(step)'s retry does not carry the nonce it was given")
    }
    if validOffer, plainlyAsksForNonce(reply) {
        Fuzz.check(sent.count == 2, "\(step) did not retry a use_dpop_nonce that came with a nonce")
    }
}

/// No error shows a token.
func checkSecretsHidden(_ error: AuthError, _ step: String) {
    var dumped = ""
    dump(error, to: &dumped)
    for text in [error.description, String(reflecting: error), dumped] {
        for secret in [signInAccessToken, signInRefreshToken] {
            Fuzz.check(!Fuzz.quotes(text, secret), "\(step)'s error shows a token: \(error.code)")
        }
    }
}

func exercise(_ reply: TransportResponse) async {
    let transport = ScriptedTransport(reply)
    let clock = fixedNow
    let client: AuthClient
    let session: Session
    do {
        client = try AuthClient(
            provider: dpopProvider,
            configuration: ProviderConfiguration(values: ["baseURL": baseURL, "clientID": "fuzz-app"]),
            options: AuthClientOptions(
                transport: transport, store: InMemorySessionStore(), now: { clock },
                random: SeededRandomSource(seed: "fuzz"), logger: nil, environment: { _ in nil }, sleep: { _ in }))
        session = try await client.signIn(username: "fuzz@example.com", password: "correct horse")
    } catch {
        fatalError("FUZZ SETUP: \(error)")
    }
    Fuzz.check(
        session.accessToken == signInAccessToken && session.tokenType == "DPoP", "FUZZ SETUP: not a DPoP session")

    // (a) The app's resource request.
    var before = transport.requests.count
    do {
        let answer = try await client.send(TransportRequest(method: "GET", url: resourceURL))
        report("resource", "HTTP \(answer.status) after \(transport.requests.count - before) request(s)")
        Fuzz.check(answer == reply, "send(_:) returned another response than the server's")
    } catch {
        report("resource", "\(error) after \(transport.requests.count - before) request(s)")
        checkSecretsHidden(error, "the resource request")
    }
    let resourceRequests = transport.requests[before...]
    checkExchange(resourceRequests, reply, "the resource request")
    for request in resourceRequests {
        Fuzz.check(request.url == resourceURL, "the resource request went to \(request.url)")
        Fuzz.check(request.header("Authorization") == "DPoP \(signInAccessToken)", "a resource request's Authorization")
        Fuzz.check(proofClaims(request.header("DPoP") ?? "")["ath"]?.string != nil, "a resource proof without ath")
    }

    // (b) A forced refresh.
    before = transport.requests.count
    do {
        let refreshed = try await client.currentSession(forceRefresh: true)
        report("refresh", "token type \(refreshed.tokenType) after \(transport.requests.count - before) request(s)")
    } catch {
        report("refresh", "\(error) after \(transport.requests.count - before) request(s)")
        checkSecretsHidden(error, "the refresh")
    }
    let refreshRequests = transport.requests[before...]
    checkExchange(refreshRequests, reply, "the refresh")
    for request in refreshRequests {
        Fuzz.check(request.url == tokenURL, "the refresh went to \(request.url)")
        Fuzz.check(request.header("Authorization") == nil, "a refresh request with an Authorization field")
        Fuzz.check(proofClaims(request.header("DPoP") ?? "")["ath"] == nil, "a refresh proof with ath")
    }

    // (c) A request the app sends itself: its proof carries the last valid nonce a resource answer gave.
    before = transport.requests.count
    do {
        let authorized = try await client.authorizedRequest(TransportRequest(method: "GET", url: resourceURL))
        checkProof(of: authorized, expectedNonce: transport.resourceNonce)
    } catch {
        report("authorized request", "\(error)")
        checkSecretsHidden(error, "the authorized request")
    }
    Fuzz.check(transport.requests.count - before <= 2, "authorizedRequest(_:) sent more than a refresh and its retry")
}

let fixedNow = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

/// libFuzzer's entry point: runs one input.
/// - Parameters:
///   - data: The input's bytes.
///   - size: How many.
/// - Returns: 0 (inputs are never rejected).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let reply = response(from: Fuzz.bytes(data, size))
    Fuzz.run { await exercise(reply) }
    return 0
}
