import Dispatch
import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyRuntime

/// Serves one connection of a ``TestHTTPServer``: reads a request, records it, runs the handler and
/// sends its response (or fault), then closes.
struct TestServerConnection {
    static let headLimit = 64 * 1024
    static let readTimeout: LatchkeyDuration = .seconds(10)

    let core: TestServerCore
    let id: Int
    let descriptor: Int32

    func serve() {
        var graceful = true
        defer {
            core.connections.release(id, gracefully: graceful)
            core.connectionsChanged()
        }
        let deadline = MonotonicInstant.now + Self.readTimeout
        guard case .head(let head, let rest) = readHead(deadline: deadline) else { return }
        var reader = BufferedSocketReader(descriptor: descriptor, buffer: rest, deadline: deadline)
        let body: [UInt8]
        switch readBody(head, reader: &reader) {
        case .success(let bytes): body = bytes
        case .failure(let failure):
            if let status = failure.status { send(.text(failure.reason, status: status), method: head.method) }
            return
        }
        let request = RecordedRequest(method: head.method, target: head.target, headers: head.headers, body: Data(body))
        core.record(request)
        guard let response = runHandler(request) else { return }
        graceful = perform(response, method: head.method)
    }

    private func readHead(deadline: MonotonicInstant) -> HTTPHeadReader.Outcome {
        let outcome = HTTPHeadReader.read(descriptor, limit: Self.headLimit, deadline: deadline)
        switch outcome {
        case .tooLarge: send(.text("request head too large", status: 431), method: "GET")
        case .malformed: send(.text("malformed request", status: 400), method: "GET")
        case .head, .closed, .timedOut: break
        }
        return outcome
    }

    private struct BodyFailure: Error {
        var status: Int?
        var reason: String
    }

    private func readBody(_ head: HTTPRequestHead, reader: inout BufferedSocketReader) -> Result<[UInt8], BodyFailure> {
        let lengths = head.values(of: "Content-Length")
        let encodings = head.values(of: "Transfer-Encoding")
        if !lengths.isEmpty, !encodings.isEmpty {
            return .failure(BodyFailure(status: 400, reason: "both Content-Length and Transfer-Encoding"))
        }
        let expectsContinue = head.value(of: "Expect")?.lowercased() == "100-continue"
        if !encodings.isEmpty {
            guard
                encodings.joined(separator: ",").lowercased().split(separator: ",").last?
                    .trimmingCharacters(in: .whitespaces) == "chunked"
            else { return .failure(BodyFailure(status: 501, reason: "unsupported transfer coding")) }
            if expectsContinue { continueRequest() }
            return reader.readChunked(limit: core.maximumRequestBytes).mapError {
                BodyFailure(status: $0.status, reason: $0.reason)
            }
        }
        guard let lengthText = lengths.first else { return .success([]) }
        guard Set(lengths).count == 1, let length = Int(lengthText), length >= 0 else {
            return .failure(BodyFailure(status: 400, reason: "invalid Content-Length"))
        }
        guard length <= core.maximumRequestBytes else {
            return .failure(BodyFailure(status: 413, reason: "request body too large"))
        }
        if expectsContinue, length > 0 { continueRequest() }
        guard let body = reader.read(exactly: length) else { return .failure(BodyFailure(status: nil, reason: "")) }
        return .success(body)
    }

    private func continueRequest() {
        SocketIO.writeAll(descriptor, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
    }

    /// Runs the async handler on this thread (see ``ConnectionTaskExecutor``), never waiting for the
    /// cooperative pool; gives up when the server stops.
    private func runHandler(_ request: RecordedRequest) -> TestResponse? {
        let result = HandlerResult()
        let handler = core.handler
        let connections = core.connections
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
            // Before task executors: the handler runs on the cooperative pool and this thread waits for it.
            let answered = DispatchSemaphore(value: 0)
            Task {
                result.set(await handler(request))
                answered.signal()
            }
            while answered.wait(timeout: .now() + .milliseconds(50)) == .timedOut, !connections.isClosed {}
            return result.response
        }
        let executor = ConnectionTaskExecutor()
        Task(executorPreference: executor) {
            let response = await handler(request)
            result.set(response)
        }
        executor.serve { result.response != nil || connections.isClosed }
        return result.response
    }

    /// Sends a response or a fault. Returns whether to close gracefully.
    private func perform(_ response: TestResponse, method: String) -> Bool {
        switch response.behavior {
        case .respond:
            send(response, method: method)
            return true
        case .dropConnection:
            return false
        case .resetMidBody:
            let body = Array(response.body)
            let sent = max(0, min(body.count / 2, body.count - 1))
            SocketIO.writeAll(descriptor, head(for: response, bodyLength: body.count) + body[..<sent])
            return false
        case .stream(let body):
            let headers = response.headers.filter { $0.name.lowercased() != "connection" } + [("Connection", "close")]
            guard SocketIO.writeAll(descriptor, HTTPResponseEncoding.encode(status: response.status, headers: headers))
            else { return false }
            return body.write(to: descriptor)
        case .delay(let duration, let next):
            guard SocketIO.wait(descriptor, until: MonotonicInstant.now + duration) else { return false }
            return perform(next, method: method)
        }
    }

    private func send(_ response: TestResponse, method: String) {
        var body = method == "HEAD" ? [] : Array(response.body)
        if response.header("Transfer-Encoding")?.lowercased() == "chunked", !body.isEmpty {
            body = Self.chunked(body)
        }
        SocketIO.writeAll(descriptor, head(for: response, bodyLength: response.body.count) + body)
    }

    /// Encodes a body in 4 KiB chunks, with the final empty chunk.
    private static func chunked(_ body: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var offset = 0
        while offset < body.count {
            let end = min(offset + 4096, body.count)
            output += Array("\(String(end - offset, radix: 16))\r\n".utf8) + body[offset..<end] + [13, 10]
            offset = end
        }
        return output + Array("0\r\n\r\n".utf8)
    }

    private func head(for response: TestResponse, bodyLength: Int) -> [UInt8] {
        var headers = response.headers.filter { $0.name.lowercased() != "connection" }
        let bodiless = response.status == 204 || response.status == 304 || (100..<200).contains(response.status)
        let chunked = response.header("Transfer-Encoding")?.lowercased() == "chunked"
        if !bodiless, !chunked, response.header("Content-Length") == nil {
            headers.append(("Content-Length", String(bodyLength)))
        }
        headers.append(("Connection", "close"))
        return HTTPResponseEncoding.encode(status: response.status, headers: headers)
    }
}

/// The handler's response, handed from its task to the connection thread.
private final class HandlerResult: Sendable {
    private let value = Locked<TestResponse?>(nil)

    var response: TestResponse? { value.withLock { $0 } }

    func set(_ response: TestResponse) {
        value.withLock { $0 = response }
    }
}
