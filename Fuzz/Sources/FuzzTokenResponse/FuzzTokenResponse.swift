import Foundation
import FuzzSupport
@_spi(Generated) import LatchkeyRuntime
import Synchronization

// Fuzzes what the runtime does with a provider's HTTP response: JSON(data:), the response mapper (error
// statuses, error bodies in 2xx responses, redirects, Retry-After), the session and user decoders and
// the session store's encoding, end to end through public calls of an AuthClient whose transport
// answers every request with the fuzz input.
//
// Input: an optional status block, then the body. When the input starts with three digits and a line
// break, that line is the status, the next lines up to an empty line are headers (`name: value`), and
// the rest is the body; otherwise the status is 200 and the whole input is the body. For example:
//
//     400
//     x-supabase-api-version: 2024-01-01
//
//     {"code":"bad_json","message":"Unable to parse JSON"}
//
// Each input runs against Supabase's generated provider spec (three error body shapes, sessions with an
// embedded user) and against the same spec with SAP CDC's error mapping (errors inside HTTP 200 bodies,
// a status pointer): password sign-in, then refresh and user fetch when signed in, and sign-up (a
// session or a user). A third variant adds an RFC 8628 device flow: the input is the device
// authorization document and each poll's answer (the clock is virtual; polling stops after 50 rounds).
//
// Invariants:
// - nothing crashes;
// - JSON(data:) round-trips: a parsed document re-serialized parses to the same value;
// - a sign-in succeeds only for a 2xx status whose body has no error marker; the session's access
//   token is the body's `access_token`, non-empty;
// - a session survives the store: a second client on the same store restores the same session;
// - a refresh refused with a `rejected` error drops the session; a `transport` error keeps it;
// - a device authorization has a user code, an http(s) verification URI, an interval and a lifetime >= 1 s.

let fixedNow = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
/// LATCHKEY_FUZZ_VERBOSE=1 prints what each call made of the input (for corpus work).
let verbose = ProcessInfo.processInfo.environment["LATCHKEY_FUZZ_VERBOSE"] != nil

func report(_ provider: ProviderSpec, _ step: String, _ outcome: String) {
    if verbose { print("\(provider.name) \(step): \(outcome)") }
}

/// Answers every request with the same response, counting them.
final class ReplayTransport: HTTPTransport {
    let response: TransportResponse
    let calls = Mutex(0)

    init(_ response: TransportResponse) { self.response = response }

    func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
        calls.withLock { $0 += 1 }
        return response
    }
}

/// Supabase's spec with SAP CDC's style of error mapping: errors reported in 200 bodies.
let sapStyleProvider: ProviderSpec = {
    var spec = supabaseProvider
    spec.name = "fuzz-sap-errors"
    spec.errors = ErrorMappingSpec(
        codePointers: ["/errorCode", "/error"],
        messagePointers: ["/errorMessage", "/errorDetails", "/error_description"],
        successBodyErrorPointer: "/errorCode",
        statusPointer: "/statusCode",
        rules: [
            .init(providerCode: "403042", code: "invalid_credentials", kind: .rejected),
            .init(providerCodePrefix: "5", code: "server_error", kind: .transport),
            .init(providerCode: "invalid_grant", code: "invalid_grant", kind: .rejected),
            .init(status: 429, code: "rate_limited", kind: .transport),
        ]
    )
    return spec
}()

/// Supabase's spec with an RFC 8628 device flow added (Supabase has none), for the device authorization
/// document and the polling loop's error handling.
let deviceProvider: ProviderSpec = {
    var spec = supabaseProvider
    spec.name = "fuzz-device"
    spec.errors = ErrorMappingSpec(codePointers: ["/error"], messagePointers: ["/error_description"])
    spec.requests["deviceAuthorize"] = RequestSpec(
        method: "POST", url: "{baseURL}/device/code", encoding: .form,
        body: [ParameterSpec("client_id", .string("{publishableKey}")), ParameterSpec("scope", .string("{scope}"))],
        response: .document)
    spec.requests["deviceToken"] = RequestSpec(
        method: "POST", url: "{baseURL}/token", encoding: .form,
        body: [
            ParameterSpec("grant_type", .string("urn:ietf:params:oauth:grant-type:device_code")),
            ParameterSpec("device_code", .string("{device_code}")),
        ],
        response: .session)
    spec.flows.deviceCode = DeviceCodeFlowSpec(authorizationRequest: "deviceAuthorize", tokenRequest: "deviceToken")
    return spec
}()

