import LatchkeyTokens

#if os(Linux)
    import CLatchkeyCurl
    import Foundation

    /// The ``HTTPTransport`` Latchkey uses by default on Linux: libcurl, driven directly, so that a hostile response
    /// cannot grow the process past the size cap.
    ///
    /// It behaves like ``URLSessionHTTPTransport`` (no cookies, no cache, no credentials, redirects never
    /// followed, `Accept-Encoding: identity`, the same deadline, cap and error codes), but it reads the response
    /// itself: a `Content-Encoding` other than `identity` or a `Content-Length` over the cap is refused when the
    /// head arrives, before any body byte is read, and the transfer stops the moment the body passes the cap.
    /// Nothing is ever decompressed. (Through swift-corelibs-foundation, libcurl inflates a compressed body and
    /// queues all of it before a refusal can act: a 1,788-byte `gzip, gzip` body grew the process by a GiB.)
    ///
    /// libcurl is opened at run time (`libcurl.so.4`, the library FoundationNetworking links): building needs no
    /// libcurl headers. Only `http` and `https` URLs are accepted, and TLS peers and host names are verified
    /// against the system's certificate authorities. Each transfer runs on a thread of the transport's own, never
    /// on Swift's cooperative pool, and a few idle threads keep their connections for the next requests.
    public final class CurlHTTPTransport: HTTPTransport {
        /// The largest response body accepted, in bytes.
        public let maximumResponseBytes: Int

        private let pool: CurlWorkerPool

        /// Creates a transport, or returns `nil` when libcurl cannot be opened.
        /// - Parameter maximumResponseBytes: The largest response body accepted (default 1 MiB).
        public convenience init?(
            maximumResponseBytes: Int = URLSessionHTTPTransport.defaultMaximumResponseBytes
        ) {
            self.init(library: CurlLibrary.defaultName, maximumResponseBytes: maximumResponseBytes)
        }

        /// Creates a transport over the libcurl opened under `library` (tests name a missing one).
        init?(library: String, maximumResponseBytes: Int) {
            precondition(maximumResponseBytes >= 0, "maximumResponseBytes must not be negative")
            guard let curl = CurlLibrary.load(library) else { return nil }
            self.maximumResponseBytes = maximumResponseBytes
            self.pool = CurlWorkerPool(library: curl)
        }

        deinit {
            pool.close()
        }

        /// Sends a request and returns the whole response, whatever its status (3xx included).
        /// - Parameter request: The request.
        /// - Returns: The response.
        /// - Throws: ``AuthError`` `timeout` when the response did not arrive within `request.timeout` (a
        ///   negative one counts as 0; infinity, NaN and anything over a year as a year), `response_too_large`
        ///   when the body exceeds ``maximumResponseBytes`` (announced in `Content-Length`, refused at the head, or
        ///   counted as it arrives: the transfer stops as soon as the count passes the cap), `invalid_response`
        ///   when the response names a `Content-Encoding` other than `identity` (before its body is read),
        ///   `network_error` otherwise (including when the calling task is cancelled); `invalid_request`, with
        ///   nothing sent, for a header name that is not a token or a header with CR, LF or NUL.
        public func send(_ request: TransportRequest) async throws(AuthError) -> TransportResponse {
            try HeaderFieldRules.check(request)
            let timeout = URLSessionHTTPTransport.effectiveTimeout(request.timeout)
            let transfer = CurlTransfer(request: request, limit: maximumResponseBytes, timeout: timeout)
            guard timeout > 0 else {
                throw AuthError(.timeout, "\(transfer.label) got no complete response within 0 s")
            }
            let pool = self.pool
            let start = { (continuation: CheckedContinuation<Result<TransportResponse, AuthError>, Never>) in
                transfer.await(continuation)
                pool.run { handle in
                    transfer.complete(CurlRequestRunner.perform(transfer, handle: handle, library: pool.library))
                }
            }
            // A shared refresh in its first caller's task (`TransportCancellationShield`): only the deadline ends it.
            if TransportCancellationShield.isActive { return try await withCheckedContinuation(start).get() }
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    start(continuation)
                    if Task.isCancelled { transfer.cancel() }
                }
            } onCancel: {
                transfer.cancel()
            }
            return try result.get()
        }
    }

    @_spi(Generated) extension CurlHTTPTransport: CancellationShieldHonouringTransport {}
#endif
