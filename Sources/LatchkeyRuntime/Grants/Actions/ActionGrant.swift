import Foundation

/// A descriptor action (sign-up, password reset, an admin call, an MFA step, …) as a unit: its arguments checked
/// against the action's parameters, the request it sends, and how its answer becomes an ``ActionResult``
/// (`ActionGrant+Answer.swift`). Sending it, installing a session behind the sign-in fence, keeping a link's
/// pending flow and performing a follow-up are the client's (`AuthClient+Actions.swift`).
struct ActionGrant: Sendable {
    /// The most items a list argument may have, and the most bytes one item may have.
    static let maximumListItems = 256
    static let maximumListItemBytes = 4096

    /// The action.
    let action: ActionSpec
    /// The request it sends (`nil` when the descriptor has none by that name: sending it fails).
    let requestSpec: RequestSpec?
    /// The arguments by parameter name, as checked.
    let arguments: [String: ActionArgument]
    /// The provider's descriptor name, for errors.
    let provider: String
    /// The request's variables: the arguments as typed values, plus a link's PKCE challenge when one is added.
    var variables: [String: JSON?]

    /// An action with these arguments, checked before any request: each known to the action, present unless
    /// optional, of the parameter's type, at least its minimum length, one of its allowed values, a list bounded;
    /// an argument the request's URL names (`{baseURL}/admin/users/{userId}`) must be text (or a UUID) that is one path
    /// segment of RFC 3986 unreserved characters (letters, digits, `-`, `.`, `_`, `~`) and neither `.` nor `..`,
    /// so an argument can never reach another path, a query or a fragment (and needs no percent-encoding).
    /// - Throws: `validation_failed`.
    init(
        action: ActionSpec, request: RequestSpec?, arguments: [String: ActionArgument], provider: String
    ) throws(AuthError) {
        self.action = action
        self.requestSpec = request
        self.arguments = arguments
        self.provider = provider
        self.variables = arguments.mapValues { Optional($0.variable) }
        try validate()
        try checkPathArguments()
    }

    /// What the client sends: the action's request with the arguments as its variables.
    var request: GrantRequest {
        GrantRequest(name: action.request, variables: variables, isTokenRequest: false)
    }

    /// An error of this provider.
    func failure(_ code: AuthError.Code, _ message: String) -> AuthError {
        AuthError(code, message, provider: provider)
    }

    private func validate() throws(AuthError) {
        for name in arguments.keys.sorted() where !action.parameters.contains(where: { $0.name == name }) {
            throw failure(.validationFailed, "The action '\(action.name)' has no parameter '\(name)'.")
        }
        for parameter in action.parameters {
            guard let argument = arguments[parameter.name] else {
                if parameter.isOptional { continue }
                throw failure(.validationFailed, "The parameter '\(parameter.name)' is required.")
            }
            guard argument.matches(parameter.type) else {
                throw failure(
                    .validationFailed, "The parameter '\(parameter.name)' must be of type \(parameter.type.rawValue).")
            }
            if case .strings(let items) = argument {
                try validateItems(items, of: parameter)
                continue
            }
            guard case .string(let text) = argument else { continue }
            if let minimum = parameter.minimumLength, text.count < minimum {
                throw failure(
                    .validationFailed, "The parameter '\(parameter.name)' must have at least \(minimum) characters.")
            }
            if !parameter.allowedValues.isEmpty, !parameter.allowedValues.contains(text) {
                let allowed = parameter.allowedValues.joined(separator: ", ")
                throw failure(.validationFailed, "The parameter '\(parameter.name)' must be one of \(allowed).")
            }
        }
    }

    /// Checks a list argument: bounded, every item non-empty, and one of the parameter's `values` when it has any.
    private func validateItems(_ items: [String], of parameter: ActionSpec.Parameter) throws(AuthError) {
        guard items.count <= Self.maximumListItems else {
            throw failure(
                .validationFailed, "The parameter '\(parameter.name)' has more than \(Self.maximumListItems) items.")
        }
        for item in items {
            guard !item.isEmpty, item.utf8.count <= Self.maximumListItemBytes else {
                throw failure(
                    .validationFailed,
                    "Every item of '\(parameter.name)' must have 1 to \(Self.maximumListItemBytes) bytes.")
            }
            if !parameter.allowedValues.isEmpty, !parameter.allowedValues.contains(item) {
                let allowed = parameter.allowedValues.joined(separator: ", ")
                throw failure(.validationFailed, "Every item of '\(parameter.name)' must be one of \(allowed).")
            }
        }
    }

    /// The one rule for path arguments: text (or a UUID), one segment of unreserved characters, not `.` or `..`.
    private func checkPathArguments() throws(AuthError) {
        guard let requestSpec else { return }
        for name in requestSpec.url.variables.sorted() {
            guard let argument = arguments[name] else { continue }
            let text: String
            switch argument {
            case .string(let string): text = string
            // A UUID's text is hexadecimal digits and hyphens: always one unreserved segment.
            case .uuid(let uuid): text = uuid.uuidString
            default:
                throw failure(.validationFailed, "The parameter '\(name)' must be text: it is part of a path.")
            }
            guard Self.isPathSegment(text) else {
                throw failure(
                    .validationFailed,
                    "The parameter '\(name)' goes into the URL's path and may hold only letters, digits, - . _ ~.")
            }
        }
    }

    /// Whether `text` is one non-empty path segment of RFC 3986 unreserved characters, neither `.` nor `..`.
    static func isPathSegment(_ text: String) -> Bool {
        let unreserved = text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                true
            default: false
            }
        }
        return unreserved && !text.isEmpty && text != "." && text != ".."
    }
}
