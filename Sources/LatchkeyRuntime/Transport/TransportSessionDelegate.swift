import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session delegate of ``URLSessionHTTPTransport``: refuses redirects, enforces the size cap while
/// the body streams in, and completes each request through ``TransportTaskRegistry``.
final class TransportSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let tasks: TransportTaskRegistry

    init(tasks: TransportTaskRegistry) {
        self.tasks = tasks
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Never follow: the 3xx itself becomes the response.
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        // No credential is ever supplied from here (no credential storage; client authentication travels in the
        // request): a 401 and its challenges are the response.
        #if canImport(FoundationNetworking)
            // Left to swift-corelibs-foundation, a `Basic` challenge hangs the task until its deadline, and
            // rejecting it fails the task as "cancelled": the 401 received so far is returned instead. (There is no
            // server-trust challenge on Linux.)
            tasks.challenged(task, failureResponse: challenge.failureResponse)
            completionHandler(.cancelAuthenticationChallenge, nil)
        #else
            completionHandler(.performDefaultHandling, nil)
        #endif
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let allowed = tasks.received(response, for: dataTask)
        // Cancelled here too, not only by the disposition: swift-corelibs-foundation does not act on it, and a
        // response announced over the cap must not go on downloading.
        if !allowed { dataTask.cancel() }
        completionHandler(allowed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        tasks.received(data, for: dataTask)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        tasks.completed(task, error: error)
    }
}
