import Foundation
@_spi(Generated) import LatchkeyRuntime
import Synchronization

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
    private let recorded = Mutex<[RecordedRequest]>([])

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
                connections.spawn(name: "latchkey.test-server.connection") { [self] in
                    TestServerConnection(core: self, id: id, descriptor: descriptor).serve()
                }
            }
        }
    }

    var requests: [RecordedRequest] { recorded.withLock { $0 } }

    func record(_ request: RecordedRequest) {
        recorded.withLock { $0.append(request) }
    }

    func resetRecording() {
        recorded.withLock { $0.removeAll() }
    }

    func stop() {
        listener.close()
        connections.close()
        // No waiting for the connection threads: stop() is often called from async code, and a thread
        // blocked here could be the one a connection's handler needs, which would stall every server in
        // the process. Closed sockets end the threads on their own.
    }
}