let providers = [supabaseProvider, sapStyleProvider, deviceProvider]

/// Splits the input into a response.
func response(from bytes: [UInt8]) -> TransportResponse {
    guard bytes.count >= 4, bytes[0...2].allSatisfy({ (0x30...0x39).contains($0) }), bytes[3] == 0x0A else {
        return TransportResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(bytes))
    }
    let status = Int(String(decoding: bytes[0...2], as: UTF8.self)) ?? 200
    let afterStatus = Array(bytes[4...])
    var headers: [String: String] = [:]
    var body = afterStatus
    if afterStatus.first == 0x0A {
        body = Array(afterStatus.dropFirst())
    } else if let (head, rest) = Fuzz.split(afterStatus, at: [0x0A, 0x0A]) {
        for line in String(decoding: head, as: UTF8.self).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        body = Array(rest)
    }
    return TransportResponse(status: status, headers: headers, body: Data(body))
}

/// The runtime's "set" test for an error marker: not null, false, zero, empty.
func isPresent(_ value: JSON?) -> Bool {
    switch value {
    case nil, .null?: false
    case .bool(let flag)?: flag
    case .number(let number)?: number != 0
    case .string(let text)?: !text.isEmpty
    case .array(let elements)?: !elements.isEmpty
    case .object(let members)?: !members.isEmpty
    }
}

func close(_ a: Date?, _ b: Date?) -> Bool {
    switch (a, b) {
    case (nil, nil): true
    case (let a?, let b?):
        a == b
            || abs(a.timeIntervalSince1970 - b.timeIntervalSince1970)
                <= max(1e-3, abs(a.timeIntervalSince1970) * 1e-12)
    default: false
    }
}

func same(_ a: Session, _ b: Session) -> Bool {
    var left = a
    var right = b
    guard close(left.expiresAt, right.expiresAt), close(left.issuedAt, right.issuedAt) else { return false }
    left.expiresAt = nil
    right.expiresAt = nil
    left.issuedAt = fixedNow
    right.issuedAt = fixedNow
    return left == right
}

/// A clock that device-flow polling moves forward instead of sleeping; it gives up after 50 polls.
final class VirtualClock: Sendable {
    private let state = Mutex((now: fixedNow, sleeps: 0))

    var now: Date { state.withLock { $0.now } }

    func sleep(_ duration: LatchkeyDuration) throws {
        try state.withLock { state in
            state.sleeps += 1
            guard state.sleeps <= 50 else { throw CancellationError() }
            state.now += Double(duration.nanoseconds / 1_000_000_000)
        }
    }
}

func options(_ transport: ReplayTransport, _ store: InMemorySessionStore, clock: VirtualClock = VirtualClock())
    -> AuthClientOptions
{
    AuthClientOptions(
        transport: transport, store: store, now: { clock.now }, random: SeededRandomSource(seed: "fuzz"),
        logger: nil, environment: { _ in nil }, sleep: { try clock.sleep($0) })
}

func client(_ provider: ProviderSpec, _ transport: ReplayTransport, _ store: InMemorySessionStore) -> AuthClient {
    do {
        return try AuthClient(
            provider: provider,
            configuration: ProviderConfiguration(values: [
                "projectURL": "https://fuzz.supabase.co", "publishableKey": "sb_publishable_fuzz",
            ]),
            options: options(transport, store))
    } catch {
        fatalError("FUZZ SETUP: \(error)")
    }
}

