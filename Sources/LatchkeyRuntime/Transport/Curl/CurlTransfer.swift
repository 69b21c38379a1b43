import LatchkeyTokens

#if os(Linux)
    import CLatchkeyCurl
    import Foundation
    import LatchkeyPlatform

    /// One request through libcurl: its head and body as they arrive, the size cap, the content-coding refusal and
    /// cancellation, and the one completion of the caller's continuation.
    ///
    /// The callbacks (`header`, `write`, `shouldAbort`) run on the worker thread that performs the transfer,
    /// one at a time; `cancel()` and `complete(_:)` may run on any thread.
    final class CurlTransfer: @unchecked Sendable {
        // @unchecked: `head`, `body` and `refusal` are read and written only by the worker thread running
        // `curl_easy_perform` for this transfer (libcurl calls the callbacks on the thread that called perform,
        // one at a time), and read by `result(code:)` on that same thread after perform returns. Everything
        // another thread touches is behind `Locked` (`state`) or immutable.
        enum Refusal {
            case tooLarge
            case encoded
        }

        let request: TransportRequest
        let label: String
        let limit: Int
        let timeout: Double
        private(set) var head = CurlResponseHead()
        private(set) var body = Data()
        private(set) var refusal: Refusal?

        private struct State {
            var cancelled = false
            var continuation: CheckedContinuation<Result<TransportResponse, AuthError>, Never>?
            var completed = false
        }

        private let state = Locked(State())

        init(request: TransportRequest, limit: Int, timeout: Double) {
            self.request = request
            self.label = TransportErrorMapping.label(for: request)
            self.limit = limit
            self.timeout = timeout
        }

        // MARK: From the caller

        /// Hands over the continuation the result resumes.
        func await(_ continuation: CheckedContinuation<Result<TransportResponse, AuthError>, Never>) {
            state.withLock { $0.continuation = continuation }
        }

        /// Cancels the request: the caller is answered at once (`network_error`), and the transfer stops at
        /// libcurl's next progress call.
        func cancel() {
            let continuation = state.withLock { state in
                state.cancelled = true
                guard !state.completed, let continuation = state.continuation else { return nil as Continuation? }
                state.completed = true
                return continuation
            }
            continuation?.resume(returning: .failure(cancellation))
        }

        private typealias Continuation = CheckedContinuation<Result<TransportResponse, AuthError>, Never>

        private var cancellation: AuthError { AuthError(.networkError, "\(label) was cancelled") }

        /// Answers the caller, unless cancellation already did.
        func complete(_ result: Result<TransportResponse, AuthError>) {
            let continuation = state.withLock { state in
                guard !state.completed, let continuation = state.continuation else { return nil as Continuation? }
                state.completed = true
                return continuation
            }
            continuation?.resume(returning: result)
        }

        var isCancelled: Bool { state.withLock { $0.cancelled } }

        // MARK: From libcurl, on the worker thread

        /// Takes one line of the head; returns `false` to abort the transfer (a refused coding, an announced
        /// length over the cap, an oversized head) before any body byte is read.
        func header(_ line: UnsafeRawBufferPointer) -> Bool {
            switch head.take(line) {
            case .partial:
                return true
            case .tooLarge:
                refusal = .tooLarge
                return false
            case .complete:
                if let coding = head.contentEncoding, !ContentCodingRule.accepts(coding) {
                    refusal = .encoded
                    return false
                }
                if let length = head.contentLength {
                    guard length <= limit else {
                        refusal = .tooLarge
                        return false
                    }
                    body.reserveCapacity(length)
                }
                return true
            }
        }

        /// Takes body bytes; returns `false` to abort the transfer the moment they pass the cap.
        func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard refusal == nil else { return false }
            guard body.count + bytes.count <= limit else {
                refusal = .tooLarge
                body = Data()
                return false
            }
            body.append(contentsOf: bytes)
            return true
        }

        /// Whether libcurl should abort (the request was cancelled).
        func shouldAbort() -> Bool { isCancelled }

        // MARK: The outcome

        /// The result of a transfer that ended with `code` (`CURLcode`).
        func result(code: Int32) -> Result<TransportResponse, AuthError> {
            if isCancelled { return .failure(cancellation) }
            switch refusal {
            case .tooLarge?:
                return .failure(AuthError(.responseTooLarge, "\(label) returned more than \(limit) bytes"))
            case .encoded?:
                return .failure(
                    ContentCodingRule.refusal(coding: head.contentEncoding, status: head.status, label: label)
                )
            case nil:
                break
            }
            if code == CurlCode.operationTimedOut {
                return .failure(
                    AuthError(
                        .timeout,
                        "\(label) got no complete response within \(TransportTaskRegistry.format(timeout)) s"))
            }
            let fields = HTTPHeaderFields(head.fields)
            if code == CurlCode.partialFile, let status = head.status, head.isComplete,
                let problem = TransportErrorMapping.truncation(
                    method: request.method, status: status, headers: fields, received: body.count)
            {
                return .failure(AuthError(.networkError, "\(label): \(problem)", status: status))
            }
            guard code == CurlCode.ok else {
                return .failure(
                    AuthError(.networkError, "\(label) failed: \(Self.describe(code)) (libcurl error \(code))"))
            }
            guard let status = head.status, head.isComplete else {
                return .failure(AuthError(.networkError, "\(label) returned no HTTP response"))
            }
            if let problem = TransportErrorMapping.truncation(
                method: request.method, status: status, headers: fields, received: body.count)
            {
                return .failure(AuthError(.networkError, "\(label): \(problem)", status: status))
            }
            return .success(TransportResponse(status: status, headerFields: fields, body: body))
        }

        private static func describe(_ code: Int32) -> String {
            switch code {
            case CurlCode.couldNotConnect: "cannot connect to host"
            case CurlCode.couldNotResolveHost, CurlCode.couldNotResolveProxy: "cannot resolve host"
            case CurlCode.sendError, CurlCode.receiveError, CurlCode.partialFile: "connection lost"
            case CurlCode.gotNothing, CurlCode.weirdServerReply: "bad or empty server response"
            case CurlCode.unsupportedProtocol, CurlCode.urlMalformed: "unsupported URL"
            case CurlCode.abortedByCallback: "cancelled"
            case _ where CurlCode.tlsFailures.contains(code): "TLS failure"
            default: "network failure"
            }
        }
    }
#endif
