import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// The descriptor's `captures`: values read from responses, kept with the session and usable as `{NAME}`.
extension AuthClient {
    /// Runs the captures that send a request, once per request, with a new session's access token, and adds
    /// what they read to the session. Called by every sign-in before the session is installed.
    ///
    /// A capture whose response has no value there is left out (a later request that needs it fails with a
    /// message naming it); a request that fails fails the sign-in, and nothing is stored.
    /// - Parameter new: The new session (its token-response captures already read).
    /// - Returns: The session with its captures.
    func capturing(_ new: Session) async throws(AuthError) -> Session {
        let requested = provider.captures.filter { $0.request != nil }
        guard !requested.isEmpty else { return new }
        var session = new
        var answers: [String: (document: JSON?, response: TransportResponse)] = [:]
        for capture in requested {
            guard let name = capture.request else { continue }
            if answers[name] == nil {
                let flow = session.captures.mapValues { Optional(JSON.string($0)) }
                let (_, document, response) = try await send(name, flow: flow, accessToken: session.accessToken)
                answers[name] = (document, response)
            }
            guard let answer = answers[name] else { continue }
            if let value = capture.value(in: answer.document, answer.response) {
                session.captures[capture.name] = value
            } else {
                log(.info, "The capture '\(capture.name)' found no value in the answer to '\(name)'.")
            }
        }
        return session
    }

    /// Refuses a request that uses a capture the session does not have, instead of sending a URL or body
    /// with a hole in it.
    /// - Parameters:
    ///   - templates: The request's templates.
    ///   - name: The request's name.
    ///   - flow: The flow's variables (a capture request's own values).
    /// - Throws: `session_missing` naming the capture and where it comes from.
    func checkCaptures(in templates: [ValueTemplate], request name: String, flow: [String: JSON?]) throws(AuthError) {
        guard !provider.captures.isEmpty else { return }
        let used = Set(
            templates.flatMap { template in
                template.segments.compactMap { segment -> String? in
                    if case .variable(let variable) = segment { return variable }
                    return nil
                }
            })
        for capture in provider.captures where used.contains(capture.name) {
            if case .some(.some) = flow[capture.name] { continue }
            if session?.captures[capture.name] != nil { continue }
            let origin =
                capture.request.map { "the answer to '\($0)' after sign-in" } ?? "the token response"
            let place = capture.header.map { "header \($0)" } ?? capture.pointer ?? ""
            throw failure(
                .sessionMissing,
                "The request '\(name)' needs '{\(capture.name)}', captured from \(origin) (\(place)), and "
                    + (session == nil
                        ? "there is no session: sign in first."
                        : "this session has none (the response had no value there): sign in again."))
        }
    }
}
