import Foundation
import LatchkeyPlatform

/// Serves one connection of a ``LoopbackRedirectServer``.
struct LoopbackConnection: Sendable {
    let rules: LoopbackRequestRules
    /// The page after the callback.
    let successPage: LoopbackPage
    /// The page after a callback with the provider's `error`, or one that fails the state check.
    let failurePage: LoopbackPage
    let readTimeout: LatchkeyDuration
    let state: LoopbackCallbackState
    let connections: ConnectionRegistry
    /// Whether a callback is only a candidate that leaves the server listening (no expected `state`).
    var offersCandidates = false

    /// Reads one request, answers it and closes the connection.
    func serve(_ id: Int, _ descriptor: Int32) {
        defer { connections.release(id) }
        // Another user's process is closed on before a byte of its request is read.
        guard PeerOwner.isCurrentUser(descriptor) else { return }
        let deadline = MonotonicInstant.now + readTimeout
        switch HTTPHeadReader.read(descriptor, limit: LoopbackRedirectServer.maximumRequestBytes, deadline: deadline) {
        case .head(let head, let rest):
            // An evicted connection (shut down to make room) lost its turn: its request is not served.
            guard connections.requestArrived(id) else { return }
            handle(head, rest: rest, deadline: deadline, id: id, descriptor: descriptor)
        case .tooLarge:
            respond(descriptor, status: 431, text: "request too large")
        case .malformed:
            respond(descriptor, status: 400, text: "malformed request")
        case .timedOut:
            respond(descriptor, status: 408, text: "request timeout")
        case .closed:
            break
        }
    }

    private func handle(
        _ head: HTTPRequestHead, rest: [UInt8], deadline: MonotonicInstant, id: Int, descriptor: Int32
    ) {
        var decision = rules.decide(head)
        if case .readForm(let length) = decision {
            switch Self.readBody(descriptor, length: length, start: rest, deadline: deadline) {
            case .some(let body): decision = rules.decideFormPost(head, body: body)
            case .none: return respond(descriptor, status: 408, text: "incomplete form body")
            }
        }
        switch decision {
        case .readForm:
            respond(descriptor, status: 400, text: "malformed request")
        case .reject(let status, let reason):
            respond(descriptor, status: status, text: reason)
        case .stateMismatch:
            // Anything on this machine can send a request here: without the sign-in's state it proves nothing,
            // so it neither ends nor consumes the wait (the real callback may still come).
            respond(descriptor, status: 400, page: failurePage, providerError: nil)
        case .callback(let url, let isErrorResponse) where offersCandidates:
            // Nothing proves where this request came from: the sign-in tries it, and keeps listening when the
            // provider refuses it.
            guard state.offer(url) else { return respond(descriptor, status: 503, text: "too many callbacks") }
            respond(descriptor, callback: url, isErrorResponse: isErrorResponse)
        case .callback(let url, let isErrorResponse):
            guard state.claim(.success(url), connection: id) else {
                return respond(descriptor, status: 409, text: "sign-in already finished")
            }
            respond(descriptor, callback: url, isErrorResponse: isErrorResponse)
            state.publish()
        }
    }

    /// Reads exactly `length` body bytes (those after the head first), or `nil` when the peer stops first.
    private static func readBody(
        _ descriptor: Int32, length: Int, start: [UInt8], deadline: MonotonicInstant
    ) -> [UInt8]? {
        var body = start
        guard body.count <= length else { return nil }
        while body.count < length {
            guard case .bytes(let bytes) = SocketIO.read(descriptor, maximum: length - body.count, deadline: deadline)
            else { return nil }
            body += bytes
        }
        return body
    }

    private func respond(_ descriptor: Int32, status: Int, text: String) {
        write(descriptor, status: status, contentType: "text/plain; charset=utf-8", body: Array((text + "\n").utf8))
    }

    /// Answers a callback: the failure page, with the provider's error, when it carries `error`.
    private func respond(_ descriptor: Int32, callback url: URL, isErrorResponse: Bool) {
        guard isErrorResponse else { return respond(descriptor, status: 200, page: successPage, providerError: nil) }
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery
        let providerError = LoopbackPageResponse.ProviderError(LoopbackRequestRules.queryItems(query))
        respond(descriptor, status: 200, page: failurePage, providerError: providerError)
    }

    private func respond(
        _ descriptor: Int32, status: Int, page: LoopbackPage, providerError: LoopbackPageResponse.ProviderError?
    ) {
        let response = LoopbackPageResponse(page, status: status, providerError: providerError)
        send(descriptor, status: response.status, headers: response.headers, body: response.body)
    }

    private func write(_ descriptor: Int32, status: Int, contentType: String, body: [UInt8]) {
        send(
            descriptor, status: status,
            headers: [
                ("Content-Type", contentType), ("Cache-Control", "no-store"), ("Referrer-Policy", "no-referrer"),
                ("X-Content-Type-Options", "nosniff"),
            ], body: body)
    }

    private func send(_ descriptor: Int32, status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        var headers = headers
        headers.append(("Content-Length", String(body.count)))
        headers.append(("Connection", "close"))
        if status == 405 { headers.append(("Allow", rules.allowedMethods)) }
        SocketIO.writeAll(descriptor, HTTPResponseEncoding.encode(status: status, headers: headers, body: body))
    }
}
