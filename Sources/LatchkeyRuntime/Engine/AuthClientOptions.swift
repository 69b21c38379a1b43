import Foundation
import LatchkeyPlatform

/// How an `AuthClient` talks to the world: transport, store, clock, randomness and logging.
public struct AuthClientOptions: Sendable {
    /// Sends HTTP requests.
    public var transport: any HTTPTransport
    /// Keeps the session and pending sign-ins: persistent by default (``defaultStore(environment:)``, the
    /// Keychain on Apple platforms, the user's state directory on Linux); ``InMemorySessionStore`` to opt out.
    public var store: any SessionStore
    /// The key of the session in the store; `nil` (the default) uses `ProviderIdentity.defaultStoreKey`, which
    /// differs for every provider, issuer, tenant and client id. Give a key of your own only to keep two sessions
    /// of the same configuration apart (two accounts); a record of another configuration under it is refused.
    public var storeKey: String?
    /// The clock: what time it is (token expiry, leeways) and how to wait (the automatic refresh's checks,
    /// device-flow polls unless ``sleep`` is set). ``SystemClock`` by default.
    public var clock: any LatchkeyClock
    /// Reads the current time from ``clock``; setting it replaces ``clock`` with a ``SystemClock`` that reads
    /// the new closure.
    public var now: @Sendable () -> Date {
        get {
            let clock = clock
            return { clock.now }
        }
        set { clock = SystemClock(now: newValue) }
    }
    /// The source of PKCE verifiers, states and nonces.
    public var random: any RandomSource
    /// How long before its expiry an access token is refreshed.
    public var refreshLeeway: LatchkeyDuration
    /// Receives diagnostics (info level or below, never a token).
    public var logger: (@Sendable (LogRecord) -> Void)?
    /// The `User-Agent` header, or `nil` for none; a `User-Agent` in the descriptor's `headers` (or a request's)
    /// takes its place on that provider's requests.
    public var userAgent: String?
    /// Looks up an input's `InputSpec.environmentKey` (the process environment, then the Info.plist on
    /// Apple platforms, by default).
    public var environment: @Sendable (String) -> String?
    /// Waits between device-flow polls (``DeviceAuthorizationProviding/completeDeviceAuthorization(_:)``); throws when the
    /// task is cancelled. Tests inject one that returns at once.
    public var sleep: @Sendable (LatchkeyDuration) async throws -> Void
    /// Proactive refresh ahead of expiry, started once the stored session is read; `nil` (the default) for
    /// none. See ``AutomaticRefresh``.
    public var automaticRefresh: AutomaticRefresh?
    /// Whether a link that carries a session in its fragment (GoTrue's implicit email links,
    /// `#access_token=…`, on a redirect URI the descriptor's `callback.implicit` names) signs the app in.
    ///
    /// Such a link carries no `state`, so nothing ties it to a sign-in this app asked for: whoever can make
    /// the app open a URL can sign it in to an account of their choosing. `true` (the default) accepts these
    /// links as Supabase's older email templates send them; `false` refuses every one of them with
    /// `invalid_callback` and no request, leaving only links tied to a pending sign-in (PKCE links,
    /// `?code=…`), which is what an app should use when it can.
    public var acceptsImplicitSessionLinks = true
    /// More parameters for this client's token requests, by name, e.g. `["httpStatusCodes": "true"]` for
    /// SAP Customer Data Cloud as Lokksmith's guide shows it.
    ///
    /// They are sent, after the descriptor's own `tokenParameters`, in the requests those reach: the code
    /// exchange, every refresh, device-code polls and client-credentials requests (a parameter the
    /// provider needs on one token request it needs on the refresh that replaces it). Values are sent as
    /// they are, never read as templates, and encoded like every other value (a CR or LF cannot start a
    /// header or another parameter). A name the protocol or the descriptor already sends (`grant_type`,
    /// `code`, `code_verifier`, `redirect_uri`, `client_id`, `client_secret`, `refresh_token`, `scope`,
    /// `device_code`, …, in any letter case) is refused with `invalid_configuration` when the client is created.
    public var additionalTokenParameters: [String: String] = [:]
    /// More headers for every request the descriptor declares, by name (supabase-swift's
    /// `AuthClient.Configuration(headers:)`, e.g. `["X-Client-Info": "my-app/1.0"]`).
    ///
    /// They are appended after the descriptor's own headers and never replace one: a name the client itself
    /// sends (`Authorization`, `DPoP`, `Content-Type`, `Accept`, `User-Agent`: use ``userAgent``, …) or that the
    /// descriptor's headers send (Supabase's `apikey` and `X-Supabase-Api-Version`), in any letter case, a name
    /// that is not an HTTP token, or a value with a control character is refused with `invalid_configuration`,
    /// naming the header (never its value), when the client is created.
    public var additionalHeaders: [String: String] = [:]
    /// What the loopback redirect server shows in the browser after a loopback sign-in
    /// (``BrowserSignInProviding/signInWithLoopback(open:timeout:)``) or logout
    /// (``EndSessionProviding/endSessionWithLoopback(open:timeout:)``): Latchkey's own pages by default, or the
    /// app's HTML or a redirect to a page it hosts. A page over its size limit or a bad redirect URL fails
    /// that call with `invalid_configuration` before anything listens or any browser opens.
    public var loopbackPages = LoopbackPages.standard
    /// A session another SDK stored, adopted once when this client's store holds none (an app that replaces
    /// supabase-swift keeps its users signed in); `nil` (the default) for none. See ``SessionImport``.
    public var sessionImport: SessionImport?
    /// Whether tokens are bound to a DPoP key (RFC 9449) when the descriptor declares `"dpop": "optional"`
    /// (default `false`); a `"required"` descriptor always binds them, a `"never"` one refuses `true` with
    /// `invalid_configuration` when the client is created. See the article "Sender-constrained tokens (DPoP) and
    /// pushed authorization (PAR)".
    public var usesDPoP = false
    /// Whether browser sign-ins push their authorization request (RFC 9126) when the descriptor declares a
    /// pushed authorization endpoint used `"whenRequired"` and discovery does not require it (default `false`).
    public var pushesAuthorizationRequests = false

