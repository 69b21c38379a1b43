import Foundation

/// Receives an OAuth redirect on the loopback interface (RFC 8252 §7.3), for sign-in from desktop
/// apps and command-line tools.
///
/// It listens on `127.0.0.1` (or `[::1]`) only, on a port the system picks, and accepts exactly one
/// callback: a `GET` of ``redirectURI``'s path (or, with `acceptsFormPost`, a `POST` of an
/// `application/x-www-form-urlencoded` body of at most 64 KiB to that path, for `response_mode=form_post`),
/// with a `Host` naming the loopback address (a guard against DNS rebinding) and, when given, the expected
/// `state`. Other requests get 400, 404 or 405
/// and the server keeps waiting; a wrong `state` ends the wait with `state_mismatch`. After the
/// callback, a timeout or ``cancel()``, nothing listens on the port any more.
public final class LoopbackRedirectServer: Sendable {
    /// The largest request head accepted, in bytes.
    public static let maximumRequestBytes = 16 * 1024
    /// How long one connection may take to send its request.
    public static let connectionReadTimeout: Duration = .seconds(10)
    /// How many connections are served at once (browsers open speculative ones).
    public static let maximumConnections = 8

    /// The redirect URI to register and send: `http://127.0.0.1:PORT/callback`.
    public let redirectURI: URL
    /// The port the system assigned.
    public let port: Int

    private let state: LoopbackCallbackState
    private let listener: ListeningSocket

    /// Starts listening.
    /// - Parameters:
    ///   - path: The callback path; it must start with `/` and hold no query or fragment.
    ///   - expectedState: The `state` the callback must carry, or `nil` to accept any.
    ///   - timeout: How long to wait for the callback, counted from now (default 300 s).
    ///   - successPage: The HTML shown after the callback.
    ///   - failurePage: The HTML shown after a failed callback (wrong state, or an `error` response).
    ///   - address: The loopback interface (default `127.0.0.1`).
    ///   - acceptsFormPost: Whether a form `POST` to the path is the callback (`response_mode=form_post`);
    ///     ``waitForCallback()`` then returns the path with the form body as its query.
    /// - Throws: ``AuthError`` `invalid_configuration` for a bad path or timeout, `network_error` when
    ///   the socket cannot be opened.
    public convenience init(
        path: String = "/callback", expectedState: String?, timeout: Duration = .seconds(300),
        successPage: String = LoopbackPages.success, failurePage: String = LoopbackPages.failure,
        address: LoopbackAddress = .ipv4, acceptsFormPost: Bool = false
    ) throws(AuthError) {
        try self.init(
            path: path, expectedState: expectedState, timeout: timeout, successPage: successPage,
            failurePage: failurePage, address: address, connectionReadTimeout: Self.connectionReadTimeout,
            acceptsFormPost: acceptsFormPost)
    }

    /// The designated initializer; `connectionReadTimeout` is shortened by tests only.
    init(
        path: String, expectedState: String?, timeout: Duration, successPage: String, failurePage: String,
        address: LoopbackAddress, connectionReadTimeout: Duration, acceptsFormPost: Bool = false
    ) throws(AuthError) {
        guard path.hasPrefix("/"), !path.contains(where: { "?# \t\r\n".contains($0) }) else {
            throw AuthError(.invalidConfiguration, "loopback callback path must start with / and hold no query")
        }
        guard timeout > .zero else { throw AuthError(.invalidConfiguration, "loopback timeout must be positive") }
        let listener: ListeningSocket
        do {
            listener = try ListeningSocket(address: address)
        } catch {
            throw AuthError(.networkError, "cannot listen on \(address.urlHost): \(error.description)")
        }
        guard let redirectURI = URL(string: "http://\(address.urlHost):\(listener.port)\(path)") else {
            listener.close()
            throw AuthError(.invalidConfiguration, "loopback callback path is not a valid URL path")
        }
        let connections = ConnectionRegistry()
        let state = LoopbackCallbackState(listener: listener, connections: connections)
        self.redirectURI = redirectURI
        self.port = listener.port
        self.listener = listener
        self.state = state

        let connection = LoopbackConnection(
            rules: LoopbackRequestRules(
                path: path, expectedState: expectedState, address: address, port: listener.port,
                acceptsFormPost: acceptsFormPost),
            successPage: Array(successPage.utf8), failurePage: Array(failurePage.utf8),
            readTimeout: connectionReadTimeout, state: state, connections: connections)
        state.startTimer(timeout, message: "no callback within \(Self.seconds(timeout)) seconds")
        connections.spawn(name: "latchkey.loopback.accept") {
            while let descriptor = listener.accept() {
                guard let id = connections.adopt(descriptor, limit: Self.maximumConnections) else { continue }
                connections.spawn(name: "latchkey.loopback.connection") { connection.serve(id, descriptor) }
            }
        }
    }

    deinit {
        cancel()
    }

    /// Waits for the callback.
    ///
    /// Cancelling the calling task cancels the sign-in.
    /// - Returns: The full callback URL, for example `http://127.0.0.1:PORT/callback?code=...&state=...`.
    /// - Throws: ``AuthError`` `state_mismatch` for a wrong `state`, `timeout` when no callback came in
    ///   time, `login_cancelled` after ``cancel()``.
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

    private static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return String(seconds) }
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return String((value * 1000).rounded() / 1000)
    }
}
