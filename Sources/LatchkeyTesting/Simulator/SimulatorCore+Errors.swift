import Foundation
@_spi(Generated) import LatchkeyRuntime

/// Error bodies as the descriptor's error mapping reads them, and client authentication checks.
extension SimulatorCore {
    /// An error body with the code and message at the descriptor's pointers (and at `/error`).
    /// A message pointer that shares the code pointer (Firebase's `/error/message`) is left alone.
    func error(_ code: String, _ message: String, status: Int) -> TestResponse {
        var document: [String: Any] = ["error": code, "error_description": message]
        let codePointer = provider.errors.codePointers.first
        if let pointer = provider.errors.messagePointers.first, pointer != codePointer {
            JSONPointerWriter.set(message, at: pointer, in: &document)
        }
        JSONPointerWriter.set(code, at: codePointer, in: &document)
        JSONPointerWriter.set(status, at: provider.errors.statusPointer, in: &document)
        return .json(document, status: status)
    }

    /// A provider error body as the descriptor's error mapping reads it: the code at the first code
    /// pointer (a JSON number when it is all digits), a message at the first message pointer that does not
    /// overlap it, the status at the status pointer. `inSuccessBody` answers HTTP 200 and makes sure the
    /// success-body error pointer holds a value.
    /// `members` (pointer → text) are placed as strings, for rows that `match` on them.
    func errorBody(providerCode: String?, status: Int, inSuccessBody: Bool, members: [String: String] = [:])
        -> TestResponse
    {
        let errors = provider.errors
        let codePointer = errors.codePointers.first ?? "/error"
        var document: [String: Any] = [:]
        for (pointer, value) in members.sorted(by: { $0.key < $1.key }) {
            JSONPointerWriter.set(value, at: pointer, in: &document)
        }
        let overlaps = { (a: String, b: String) in a == b || a.hasPrefix(b + "/") || b.hasPrefix(a + "/") }
        if let messagePointer = errors.messagePointers.first(where: { !overlaps($0, codePointer) }) {
            JSONPointerWriter.set("Simulated provider error.", at: messagePointer, in: &document)
        }
        let codeValue: Any? = providerCode.map { code -> Any in
            if let number = Int(code), code.allSatisfy(\.isWholeNumber) { return NSNumber(value: number) }
            return code
        }
        if let codeValue { JSONPointerWriter.set(codeValue, at: codePointer, in: &document) }
        if let statusPointer = errors.statusPointer, !overlaps(statusPointer, codePointer) {
            JSONPointerWriter.set(status, at: statusPointer, in: &document)
        }
        guard inSuccessBody else { return .json(document, status: status) }
        if let pointer = errors.successBodyErrorPointer, !overlaps(pointer, codePointer) || codeValue == nil {
            JSONPointerWriter.set(codeValue ?? "simulated_error", at: pointer, in: &document)
        }
        return .json(document, status: 200)
    }

    /// Refuses a request whose descriptor authenticates the client (`basic` or `post`) but that came
    /// without a client secret.
    func clientAuthenticationFailure(_ request: SimulatorRequest, _ route: SimulatorRoutes.Route)
        -> TestResponse?
    {
        let authenticated: Bool
        let basic = request.basicCredentials.map { !$0.id.isEmpty && !$0.secret.isEmpty } ?? false
        let post = request.parameter("client_secret") != nil
        switch route.spec.clientAuthentication {
        case .none: return nil
        case .basic: authenticated = basic
        case .post: authenticated = post
        // Optional: a public client sends nothing; what is sent must be whole.
        case .basicIfSecret: authenticated = request.recorded.header("Authorization") == nil || basic
        case .postIfSecret: authenticated = request.parameters["client_secret"] == nil || post
        // Basic always, the password possibly empty (an installed app's `id:`).
        case .basicSecretOrEmpty: authenticated = request.basicCredentials.map { !$0.id.isEmpty } ?? false
        }
        guard !authenticated else { return nil }
        return error(
            providerCode(for: "invalid_client") ?? "invalid_client",
            "The \(route.spec.clientAuthentication.rawValue) client authentication is missing.", status: 401)
    }

    /// The provider code the descriptor maps to a stable code, if it has one.
    func providerCode(for stableCode: String) -> String? {
        provider.errors.rules.first { $0.code == stableCode && $0.providerCode != nil }?.providerCode
    }

    func grantCode() -> String { providerCode(for: "invalid_grant") ?? "invalid_grant" }
}
