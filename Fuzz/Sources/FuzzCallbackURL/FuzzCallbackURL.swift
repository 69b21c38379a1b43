import Foundation
import FuzzSupport
@_spi(Generated) import LatchkeyRuntime
import Synchronization

// Fuzzes callback handling: the input, read as UTF-8, is a URL the app was opened with. It goes to
// AuthClient.canHandle(_:) and AuthClient.handleCallback(_:) of a client with two pending browser
// sign-ins (a custom-scheme and a loopback redirect URI), whose transport fails every request.
//
// Invariants:
// - nothing crashes;
// - canHandle sends nothing;
// - handleCallback never succeeds (the exchange always fails);
// - the transport is called (the code exchange) only when the URL carries the state of a pending sign-in
//   AND a non-empty code; a wrong or missing state, an error callback, a foreign redirect URI or a
//   malformed URL never reaches the network.
//
// The pending sign-ins use a seeded random source, so their states are the same in every run and the
// seed corpus can carry them (print them with LATCHKEY_FUZZ_VERBOSE=1). A callback that consumes a
// sign-in makes the harness start over with a fresh client.

let appRedirect = URL(string: "dev.latchkey.fuzz://auth/callback")!
let loopbackRedirect = URL(string: "http://127.0.0.1:53682/callback")!
let fixedNow = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

let provider = ProviderSpec(
    name: "fuzz",
    displayName: "Fuzz Provider",
    inputs: [InputSpec(name: "clientID")],
    requests: [
        "exchangeCode": RequestSpec(
            method: "POST",
            url: "https://auth.example.com/oauth/token",
            encoding: .form,
            body: [
                ParameterSpec("grant_type", .string("authorization_code")),
                ParameterSpec("code", .string("{code}")),
                ParameterSpec("code_verifier", .string("{code_verifier}")),
                ParameterSpec("redirect_uri", .string("{redirect_uri}")),
                ParameterSpec("client_id", .string("{clientID}")),
            ],
            response: .session
        )
    ],
    flows: FlowSet(
        authorizationCode: AuthorizationCodeFlowSpec(
            authorizeURL: "https://auth.example.com/authorize",
            authorizeQuery: [
                ParameterSpec("response_type", .string("code")),
                ParameterSpec("client_id", .string("{clientID}")),
                ParameterSpec("redirect_uri", .string("{redirect_uri}")),
                ParameterSpec("scope", .string("{scope}")),
                ParameterSpec("state", .string("{state}")),
                ParameterSpec("nonce", .string("{nonce}")),
                ParameterSpec("code_challenge", .string("{code_challenge}")),
                ParameterSpec("code_challenge_method", .string("S256")),
            ],
            exchangeRequest: "exchangeCode",
            usesNonce: true,
            defaultScopes: ["openid", "email"]
        )
    ),
    errors: ErrorMappingSpec(
        callbackRules: [
            .init(providerCode: "access_denied", code: "login_cancelled", kind: .cancelled),
            .init(providerCodePrefix: "otp_", code: "otp_expired", kind: .rejected),
        ]
    ),
    callback: CallbackSpec(location: .queryOrFragment, issuerParameter: "iss", errorCodeParameter: "error_code"),
    tokens: TokenSpec(issuer: "https://auth.example.com")
)

/// A transport that counts requests and fails each one.
final class FailingTransport: HTTPTransport {
    let calls = Mutex(0)

    func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
        calls.withLock { $0 += 1 }
        throw AuthError(.networkError, "the fuzz transport fails every request")
    }

    var count: Int { calls.withLock { $0 } }
}

/// A client with two pending sign-ins.
struct Harness: Sendable {
    let client: AuthClient
    let transport: FailingTransport
    let states: [String]

    static func make() -> Harness {
        let transport = FailingTransport()
        let options = AuthClientOptions(
            transport: transport, store: InMemorySessionStore(), now: { fixedNow },
            random: SeededRandomSource(seed: "latchkey-fuzz-callback"), logger: nil, environment: { _ in nil })
        let client: AuthClient
        do {
            client = try AuthClient(
                provider: provider,
                configuration: ProviderConfiguration(values: ["clientID": "fuzz-client"], redirectURI: appRedirect),
                options: options)
        } catch {
            fatalError("FUZZ SETUP: \(error)")
        }
        let states = Fuzz.run { () -> [String] in
            do {
                let first = try await client.prepareAuthorization()
                let second = try await client.prepareAuthorization(redirectURI: loopbackRedirect)
                return [first.state, second.state]
            } catch {
                fatalError("FUZZ SETUP: \(error)")
            }
        }
        Fuzz.check(transport.count == 0, "preparing a sign-in sent a request")
        return Harness(client: client, transport: transport, states: states)
    }
}

/// LATCHKEY_FUZZ_VERBOSE=1 prints the pending states once and each input's outcome (for corpus work).
let verbose = ProcessInfo.processInfo.environment["LATCHKEY_FUZZ_VERBOSE"] != nil

nonisolated(unsafe) var harness: Harness = {
    let made = Harness.make()
    if verbose { print("pending states: \(made.states.joined(separator: " "))") }
    return made
}()

/// The callback's parameters, read independently of the runtime (query and fragment, `+` as space).
func parameters(of url: URL) -> [(name: String, value: String)] {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return [] }
    var out: [(String, String)] = []
    for part in [components.percentEncodedQuery, components.percentEncodedFragment] {
        for pair in (part ?? "").split(separator: "&") {
            let pieces = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String {
                let spaced = text.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            out.append((decode(pieces[0]), pieces.count > 1 ? decode(pieces[1]) : ""))
        }
    }
    return out
}

/// libFuzzer's entry point: runs one input.
/// - Parameters:
///   - data: The input's bytes.
///   - size: How many.
/// - Returns: 0 (inputs are never rejected).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: Fuzz.bytes(data, size), as: UTF8.self)
    guard let url = URL(string: text) else { return 0 }
    let current = harness
    let before = current.transport.count

    let outcome = Fuzz.run { () -> (handles: Bool, callsAfterCanHandle: Int, succeeded: Bool, stillPending: Bool) in
        let handles = await current.client.canHandle(url)
        let callsAfterCanHandle = current.transport.count
        var succeeded = false
        do {
            _ = try await current.client.handleCallback(url)
            succeeded = true
        } catch {
            if verbose { print("canHandle \(handles), requests \(current.transport.count - before): \(error)") }
        }
        let appPending = await current.client.canHandle(appRedirect)
        let loopbackPending = await current.client.canHandle(loopbackRedirect)
        return (handles, callsAfterCanHandle, succeeded, appPending && loopbackPending)
    }

    Fuzz.check(outcome.callsAfterCanHandle == before, "canHandle sent a request for \(url.absoluteString)")
    Fuzz.check(!outcome.succeeded, "handleCallback succeeded although every request fails: \(url.absoluteString)")
    let sent = current.transport.count - before
    if sent > 0 {
        let found = parameters(of: url)
        let hasState = found.contains { $0.name == "state" && current.states.contains($0.value) }
        let hasCode = found.contains { $0.name == "code" && !$0.value.isEmpty }
        Fuzz.check(
            hasState && hasCode,
            "the code exchange was sent for a callback without a pending state and a code: \(url.absoluteString)")
        Fuzz.check(outcome.handles, "a callback canHandle refused reached the network: \(url.absoluteString)")
    }
    if !outcome.stillPending { harness = Harness.make() }
    return 0
}
