import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A session-level delegate that refuses every redirect, so the user agent sees each `Location`.
/// (swift-corelibs-foundation ignores per-task delegates.)
final class RedirectRefusingDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
