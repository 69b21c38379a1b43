import Foundation
@_spi(Generated) import LatchkeyRuntime

/// A real HTTP/1.1 server on `127.0.0.1` and an ephemeral port, for tests, the simulator and the demo.
///
/// Every request is recorded, then answered by the handler; each connection gets its own thread and
/// is closed after one response (`Connection: close`). ``stop()`` (or deinit) closes the port and every
/// connection and waits for the threads to end.
public final class TestHTTPServer: Sendable {
    /// The default cap on a request (head and body), in bytes: 1 MiB. Larger requests get 413.
    public static let defaultMaximumRequestBytes = 1 << 20

    /// The port the system assigned.
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public let baseURL: URL

    private let core: TestServerCore

    /// Starts a server.
    /// - Parameters:
    ///   - maximumRequestBytes: The largest request body accepted (default 1 MiB).
    ///   - handler: Answers each request; it runs on the Swift concurrency pool.
    /// - Throws: ``TestServerError`` when the socket cannot be opened.
    public init(
        maximumRequestBytes: Int = TestHTTPServer.defaultMaximumRequestBytes,
        handler: @escaping @Sendable (RecordedRequest) async -> TestResponse
    ) throws(TestServerError) {
        let listener: ListeningSocket
        do {
            listener = try ListeningSocket(address: .ipv4)
        } catch {
            throw TestServerError(description: error.description)
        }
        self.port = listener.port
        self.baseURL = URL(string: "http://127.0.0.1:\(listener.port)")!
        self.core = TestServerCore(listener: listener, maximumRequestBytes: maximumRequestBytes, handler: handler)
        core.start()
    }

    deinit {
        core.stop()
    }

    /// A URL on this server.
    /// - Parameter pathAndQuery: For example `/token` or `/authorize?x=1`.
    public func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")!
    }

    /// The requests received so far, in arrival order.
    public var requests: [RecordedRequest] { core.requests }

    /// The connections open right now: accepted and not yet answered, failed or abandoned by the client.
    /// A test that abandons a request (a client timeout, a cancelled task) sees it drop back to zero.
    public var openConnections: Int { core.connections.count }

    /// Waits, without polling, until the server has received at least `count` requests (or the waiting task is
    /// cancelled: give the test a `.timeLimit`), and returns the requests then.
    /// - Parameter count: How many requests to wait for (since the last ``resetRecording()``).
    /// - Returns: The requests received so far.
    @discardableResult
    public func requests(atLeast count: Int) async -> [RecordedRequest] {
        await requests { $0.count >= count }
    }

    /// Waits, without polling, until the requests received satisfy `condition` (or the waiting task is
    /// cancelled), and returns them then.
    /// - Parameter condition: Checked against the requests so far, after each one arrives.
    /// - Returns: The requests received so far.
    @discardableResult
    public func requests(until condition: @escaping @Sendable ([RecordedRequest]) -> Bool) async -> [RecordedRequest] {
        await core.recorded.wait(until: condition)
    }

    /// Waits, without polling, until no connection is open (or the waiting task is cancelled).
    /// - Returns: Whether none is open now.
    @discardableResult
    public func allConnectionsClosed() async -> Bool {
        await core.openConnections.wait { $0 == 0 } == 0
    }

    /// Forgets the recorded requests.
    public func resetRecording() {
        core.resetRecording()
    }

    /// Closes the port and every connection; the connection threads end on their own, soon after.
    /// Idempotent.
    public func stop() {
        core.stop()
    }
}

/// A failure to start a ``TestHTTPServer``.
public struct TestServerError: Error, Sendable, CustomStringConvertible {
    /// What failed.
    public let description: String
}

/// The state a ``TestHTTPServer`` shares with its threads (they must not keep the server alive).
final class TestServerCore: Sendable {
    let listener: ListeningSocket
    let connections = ConnectionRegistry()
    let maximumRequestBytes: Int
    let handler: @Sendable (RecordedRequest) async -> TestResponse
    /// The requests received, in arrival order.
    let recorded = Watched<[RecordedRequest]>([])
    /// How many connections are open (``ConnectionRegistry/count``), for waiting on.
    let openConnections = Watched(0)

    init(
        listener: ListeningSocket, maximumRequestBytes: Int,
        handler: @escaping @Sendable (RecordedRequest) async -> TestResponse
    ) {
        self.listener = listener
        self.maximumRequestBytes = maximumRequestBytes
        self.handler = handler
    }

    func start() {
        connections.spawn(name: "latchkey.test-server.accept") { [self] in
            while let descriptor = listener.accept() {
                guard let id = connections.adopt(descriptor) else { continue }
                connectionsChanged()
                connections.spawn(name: "latchkey.test-server.connection") { [self] in
                    TestServerConnection(core: self, id: id, descriptor: descriptor).serve()
                }
            }
        }
    }

    var requests: [RecordedRequest] { recorded.value }

    func record(_ request: RecordedRequest) {
        recorded.update { $0.append(request) }
    }

    func resetRecording() {
        recorded.update { $0.removeAll() }
    }

    /// Republishes the number of open connections after one was adopted or released.
    func connectionsChanged() {
        openConnections.update { $0 = connections.count }
    }

    func stop() {
        listener.close()
        connections.close()
        // No waiting for the connection threads: stop() is often called from async code, and a thread
        // blocked here could be the one a connection's handler needs, which would stall every server in
        // the process. Closed sockets end the threads on their own.
    }
}
