import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// A value passed to a provider-specific action.
@_spi(Generated) public enum ActionArgument: Sendable, Equatable {
    /// Text.
    case string(String)
    /// A boolean.
    case bool(Bool)
    /// An integer.
    case int(Int)
    /// An absolute URL.
    case url(URL)
    /// A JSON object.
    case object([String: JSON])
    /// A list of strings.
    case strings([String])
    /// A UUID, sent as its `uuidString` (upper case).
    case uuid(UUID)

    /// The value as a template variable (typed, so a boolean stays a boolean in a JSON body).
    var variable: JSON {
        switch self {
        case .string(let text): .string(text)
        case .bool(let flag): .bool(flag)
        case .int(let number): .number(Double(number))
        case .url(let url): .string(url.absoluteString)
        case .object(let members): .object(members)
        case .strings(let items): .array(items.map(JSON.string))
        case .uuid(let uuid): .string(uuid.uuidString)
        }
    }

    /// Whether the value has the parameter's type.
    func matches(_ type: ActionSpec.ParameterType) -> Bool {
        switch (self, type) {
        case (.string, .string), (.bool, .bool), (.int, .int), (.object, .object), (.strings, .strings),
            (.uuid, .uuid):
            true
        case (.url(let url), .url): url.scheme != nil && url.host != nil
        default: false
        }
    }
}

/// What a provider-specific action returned, as its `RequestSpec.Response` says.
public enum ActionResult: Sendable, Hashable {
    /// A new session (now the current one).
    case session(Session)
    /// A user (the current session's user is updated when it is the same person).
    case user(User)
    /// A JSON document, as the provider sent it.
    case document(JSON)
    /// One page of a list: the document, with the total and the next and last page numbers its headers give
    /// (a request that declares `pagination`).
    case page(ActionPage)
    /// Nothing beyond success.
    case none
}
