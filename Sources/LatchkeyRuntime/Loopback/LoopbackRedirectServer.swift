import Foundation
import LatchkeyPlatform
import LatchkeyTokens

/// Receives an OAuth redirect on the loopback interface (RFC 8252 §7.3), for sign-in from desktop
/// apps and command-line tools.
///
/// It listens on `127.0.0.1` (or `[::1]`) only, on a port the system picks or on a fixed port (for
/// providers that match redirect URIs exactly), and accepts exactly one callback: a `GET` of ``redirectURI``'s
/// path (or, with `acceptsFormPost`, a `POST` of an `application/x-www-form-urlencoded` body of at most 64 KiB
/// to that path, for `response_mode=form_post`), with an origin-form target (no fragment, which no browser
/// sends), a `Host` naming the loopback address (a guard against DNS rebinding) and, when given, the expected
/// `state`. Other requests get 400, 404 or 405 and the server keeps waiting; so does a request with a
/// missing or wrong `state` (400 with the failure page): any local program can send one, so it can neither
/// end nor consume the sign-in. On Linux, a connection from another user's process (its socket's owner in
/// `/proc/net/tcp`) is closed before its request is read. Connections that send nothing are evicted, oldest
/// first, when new ones arrive, so idle connections cannot crowd out the browser's callback. After the
/// callback, a timeout or ``cancel()``, nothing listens on the port any more.
public final class LoopbackRedirectServer: Sendable {
    /// The largest request head accepted, in bytes.
    public static let maximumRequestBytes = 16 * 1024
    /// How long one connection may take to send its request.
    public static let connectionReadTimeout: LatchkeyDuration = .seconds(10)
    /// How many connections are served at once (browsers open speculative ones). When all are taken, the
    /// oldest connection that has not sent its request yet is closed to make room for the new one.
    public static let maximumConnections = 16

    /// The redirect URI to register and send: `http://127.0.0.1:PORT/callback`, or the loopback redirect
    /// URI the server was made for.
    public let redirectURI: URL
    /// The port it listens on: the one asked for, or the one the system assigned.
    public let port: Int

    private let state: LoopbackCallbackState
    private let listener: ListeningSocket
    private let connections: ConnectionRegistry

    /// How many connections the server has accepted and holds open now (tests wait for one to be accepted:
    /// a connection still in the listen backlog when the server stops is reset, not closed).
    package var openConnections: Int { connections.count }

    /// Whether the port is still open: `false` once the wait ended (callback, timeout, cancellation) or the server
    /// was stopped. Read from the listener's own state, which its `close()` sets in the same step that closes the
    /// socket: a probe of the port number instead could meet another server the system handed the freed port to.
    package var isListening: Bool { !listener.isClosed }

    /// Starts listening.
    /// - Parameters:
    ///   - path: The callback path; it must start with `/` and hold no query or fragment.
    ///   - expectedState: The `state` the callback must carry, or `nil` to accept any.
    ///   - timeout: How long to wait for the callback, counted from now (default 300 s).
    ///   - pages: What the browser is shown: ``LoopbackPages/success`` after the callback,
    ///     ``LoopbackPages/failure`` after an `error` response or a missing or wrong `state`.
    ///   - address: The loopback interface (default `127.0.0.1`).
    ///   - port: The port to listen on, or 0 (the default) for one the system picks. Use a fixed port only
    ///     when the provider matches the redirect URI exactly, port included.
    ///   - acceptsFormPost: Whether a form `POST` to the path is the callback (`response_mode=form_post`);
    ///     ``waitForCallback()`` then returns the path with the form body as its query.
    /// - Throws: ``AuthError`` `invalid_configuration` for a bad path, port, timeout or page
    ///   (``LoopbackPages/validate()``);
    ///   `web_auth_start_failed` when a fixed port is in use by another program (or needs privileges);
    ///   `network_error` when the socket cannot be opened otherwise.
    public convenience init(
        path: String = "/callback", expectedState: String?, timeout: LatchkeyDuration = .seconds(300),
        pages: LoopbackPages = .standard, address: LoopbackAddress = .ipv4, port: Int = 0,
        acceptsFormPost: Bool = false
    ) throws(AuthError) {
        try self.init(
            endpoint: LoopbackEndpoint(path: path, address: address, port: port), expectedState: expectedState,
            timeout: timeout, successPage: pages.success, failurePage: pages.failure,
            connectionReadTimeout: Self.connectionReadTimeout, acceptsFormPost: acceptsFormPost)
    }

