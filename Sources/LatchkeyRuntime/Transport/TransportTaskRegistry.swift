import Foundation
import LatchkeyPlatform
import LatchkeyTokens

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
        /// The response names a content coding (`gzip`, `br`, ...): refused before its body is read.
        case encoded
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
        /// When the request times out, in uptime nanoseconds (`DispatchTime`).
        let deadline: UInt64
        let continuation: CheckedContinuation<Result<TransportResponse, AuthError>, Never>
        var response: HTTPURLResponse?
        var body = Data()
        var reason: CancelReason?

        /// `METHOD scheme://host:port/path` for error messages: built only when one is needed.
        var label: String { TransportErrorMapping.label(method: method, url: url) }
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        /// One timer for every request's deadline, armed for the earliest one that may still be pending: a
        /// request that completes in time costs no timer of its own (a Dispatch deadline per request stays in
        /// Dispatch's timer heap for its whole timeout, and every request pays for the heap's size).
        let timer: any DispatchSourceTimer
        /// The deadline the timer is armed for (uptime nanoseconds), `nil` when it is not armed.
        var armedDeadline: UInt64?
    }

    private let state: Locked<State>

    init() {
        state = Locked(
            State(timer: DispatchSource.makeTimerSource(queue: DispatchQueue(label: "latchkey.transport.deadlines"))))
        state.withLock { state in
            state.timer.setEventHandler { [weak self] in self?.expireDeadlines() }
            state.timer.activate()
        }
    }

    deinit {
        state.withLock { $0.timer.cancel() }
    }

    func register(
        _ task: URLSessionTask, url: URL, method: String, limit: Int, timeout: Double,
        continuation: CheckedContinuation<Result<TransportResponse, AuthError>, Never>
    ) {
        let seconds = URLSessionHTTPTransport.effectiveTimeout(timeout)
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        state.withLock { state in
            state.entries[task.taskIdentifier] = Entry(
                task: task, url: url, method: method, limit: limit, timeout: timeout, deadline: deadline,
                continuation: continuation)
            if let armed = state.armedDeadline, armed <= deadline { return }
            state.armedDeadline = deadline
            state.timer.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline))
        }
    }

    /// The timer fired: cancels every request past its deadline and arms the timer for the earliest one left.
    private func expireDeadlines() {
        let now = DispatchTime.now().uptimeNanoseconds
        let expired = state.withLock { state -> [URLSessionTask] in
            var expired: [URLSessionTask] = []
            var next: UInt64?
            for (id, entry) in state.entries {
                if entry.deadline <= now {
                    if entry.reason == nil { state.entries[id]?.reason = .timedOut }
                    expired.append(entry.task)
                } else if next.map({ entry.deadline < $0 }) ?? true {
                    next = entry.deadline
                }
            }
            state.armedDeadline = next
            if let next { state.timer.schedule(deadline: DispatchTime(uptimeNanoseconds: next)) }
            return expired
        }
        for task in expired { task.cancel() }
    }

    /// Cancels a task for a reason of the transport's own (the first reason wins).
    func cancel(_ task: URLSessionTask, reason: CancelReason) {
        let id = task.taskIdentifier
        let task = state.withLock { state -> URLSessionTask? in
            guard state.entries[id] != nil else { return nil }
            if state.entries[id]?.reason == nil { state.entries[id]?.reason = reason }
            return state.entries[id]?.task
        }
        task?.cancel()
    }

    /// Records the 401 that raised an authentication challenge as the task's response; the task is then
    /// cancelled and completes with it (and the body received so far) instead of an error.
    func challenged(_ task: URLSessionTask, failureResponse: URLResponse?) {
        state.withLock { state in
            let id = task.taskIdentifier
            guard state.entries[id] != nil, state.entries[id]?.reason == nil else { return }
            if state.entries[id]?.response == nil { state.entries[id]?.response = failureResponse as? HTTPURLResponse }
            state.entries[id]?.reason = .challenged
        }
    }

    /// Records the response head; returns `false` when the body must not be loaded.
    func received(_ response: URLResponse, for task: URLSessionTask) -> Bool {
        state.withLock { state in
            guard var entry = state.entries[task.taskIdentifier] else { return false }
            entry.response = response as? HTTPURLResponse
            if entry.reason == nil, let http = entry.response, ContentCodingRule.refuses(http) {
                entry.reason = .encoded
            }
            if response.expectedContentLength > Int64(entry.limit), entry.reason == nil {
                entry.reason = .tooLarge
            }
            state.entries[task.taskIdentifier] = entry
            return entry.reason == nil
        }
    }

    /// Appends body bytes, cancelling the task once they exceed the cap.
    func received(_ data: Data, for task: URLSessionTask) {
        let tooLarge = state.withLock { state -> Bool in
            let id = task.taskIdentifier
            // No copy of the entry: appending must not copy the body received so far.
            guard let received = state.entries[id]?.body.count, let limit = state.entries[id]?.limit,
                state.entries[id]?.reason == nil
            else { return false }
            guard received + data.count <= limit else {
                state.entries[id]?.reason = .tooLarge
                state.entries[id]?.body = Data()
                return true
            }
            state.entries[id]?.body.append(data)
            return false
        }
        if tooLarge { task.cancel() }
    }

    /// Completes a task's request.
    func completed(_ task: URLSessionTask, error: (any Error)?) {
        guard let entry = state.withLock({ $0.entries.removeValue(forKey: task.taskIdentifier) }) else { return }
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
        case .encoded?:
            return .failure(ContentCodingRule.refusal(entry.response, label: entry.label))
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

    /// Seconds as a message shows them: `30`, `0.4`.
    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
