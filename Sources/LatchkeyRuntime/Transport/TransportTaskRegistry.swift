import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The in-flight requests of a ``URLSessionHTTPTransport``, keyed by task identifier.
final class TransportTaskRegistry: Sendable {
    /// Why the transport itself cancelled a task.
    enum CancelReason: Sendable {
        case cancelled
        case timedOut
        case tooLarge
        /// URLSession raised an authentication challenge for a 401 (`WWW-Authenticate: Basic` on Linux): the
        /// 401 itself is the response.
        case challenged
    }

    private struct Entry {
        let task: URLSessionTask
        let url: URL
        let method: String
        let limit: Int
        let timeout: Double
        let continuation: CheckedContinuation<Result<TransportResponse, AuthError>, Never>
        var response: HTTPURLResponse?
        var body = Data()
        var reason: CancelReason?

        /// `METHOD scheme://host:port/path` for error messages: built only when one is needed.
        var label: String { TransportErrorMapping.label(method: method, url: url) }
    }

    private let entries = Mutex<[Int: Entry]>([:])

    func register(
        _ task: URLSessionTask, url: URL, method: String, limit: Int, timeout: Double,
        continuation: CheckedContinuation<Result<TransportResponse, AuthError>, Never>
    ) {
        let id = task.taskIdentifier
        entries.withLock {
            $0[id] = Entry(
                task: task, url: url, method: method, limit: limit, timeout: timeout, continuation: continuation)
        }
        // A Dispatch deadline, not a sleeping `Task`: arming it wakes no thread (a task costs two trips through
        // the executor on every request). It holds only the identifier, and is a no-op once the task completed.
        let seconds = min(max(timeout, 0), 365 * 86_400)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(seconds * 1e9))) { [weak self] in
            self?.cancel(taskIdentifier: id, reason: .timedOut)
        }
    }

    /// Cancels a task for a reason of the transport's own (the first reason wins).
    func cancel(_ task: URLSessionTask, reason: CancelReason) {
        cancel(taskIdentifier: task.taskIdentifier, reason: reason)
    }

    /// Cancels the task with this identifier, if it is still in flight.
    private func cancel(taskIdentifier id: Int, reason: CancelReason) {
        let task = entries.withLock { entries -> URLSessionTask? in
            guard entries[id] != nil else { return nil }
            if entries[id]?.reason == nil { entries[id]?.reason = reason }
            return entries[id]?.task
        }
        task?.cancel()
    }

    /// Records the 401 that raised an authentication challenge as the task's response; the task is then
    /// cancelled and completes with it (and the body received so far) instead of an error.
    func challenged(_ task: URLSessionTask, failureResponse: URLResponse?) {
        entries.withLock { entries in
            let id = task.taskIdentifier
            guard entries[id] != nil, entries[id]?.reason == nil else { return }
            if entries[id]?.response == nil { entries[id]?.response = failureResponse as? HTTPURLResponse }
            entries[id]?.reason = .challenged
        }
    }

    /// Records the response head; returns `false` when the body must not be loaded.
    func received(_ response: URLResponse, for task: URLSessionTask) -> Bool {
        entries.withLock { entries in
            guard var entry = entries[task.taskIdentifier] else { return false }
            entry.response = response as? HTTPURLResponse
            if response.expectedContentLength > Int64(entry.limit), entry.reason == nil {
                entry.reason = .tooLarge
            }
            entries[task.taskIdentifier] = entry
            return entry.reason == nil
        }
    }

    /// Appends body bytes, cancelling the task once they exceed the cap.
    func received(_ data: Data, for task: URLSessionTask) {
        let tooLarge = entries.withLock { entries -> Bool in
            let id = task.taskIdentifier
            // No copy of the entry: appending must not copy the body received so far.
            guard let received = entries[id]?.body.count, let limit = entries[id]?.limit,
                entries[id]?.reason == nil
            else { return false }
            guard received + data.count <= limit else {
                entries[id]?.reason = .tooLarge
                entries[id]?.body = Data()
                return true
            }
            entries[id]?.body.append(data)
            return false
        }
        if tooLarge { task.cancel() }
    }

    /// Completes a task's request.
    func completed(_ task: URLSessionTask, error: (any Error)?) {
        guard let entry = entries.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        entry.continuation.resume(returning: Self.result(of: entry, error: error, fallback: task.response))
    }

    private static func result(
        of entry: Entry, error: (any Error)?, fallback: URLResponse?
    ) -> Result<TransportResponse, AuthError> {
        switch entry.reason {
        case .cancelled?:
            return .failure(AuthError(.networkError, "\(entry.label) was cancelled"))
        case .timedOut?:
            return .failure(
                AuthError(.timeout, "\(entry.label) got no complete response within \(format(entry.timeout)) s"))
        case .tooLarge?:
            return .failure(AuthError(.responseTooLarge, "\(entry.label) returned more than \(entry.limit) bytes"))
        case .challenged?, nil:
            break
        }
        if let error, entry.reason != .challenged {
            return .failure(TransportErrorMapping.map(error, label: entry.label, timeout: entry.timeout))
        }
        guard let response = entry.response ?? (fallback as? HTTPURLResponse) else {
            return .failure(AuthError(.networkError, "\(entry.label) returned no HTTP response"))
        }
        var fields: [(name: String, value: String)] = []
        fields.reserveCapacity(response.allHeaderFields.count)
        for (name, value) in response.allHeaderFields {
            // A String value as it is (what the interpolation would give, without its dynamic casts).
            if let name = name as? String { fields.append((name.lowercased(), (value as? String) ?? "\(value)")) }
        }
        // URLSession hands the fields over as a dictionary: sorted, so that the order does not depend on hashing.
        fields.sort { $0.name < $1.name }
        let headerFields = HTTPHeaderFields(fields)
        if let problem = TransportErrorMapping.truncation(
            method: entry.method, status: response.statusCode, headers: headerFields, received: entry.body.count)
        {
            return .failure(AuthError(.networkError, "\(entry.label): \(problem)", status: response.statusCode))
        }
        return .success(TransportResponse(status: response.statusCode, headerFields: headerFields, body: entry.body))
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
