import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// The engine every generated client calls: sessions, sign-in flows, refresh, sign-out and actions for
/// one provider, driven by its ``ProviderSpec``.
///
/// A client validates its configuration on creation, before any request. It reads the stored session
/// with ``restore()`` (no network), refreshes with one request in flight at a time, discards refresh
/// results that arrive after a sign-out or a user switch, and publishes every change of ``AuthState``.
@_spi(Generated) public actor AuthClient {
    /// The provider.
    public nonisolated let provider: ProviderSpec
    /// Who this client is to its provider: every record it stores is bound to it.
    public nonisolated let identity: ProviderIdentity
    /// The key of the session in the store (pending sign-ins use `<storeKey>.pending`): the options' key, or
    /// the identity's ``ProviderIdentity/defaultStoreKey``.
    public nonisolated let storeKey: String
    /// Where an earlier version kept the session (the options' key, or the descriptor name), read only when
    /// ``storeKey`` holds nothing, for ``LegacySessionMigration``.
    nonisolated let legacyStoreKey: String
    nonisolated let configuration: ProviderConfiguration
    nonisolated let options: AuthClientOptions
    nonisolated let inputs: [String: String]
    nonisolated let broadcaster = StateBroadcaster(initial: .loading)
    /// The session as ``observeTokens()`` shows it: nothing until the store was read, then every change.
    nonisolated let tokenBroadcaster = ValueBroadcaster<Session?>(
        initial: nil, settled: false, bufferingPolicy: .bufferingNewest(1))
    nonisolated let eventBroadcaster = EventBroadcaster()
    /// The changes ``authStateChanges()`` shows, fed by ``tokenBroadcaster``'s and ``eventBroadcaster``'s
    /// publications.
    nonisolated var changeBroadcaster: ChangeBroadcaster { eventBroadcaster.changes }
    nonisolated let builder: RequestBuilder
    /// The stages every request passes through, around ``AuthClientOptions/transport``.
    nonisolated let pipeline: RequestPipeline
    /// Whether token requests prove possession of a DPoP key (RFC 9449): the descriptor requires it, or
    /// allows it and ``AuthClientOptions/usesDPoP`` asks for it.
    nonisolated let usesDPoP: Bool
    /// The servers' last `DPoP-Nonce`s.
    nonisolated let dpopNonces = DPoPNonces()
    nonisolated let mapper: ResponseMapper
    nonisolated let decoder: SessionDecoder
    /// The store, when its operations never wait: called in place (see ``SynchronousSessionStore``).
    nonisolated let synchronousStore: (any SynchronousSessionStore)?
    /// Whether a refresh flight runs in the task of the caller that starts it, instead of a task of its own
    /// (two thread hand-offs fewer: the flight's start off this actor, and its answer back to that caller).
    /// Only when nothing in the flight observes that task's cancellation: the store never waits (no lock to
    /// poll for, nothing to interrupt) and the transport honours ``TransportCancellationShield``
    /// (``URLSessionHTTPTransport`` and the Linux default, `CurlHTTPTransport`, do).
    public nonisolated let refreshRunsInCallerTask: Bool

    /// The session's state and transitions (session, loaded flag, generation fencing, refresh flight, refresh
    /// locks held, automatic refresh), changed only through ``apply(_:)``.
    var lifecycle: SessionLifecycle
    /// The task of the lifecycle's refresh flight, which every caller awaits.
    var refreshTask: RefreshFlight?
    var discovery: DiscoveryResult?
    var jwksCache: JWKSCache?
    /// The access-token JWKS of the descriptor's `accessTokenClaims`, created on first use.
    var claimsKeyCache: KeySetCache<JSONWebKeySet>?
    var consumedStates: Set<String> = []
    /// The end of the last store operation queued by ``serialized(in:_:)``: the next one waits for it.
    var storeChain: SettledOnce<Void>?
    /// The session record this client last wrote or read, and its session: reading the same bytes again (the
    /// refresh's re-read under the lock, most of the time) needs no decoding.
    var lastSessionRecord: (bytes: Data, session: Session)?
    var automaticRefreshTask: Task<Void, Never>?
    var clientCredentialsCache = ClientCredentialsCache()
    /// What the browser sign-ins not yet opened pushed (RFC 9126), by state: pushed again when expired.
    var pushedAuthorizations: [String: PushedAuthorization] = [:]

    /// Creates a client and validates its configuration.
    /// - Parameters:
    ///   - provider: The provider spec (a generated client's `provider`).
    ///   - configuration: Input values, redirect URIs and, for server tools, a client secret.
    ///   - options: Transport, store, clock, randomness and logging.
    /// - Throws: `invalid_configuration` for a missing or malformed input or a redirect URI the provider does
    ///   not accept, an additional token parameter the token requests already send, or a missing client secret
    ///   the descriptor declares required (`clientSecret`); a rejection's code
    ///   (`secret_in_app`) for a secret key in an app.
    public init(
        provider: ProviderSpec, configuration: ProviderConfiguration, options: AuthClientOptions = AuthClientOptions()
    ) throws(AuthError) {
        self.provider = provider
        self.configuration = configuration
        self.options = options
        self.synchronousStore = options.store as? any SynchronousSessionStore
        self.refreshRunsInCallerTask =
            synchronousStore != nil && options.transport is any CancellationShieldHonouringTransport
        self.lifecycle = SessionLifecycle(
            rules: SessionLifecycle.Rules(
                refreshLeeway: options.refreshLeeway, canRefresh: provider.flows.refresh != nil,
                automaticRefresh: options.automaticRefresh, refreshesForIDToken: provider.tokens.validatesIDToken))
        let inputs = try ConfigurationValidator.resolve(
            provider: provider, configuration: configuration, environment: options.environment)
        try ClientSecretCheck.checkRequired(provider: provider, configuration: configuration)
        self.inputs = inputs
        self.identity = ProviderIdentity(provider: provider, inputs: inputs)
        self.storeKey = options.storeKey ?? identity.defaultStoreKey
        self.legacyStoreKey = options.storeKey ?? provider.name
        self.builder = RequestBuilder(
            provider: provider, userAgent: options.userAgent,
            additionalHeaders: try AdditionalHeaders.resolve(options.additionalHeaders, provider: provider))
        self.pipeline = try RequestPipeline.standard(provider: provider, configuration: configuration, options: options)
        switch provider.senderConstraint.dpop {
        case .never:
            guard !options.usesDPoP else {
                throw AuthError(
                    .invalidConfiguration, "This provider's descriptor does not declare DPoP (\"dpop\").",
                    provider: provider.name)
            }
            self.usesDPoP = false
        case .optional: self.usesDPoP = options.usesDPoP
        case .required: self.usesDPoP = true
        }
        var mapper = ResponseMapper(provider: provider.name, errors: provider.errors)
        mapper.accessTokenPointer = provider.session.accessToken
        self.mapper = mapper
        var decoder = SessionDecoder(
            provider: provider.name, sessionMapping: provider.session, userMapping: provider.user)
        decoder.acceptsPasetoTokenType = provider.tokens.accessTokenFormat.behaviour.acceptsPasetoTokenType
        decoder.acceptsDPoPTokenType = provider.senderConstraint.dpop != .never
        self.decoder = decoder
    }

    deinit {
        automaticRefreshTask?.cancel()
    }

    /// The current state.
    public nonisolated var state: AuthState { broadcaster.current }

    /// A stream of states: the current one first, then every change.
    public nonisolated func stateUpdates() -> AsyncStream<AuthState> { broadcaster.updates() }

    /// Reads the stored session, without any network request, and settles the state.
    /// - Returns: `signedIn`, `signedOut`, or `failed(store_unavailable)` when the store could not be read
    ///   (which is not signed out: try again later).
    @discardableResult
    public func restore() async -> AuthState {
        do {
            try await ensureLoaded()
        } catch {
            return .failed(error)
        }
        return broadcaster.current
    }

    /// The session in memory, without reading the store or refreshing.
    public var cachedSession: Session? { lifecycle.session }

    // MARK: - Internals shared by the flows

    /// The session in memory.
    var session: Session? { lifecycle.session }

    /// The generation of the session in memory (bumped by every sign-in and sign-out).
    var generation: Int { lifecycle.generation }

    /// Reads the store once; later calls do nothing.
    func ensureLoaded() async throws(AuthError) {
        guard !lifecycle.isLoaded else { return }
        let result = await serialized { client in await client.readStoredSession(importing: true) }
        let outcome: SessionLifecycle.Outcome
        switch result {
        case .success(let stored): outcome = apply(.restoreFinished(stored))
        case .failure(let error): outcome = apply(.restoreFailed(error))
        }
        if let failure = outcome.failure { throw self.error(for: failure) }
    }

    /// Publishes the settled state after a failed sign-in, or the earlier state when nothing was read yet.
    func publishAfterFailure(previous: AuthState) {
        apply(.signInFailed(previous: previous))
    }

    /// Runs store work one operation at a time, in call order, so that a sign-out's removal can never be
    /// overtaken by a late refresh's write.
    /// - Parameters:
    ///   - task: Where the operation runs (see ``StoreOperationTask``).
    ///   - work: The operation.
    /// - Returns: What `work` returns.
    func serialized<T: Sendable>(
        in task: StoreOperationTask = .ownTask, _ work: @escaping @Sendable (isolated AuthClient) async -> T
    ) async -> T {
        let previous = storeChain
        let turn = SettledOnce<Void>()
        storeChain = turn
        guard task == .ownTask else {
            return await runStoreOperation(after: previous, work, ending: turn)
        }
        let result = SettledOnce<T>()
        // A task of its own, so that the caller's cancellation never reaches a store write. The caller waits here
        // on the actor (see `SettledOnce` for why not `Task.value`).
        startOwnTask { client in result.settle(await client.runStoreOperation(after: previous, work, ending: turn)) }
        return await result.value()
    }

    /// Starts `work` in a task of its own on this actor, which no caller's cancellation reaches: at once where
    /// the OS has `Task.immediate` (iOS/macOS 26, and a Swift 6.2 compiler; no thread hand-off to start it),
    /// else enqueued on the actor, the same work one hop later.
    /// - Parameter work: What the task does, on this actor.
    func startOwnTask(_ work: @escaping @Sendable (isolated AuthClient) async -> Void) {
        #if compiler(>=6.2)
            if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                Task.immediate { await work(self) }
                return
            }
        #endif
        Task { await work(self) }
    }

    /// One ``serialized(in:_:)`` operation: waits for the one before, does the work, and ends its turn.
    private func runStoreOperation<T: Sendable>(
        after previous: SettledOnce<Void>?, _ work: @Sendable (isolated AuthClient) async -> T,
        ending turn: SettledOnce<Void>
    ) async -> T {
        await previous?.value()
        let value = await work(self)
        turn.settle(())
        return value
    }

    /// Sends a diagnostic to the logger.
    nonisolated func log(_ level: LogRecord.Level, _ message: @autoclosure () -> String) {
        // The message is only built when someone listens.
        guard let logger = options.logger else { return }
        logger(LogRecord(level: level, message: message(), provider: provider.name))
    }

    /// The current time.
    nonisolated func now() -> Date { options.clock.now }

    /// The variables known without discovery or a session: inputs and derived variables.
    nonisolated var inputScope: VariableScope {
        VariableScope(inputs: inputs, discovered: [:], derived: provider.variables)
    }

    /// An error of this provider.
    nonisolated func failure(_ code: AuthError.Code, _ message: String) -> AuthError {
        AuthError(code, message, provider: provider.name)
    }
}

/// Where a ``AuthClient/serialized(in:_:)`` store operation runs.
enum StoreOperationTask: Sendable {
    /// A task of its own, so that the caller's cancellation never reaches a store write.
    case ownTask
    /// The caller's task: only from a task that no caller can cancel (the refresh flight's), where a task of
    /// its own would only add two thread hand-offs (its start and its answer) to every refresh.
    case uncancellableCallerTask
}
