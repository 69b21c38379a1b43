import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

extension AuthClient {
    /// The most items a list argument may have, and the most bytes one item may have.
    static let maximumListItems = 256
    static let maximumListItemBytes = 4096

    /// Puts the action's arguments that its request's URL names (`{baseURL}/admin/users/{userId}`) in as one
    /// percent-encoded path segment each, so that an argument can never add a segment, a query or a fragment.
    ///
    /// - Throws: `validation_failed` before any request for an empty argument, `.` or `..`, or one that is not
    ///   text (a boolean, a number or a list in a path).
    func encodePathSegments(of spec: ActionSpec, into variables: inout [String: JSON?]) throws(AuthError) {
        guard let request = provider.requests[spec.request] else { return }
        let names = Set(request.url.variables)
        for parameter in spec.parameters where names.contains(parameter.name) {
            guard let value = variables[parameter.name] ?? nil else { continue }
            guard case .string(let text) = value else {
                throw failure(
                    .validationFailed, "The parameter '\(parameter.name)' must be text: it is part of a path.")
            }
            guard !text.isEmpty, text != ".", text != ".." else {
                throw failure(
                    .validationFailed, "The parameter '\(parameter.name)' must be a path segment (not empty, . or ..).")
            }
            variables[parameter.name] = .string(Self.pathSegment(text))
        }
    }

    /// `text` percent-encoded as one path segment: only RFC 3986 unreserved characters stay as they are.
    static func pathSegment(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    /// Checks a list argument: bounded, every item non-empty, and one of the parameter's `values` when it has any.
    func validateItems(_ items: [String], of parameter: ActionSpec.Parameter) throws(AuthError) {
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
}