    /// Starts listening where a loopback redirect URI points, and announces that URI.
    ///
    /// The URI must be `http` on `127.0.0.1`, `[::1]` or `localhost`; `localhost` binds `127.0.0.1`. With an
    /// explicit port, exactly that port is bound and ``redirectURI`` is the URI unchanged (host text, path and
    /// query included); without one, the system picks the port and ``redirectURI`` is the URI with that port.
    /// - Parameters:
    ///   - redirectURI: The loopback redirect URI registered with the provider, such as
    ///     `http://127.0.0.1:8765/callback`.
    ///   - expectedState: The `state` the callback must carry, or `nil` to accept any.
    ///   - timeout: How long to wait for the callback, counted from now (default 300 s).
    ///   - pages: What the browser is shown: ``LoopbackPages/success`` after the callback,
    ///     ``LoopbackPages/failure`` after an `error` response or a missing or wrong `state`.
    ///   - acceptsFormPost: Whether a form `POST` to the path is the callback (`response_mode=form_post`).
    /// - Throws: ``AuthError`` `invalid_configuration` for a URI that is not a loopback `http` URI, a bad
    ///   timeout or a bad page (``LoopbackPages/validate()``); `web_auth_start_failed` when its port is in use by another program (or needs privileges);
    ///   `network_error` when the socket cannot be opened otherwise.
    public convenience init(
        redirectURI: URL, expectedState: String?, timeout: LatchkeyDuration = .seconds(300),
        pages: LoopbackPages = .standard, acceptsFormPost: Bool = false
    ) throws(AuthError) {
        try self.init(
            endpoint: LoopbackEndpoint(redirectURI: redirectURI), expectedState: expectedState, timeout: timeout,
            successPage: pages.success, failurePage: pages.failure, connectionReadTimeout: Self.connectionReadTimeout,
            acceptsFormPost: acceptsFormPost)
    }

    /// An initializer with a shorter `connectionReadTimeout`, for tests.
    convenience init(
        path: String, expectedState: String?, timeout: LatchkeyDuration, successPage: LoopbackPage,
        failurePage: LoopbackPage, address: LoopbackAddress, connectionReadTimeout: LatchkeyDuration,
        acceptsFormPost: Bool = false
    ) throws(AuthError) {
        try self.init(
            endpoint: LoopbackEndpoint(path: path, address: address, port: 0), expectedState: expectedState,
            timeout: timeout, successPage: successPage, failurePage: failurePage,
            connectionReadTimeout: connectionReadTimeout, acceptsFormPost: acceptsFormPost)
    }

