import Foundation

extension AuthClient {
    /// The largest value read from an answer for a follow-up action, in bytes.
    static var maximumFollowUpValueBytes: Int { 2048 }

    /// Refuses, before any request, a string argument that its request puts in the URL and that is not one
    /// plain path segment: empty, `.` or `..`, or any character beyond letters, digits, `-`, `.`, `_` and `~`
    /// (RFC 3986's unreserved characters), so that an argument can never reach another path or add a query.
    func validatePathArguments(_ arguments: [String: ActionArgument], for spec: ActionSpec) throws(AuthError) {
        guard let request = provider.requests[spec.request] else { return }
        let inURL = Set(request.url.variables)
        for parameter in spec.parameters where inURL.contains(parameter.name) {
            guard case .string(let text)? = arguments[parameter.name] else { continue }
            guard Self.isPathSegment(text) else {
                throw failure(
                    .validationFailed,
                    "The parameter '\(parameter.name)' must be one URL path segment (letters, digits, '-', '.', '_', '~')."
                )
            }
        }
    }

    static func isPathSegment(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 256, text != ".", text != ".." else { return false }
        return text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
        }
    }

    /// Performs an action's follow-up: the next action, with the arguments both share and the values the
    /// first answer holds at the follow-up's pointers (a challenge's `id` as the verification's
    /// `challengeId`).
    /// - Throws: `invalid_response` when the answer lacks a value (nothing more is sent); the next action's
    ///   errors.
    func perform(
        _ followUp: ActionFollowUpSpec, after spec: ActionSpec, arguments: [String: ActionArgument], document: JSON?
    ) async throws(AuthError) -> ActionResult {
        guard let next = provider.actions.first(where: { $0.name == followUp.action }) else {
            throw failure(.invalidConfiguration, "This provider has no action '\(followUp.action)'.")
        }
        var nextArguments = arguments.filter { name, _ in next.parameters.contains { $0.name == name } }
        for (name, pointer) in followUp.arguments.sorted(by: { $0.key < $1.key }) {
            let value = document?.value(at: pointer)
            let text: String? =
                switch value {
                case .string(let string)?: string
                case .number(let number)? where number == number.rounded() && abs(number) < 1e15:
                    String(Int(number))
                default: nil
                }
            guard let text, !text.isEmpty, text.utf8.count <= Self.maximumFollowUpValueBytes else {
                throw failure(
                    .invalidResponse,
                    "The answer to '\(spec.name)' has no usable value at \(pointer) for '\(followUp.action)'.")
            }
            nextArguments[name] = .string(text)
        }
        return try await perform(action: next.name, arguments: nextArguments)
    }
}
