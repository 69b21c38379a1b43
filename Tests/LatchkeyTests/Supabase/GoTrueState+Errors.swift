import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

/// Request parsing (GoTrue's strict JSON bodies) and the three error shapes, plus encoding helpers.
extension GoTrueState {
    // MARK: - Request parsing and errors

    /// `retrieveRequestParams`: a JSON object with only the declared members.
    func jsonBody(_ request: RecordedRequest, allowed: Set<String>) throws(Reject) -> [String: Any] {
        let type = request.header("Content-Type")?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
        guard type?.lowercased() == "application/json" else {
            throw httpError(
                request, 400, "bad_json", "Could not parse request body as JSON: Content-Type is not application/json")
        }
        guard let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] else {
            throw httpError(request, 400, "bad_json", "Could not parse request body as JSON: invalid JSON object")
        }
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw httpError(
                request, 400, "bad_json", "Could not parse request body as JSON: json: unknown field \"\(unknown)\"")
        }
        return object
    }

    /// A string member, `nil` when absent; any other type is a JSON error.
    func string(_ body: [String: Any], _ name: String, _ request: RecordedRequest) throws(Reject) -> String? {
        guard let value = body[name], !(value is NSNull) else { return nil }
        guard let text = value as? String else {
            throw httpError(
                request, 400, "bad_json",
                "Could not parse request body as JSON: json: cannot unmarshal into Go struct field \(name) of type string"
            )
        }
        return text
    }

    /// Whether the request asked for API version 2024-01-01 or later (apiversions.go).
    /// Whether `value` has the shape `YYYY-MM-DD` (digits and two hyphens).
    static func isISODate(_ value: String) -> Bool {
        let characters = Array(value)
        guard characters.count == 10 else { return false }
        return characters.indices.allSatisfy { index in
            index == 4 || index == 7
                ? characters[index] == "-" : characters[index].isASCII && characters[index].isNumber
        }
    }

    static func wantsNewErrors(_ request: RecordedRequest) -> Bool {
        guard let value = request.header("X-Supabase-Api-Version"),
            Self.isISODate(value)
        else { return false }
        return value >= "2024-01-01"
    }

    /// A GoTrue `HTTPError` in shape (B) for API version 2024-01-01, shape (A) otherwise.
    func httpError(
        _ request: RecordedRequest, _ status: Int, _ code: String, _ message: String, reasons: [String]? = nil
    ) -> Reject {
        var body: [String: Any]
        var headers: [(name: String, value: String)] = []
        if Self.wantsNewErrors(request) {
            body = ["code": code, "message": message]
            headers.append(("X-Supabase-Api-Version", "2024-01-01"))
            if reasons == nil { headers.append(("x-sb-error-code", code)) }
        } else {
            body = ["code": status, "error_code": code, "msg": message]
            headers.append(("x-sb-error-code", code))
        }
        if let reasons { body["weak_password"] = ["reasons": reasons] }
        return Reject(response: .json(body, status: status, headers: headers))
    }

    func weakPassword(_ request: RecordedRequest) -> Reject {
        httpError(
            request, 422, "weak_password", "Password should be at least \(Self.minimumPasswordLength) characters.",
            reasons: ["length"])
    }

    /// An OAuth error, shape (C): always 400, the same for every API version.
    func oauthError(_ error: String, _ description: String) -> Reject {
        Reject(response: .json(["error": error, "error_description": description], status: 400))
    }

    /// `redirect_to` when allow-listed (the app's scheme, or loopback), else SITE_URL (silently).
    func allowedRedirect(_ value: String?) -> String {
        guard let value, !value.isEmpty else { return siteURL }
        if value.hasPrefix("dev.example.app://") || value.hasPrefix("http://127.0.0.1") { return value }
        return siteURL
    }

    // MARK: - Helpers

    static func uuid() -> String { UUID().uuidString.lowercased() }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// Go's `url.Values.Encode` (in the given order): `+` for spaces, unreserved characters kept.
    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(Character(UnicodeScalar(byte)))
            case UInt8(ascii: " "): out.append("+")
            default: out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// Adds query parameters to a URL, keeping the ones it has.
    static func appending(_ pairs: [(String, String)], to url: String) -> String {
        url + (url.contains("?") ? "&" : "?") + encode(pairs)
    }
}