    /// The designated initializer: listens on `endpoint` and starts the timeout.
    ///
    /// With `offersCandidates` (only without an expected state), a callback does not end the wait: each one is
    /// returned by the next ``waitForCallback()`` and the server keeps listening until ``cancel()`` or the
    /// timeout, so that a callback another local program sent first cannot take the sign-in's place.
    init(
        endpoint: LoopbackEndpoint, expectedState: String?, timeout: LatchkeyDuration,
        successPage: LoopbackPage = .signedIn, failurePage: LoopbackPage = .failed,
        connectionReadTimeout: LatchkeyDuration = LoopbackRedirectServer.connectionReadTimeout,
        acceptsFormPost: Bool = false, offersCandidates: Bool = false
    ) throws(AuthError) {
        guard !offersCandidates || expectedState == nil else {
            throw AuthError(.invalidConfiguration, "loopback candidates are for callbacks without a state")
        }
        let path = endpoint.path
        guard path.hasPrefix("/"), !path.contains(where: { "?# \t\r\n".contains($0) }) else {
            throw AuthError(.invalidConfiguration, "loopback callback path must start with / and hold no query")
        }
        guard (0...65535).contains(endpoint.port) else {
            throw AuthError(.invalidConfiguration, "loopback port \(endpoint.port) is outside 0...65535")
        }
        guard timeout > .zero else { throw AuthError(.invalidConfiguration, "loopback timeout must be positive") }
        try LoopbackPages.validate(successPage, name: "success")
        try LoopbackPages.validate(failurePage, name: "failure")
        let listener = try Self.listen(endpoint)
        let callbackBase = endpoint.callbackBase(boundPort: listener.port)
        guard let redirectURI = endpoint.redirectURI(boundPort: listener.port), URL(string: callbackBase) != nil
        else {
            listener.close()
            throw AuthError(.invalidConfiguration, "loopback callback path is not a valid URL path")
        }
        let connections = ConnectionRegistry()
        let state = LoopbackCallbackState(listener: listener, connections: connections)
        self.redirectURI = redirectURI
        self.port = listener.port
        self.listener = listener
        self.state = state
        self.connections = connections

        let connection = LoopbackConnection(
            rules: LoopbackRequestRules(
                path: path, expectedState: expectedState, address: endpoint.address, port: listener.port,
                callbackBase: callbackBase, acceptsFormPost: acceptsFormPost),
            successPage: successPage, failurePage: failurePage,
            readTimeout: connectionReadTimeout, state: state, connections: connections,
            offersCandidates: offersCandidates)
        state.startTimer(timeout, message: "no callback within \(Self.seconds(timeout)) seconds")
        connections.spawn(name: "latchkey.loopback.accept") {
            while let descriptor = listener.accept() {
                guard
                    let id = connections.adopt(
                        descriptor, limit: Self.maximumConnections, evictingIdle: true)
                else { continue }
                connections.spawn(name: "latchkey.loopback.connection") { connection.serve(id, descriptor) }
            }
        }
    }

    /// Opens the listener; a fixed port that is taken fails before any browser opens.
    private static func listen(_ endpoint: LoopbackEndpoint) throws(AuthError) -> ListeningSocket {
        do {
            return try ListeningSocket(address: endpoint.address, port: endpoint.port)
        } catch {
            let place = "\(endpoint.address.urlHost):\(endpoint.port)"
            guard endpoint.port != 0, error.isAddressInUse || error.isPermissionDenied else {
                throw AuthError(.networkError, "cannot listen on \(endpoint.address.urlHost): \(error.description)")
            }
            let reason =
                error.isAddressInUse
                ? "the port is in use by another program (or another sign-in); stop it, or register another port"
                : "the port needs privileges; register a port above 1023"
            throw AuthError(.webAuthStartFailed, "cannot listen on \(place) for the loopback redirect: \(reason)")
        }
    }

    deinit {
        cancel()
    }

    /// Waits for the callback.
    ///
    /// Cancelling the calling task cancels the sign-in.
    /// - Returns: The full callback URL, for example `http://127.0.0.1:PORT/callback?code=...&state=...`.
    /// - Throws: ``AuthError`` `timeout` when no callback with the expected state came in time,
    ///   `login_cancelled` after ``cancel()``.
    public func waitForCallback() async throws(AuthError) -> URL {
        let result = await withTaskCancellationHandler {
            await state.wait()
        } onCancel: {
            cancel()
        }
        return try result.get()
    }

    /// Stops waiting: ``waitForCallback()`` throws `login_cancelled` and the port closes. Idempotent.
    public func cancel() {
        state.finish(.failure(AuthError(.loginCancelled, "the loopback sign-in was cancelled")))
    }

    private static func seconds(_ duration: LatchkeyDuration) -> String {
        let nanoseconds = duration.nanoseconds
        if nanoseconds % 1_000_000_000 == 0 { return String(nanoseconds / 1_000_000_000) }
        return String((duration.timeInterval * 1000).rounded() / 1000)
    }
}