func exercise(_ provider: ProviderSpec, _ response: TransportResponse, _ document: JSON?) async {
    if provider.flows.deviceCode != nil {
        await exerciseDeviceFlow(provider, response)
        return
    }
    let transport = ReplayTransport(response)
    let store = InMemorySessionStore()
    let auth = client(provider, transport, store)

    // Password sign-in.
    let signedIn: Session?
    do {
        signedIn = try await auth.signIn(username: "fuzz@example.com", password: "correct horse")
        report(provider, "sign-in", "\(signedIn!)")
    } catch {
        report(provider, "sign-in", "\(error)")
        signedIn = nil
    }
    let request = provider.requests[provider.flows.password!.request]!
    let statusAccepted = (200..<300).contains(response.status) || request.ignoredErrorStatuses.contains(response.status)
    if let session = signedIn {
        let where_ = "\(provider.name), HTTP \(response.status)"
        Fuzz.check(statusAccepted, "a sign-in succeeded with HTTP \(response.status) (\(where_))")
        if let pointer = provider.errors.successBodyErrorPointer {
            Fuzz.check(!isPresent(document?.value(at: pointer)), "a sign-in succeeded with an error marker (\(where_))")
        }
        Fuzz.check(!session.accessToken.isEmpty, "a session with an empty access token (\(where_))")
        Fuzz.check(
            document?.value(at: provider.session.accessToken)?.string == session.accessToken,
            "the session's access token is not the body's (\(where_))")
        Fuzz.check(session.provider == provider.name, "the session names another provider (\(where_))")

        // The stored session is the same session after a relaunch.
        let relaunched = client(provider, transport, store)
        await relaunched.restore()
        let restored = await relaunched.cachedSession
        Fuzz.check(
            restored.map { same($0, session) } ?? false,
            "the stored session does not restore as it was (\(where_)): \(String(describing: restored)) vs \(session)")

        // Refresh with the same response.
        do {
            let refreshed = try await auth.currentSession(forceRefresh: true)
            report(provider, "refresh", "\(refreshed)")
        } catch {
            report(provider, "refresh", "\(error)")
            let after = await auth.cachedSession
            if error.kind == .rejected {
                Fuzz.check(after == nil, "a rejected refresh kept the session (\(where_)): \(error)")
            } else if error.kind == .transport {
                Fuzz.check(after != nil, "a transport failure during refresh dropped the session (\(where_)): \(error)")
            }
        }

        // The user document path.
        do {
            let user = try await auth.fetchUser()
            report(provider, "user", "\(user)")
        } catch {
            report(provider, "user", "\(error)")
        }
    }

    // Sign-up: a session or a user.
    let signUpClient = client(provider, transport, InMemorySessionStore())
    do {
        let result = try await signUpClient.perform(
            action: "signUp",
            arguments: [
                "email": .string("new@example.com"), "password": .string("long enough"),
                "redirectTo": .url(URL(string: "https://app.example.com/welcome")!),
            ])
        report(provider, "sign-up", "\(result)")
    } catch {
        report(provider, "sign-up", "\(error)")
    }
}

/// Device authorization: the response is both the authorization document and every poll's answer.
func exerciseDeviceFlow(_ provider: ProviderSpec, _ response: TransportResponse) async {
    let transport = ReplayTransport(response)
    let auth = client(provider, transport, InMemorySessionStore())
    let authorization: DeviceAuthorization
    do {
        authorization = try await auth.startDeviceAuthorization()
    } catch {
        report(provider, "device authorization", "\(error)")
        return
    }
    report(provider, "device authorization", "\(authorization)")
    Fuzz.check(!authorization.userCode.isEmpty, "a device authorization without a user code")
    Fuzz.check(authorization.interval >= 1, "a device authorization polled every \(authorization.interval) s")
    Fuzz.check(authorization.expiresIn >= 1, "a device authorization that expires in \(authorization.expiresIn) s")
    Fuzz.check(
        ["http", "https"].contains(authorization.verificationURI.scheme?.lowercased() ?? ""),
        "a verification URI that is not http(s): \(authorization.verificationURI)")
    do {
        let session = try await auth.completeDeviceAuthorization(authorization)
        report(provider, "device sign-in", "\(session)")
        Fuzz.check(!session.accessToken.isEmpty, "a device sign-in with an empty access token")
    } catch {
        report(provider, "device sign-in", "\(error)")
    }
}

/// libFuzzer's entry point: runs one input.
/// - Parameters:
///   - data: The input's bytes.
///   - size: How many.
/// - Returns: 0 (inputs are never rejected).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    let reply = response(from: bytes)

    let document = JSON(data: reply.body)
    if let document {
        let reparsed = JSON(data: document.serialized)
        Fuzz.check(reparsed == document, "JSON does not round-trip: \(document.serializedText)")
        _ = document.scalarText
    }

    Fuzz.run {
        for provider in providers { await exercise(provider, reply, document) }
    }
    return 0
}