    /// Creates options.
    /// - Parameters:
    ///   - transport: Sends HTTP requests (default ``defaultTransport(maximumResponseBytes:)``: libcurl on Linux,
    ///     URLSession elsewhere).
    ///   - store: Keeps sessions; `nil` (the default) for the platform's persistent store,
    ///     ``defaultStore(environment:)`` with this `environment`. Pass ``InMemorySessionStore`` to keep the
    ///     session in memory only (tests, previews, apps that must not persist).
    ///   - storeKey: The session's key (default: derived from the client's `ProviderIdentity`).
    ///   - now: Reads the current time (default `Date()`); ignored when `clock` is given.
    ///   - random: The random source (default ``SystemRandomSource``).
    ///   - refreshLeeway: Refresh this long before expiry (default 60 s).
    ///   - logger: Receives diagnostics.
    ///   - userAgent: The default `User-Agent` header (a descriptor's own one wins).
    ///   - environment: Looks up environment keys.
    ///   - sleep: Waits between device-flow polls (default: sleeps on the clock).
    ///   - automaticRefresh: Proactive refresh ahead of expiry (default none).
    ///   - additionalTokenParameters: More token-request parameters (default none); see
    ///     ``additionalTokenParameters``.
    ///   - sessionImport: Another SDK's stored session to adopt on the first restore (default none); see
    ///     ``SessionImport``.
    ///   - clock: The clock (default a ``SystemClock`` reading `now`).
    ///   - additionalHeaders: More headers for every request (default none); see ``additionalHeaders``.
    public init(
        transport: any HTTPTransport = AuthClientOptions.defaultTransport(), store: (any SessionStore)? = nil,
        storeKey: String? = nil, now: (@Sendable () -> Date)? = nil,
        random: any RandomSource = SystemRandomSource(), refreshLeeway: LatchkeyDuration = .seconds(60),
        logger: (@Sendable (LogRecord) -> Void)? = nil, userAgent: String? = "Latchkey",
        environment: @escaping @Sendable (String) -> String? = AuthClientOptions.processEnvironment,
        sleep: (@Sendable (LatchkeyDuration) async throws -> Void)? = nil,
        automaticRefresh: AutomaticRefresh? = nil, additionalTokenParameters: [String: String] = [:],
        sessionImport: SessionImport? = nil, clock: (any LatchkeyClock)? = nil,
        additionalHeaders: [String: String] = [:]
    ) {
        self.additionalHeaders = additionalHeaders
        self.sessionImport = sessionImport
        let clock = clock ?? SystemClock(now: now ?? { Date() })
        self.transport = transport
        self.store = store ?? AuthClientOptions.defaultStore(environment: environment)
        self.storeKey = storeKey
        self.clock = clock
        self.random = random
        self.refreshLeeway = refreshLeeway
        self.logger = logger
        self.userAgent = userAgent
        self.environment = environment
        self.sleep = sleep ?? { duration in try await clock.sleep(for: duration) }
        self.automaticRefresh = automaticRefresh
        self.additionalTokenParameters = additionalTokenParameters
    }

    /// Sleeps with `Task.sleep` (throws `CancellationError` when the task is cancelled).
    @Sendable public static func taskSleep(_ duration: LatchkeyDuration) async throws {
        try await LatchkeyDuration.sleep(duration)
    }

    /// Looks a key up in the process environment, then (on Apple platforms) in the main bundle's Info.plist.
    @Sendable public static func processEnvironment(_ key: String) -> String? {
        if let value = ProcessInfo.processInfo.environment[key] { return value }
        #if canImport(Darwin)
            return Bundle.main.object(forInfoDictionaryKey: key) as? String
        #else
            return nil
        #endif
    }
}
