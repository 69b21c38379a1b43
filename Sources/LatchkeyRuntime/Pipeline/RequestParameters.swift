import Foundation
import LatchkeyTokens
import LatchkeyVocabulary

/// Reading and adding the parameters of a request built from a descriptor request, after the builder encoded
/// them: stages that add parameters (the extra token parameters, `post` client authentication) send them as the
/// request's ``BodyEncoding`` says, exactly as if the builder had encoded them with the rest.
extension TransportRequest {
    /// The first value of a parameter the request already sends: in its form or JSON body, or, for
    /// ``BodyEncoding/none``, in its query.
    func parameterText(named name: String, encoding: BodyEncoding) -> String? {
        switch encoding {
        case .json:
            return body.flatMap { JSON(data: $0) }?[name]?.scalarText
        case .form:
            return Self.pairs(in: String(decoding: body ?? Data(), as: UTF8.self)).first { $0.name == name }?.value
        case .none:
            return Self.pairs(in: url.query ?? "").first { $0.name == name }?.value
        }
    }

    /// Appends text parameters after those already sent: to the form body, or, for ``BodyEncoding/none``, to
    /// the query. (A JSON body takes ``mergeJSONMembers(_:)``.)
    mutating func appendParameters(_ pairs: [(name: String, value: String)], encoding: BodyEncoding) {
        guard !pairs.isEmpty else { return }
        let encoded = PercentEncoding.encodePairs(pairs)
        switch encoding {
        case .form, .json:
            var text = String(decoding: body ?? Data(), as: UTF8.self)
            text += text.isEmpty ? encoded : "&" + encoded
            body = Data(text.utf8)
        case .none:
            let text = url.absoluteString
            let separator = url.query == nil ? "?" : (text.hasSuffix("?") || text.hasSuffix("&") ? "" : "&")
            if let extended = URL(string: text + separator + encoded) { url = extended }
        }
    }

    /// Sets members of the JSON object body (a member already there is replaced); the body stays the compact,
    /// sorted serialization the builder writes.
    mutating func mergeJSONMembers(_ members: [String: JSON]) {
        guard !members.isEmpty else { return }
        var object = body.flatMap { JSON(data: $0) }?.object ?? [:]
        for (name, value) in members { object[name] = value }
        body = JSON.object(object).serialized
    }

    /// The decoded `name=value` pairs of a form or query, in order.
    private static func pairs(in text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentEncoding.decode(parts[0], plusIsSpace: true) ?? String(parts[0])
            let value = parts.count > 1 ? PercentEncoding.decode(parts[1], plusIsSpace: true) ?? String(parts[1]) : ""
            return (name, value)
        }
    }
}
