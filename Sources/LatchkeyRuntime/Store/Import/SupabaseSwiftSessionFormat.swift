import Foundation
import LatchkeyTokens

/// Turns a session as supabase-swift stores it into GoTrue's own session document (the token response), so the
/// provider's `session` and `user` pointers read it like any token response.
///
/// supabase-swift (`Sources/Auth/Internal/SessionStorage.swift`) stores `JSONEncoder().encode(session)`: its
/// `Session` and `User` have synthesized coding keys, so members are camelCase (`accessToken`, `expiresAt`,
/// `userMetadata`) and `Date`s are seconds since 1 January 2001 (`JSONEncoder`'s default); `expiresAt` is a
/// Unix time (`TimeInterval`). Older versions stored snake_case members with ISO 8601 dates
/// (`AuthClient.Configuration.jsonEncoder`), or wrapped the session as `{"session": …, "expiration_date": …}`
/// (its `storeSessionDirectly` migration). All three are read.
enum SupabaseSwiftSessionFormat {
    /// Members of `User` (and `UserIdentity`) that are `Date`s.
    static let dateMembers: Set<String> = [
        "confirmation_sent_at", "recovery_sent_at", "email_change_sent_at", "invited_at", "created_at",
        "confirmed_at", "email_confirmed_at", "phone_confirmed_at", "last_sign_in_at", "updated_at",
    ]
    /// Members whose contents are the app's or the provider's own data, kept exactly as stored.
    static let opaqueMembers: Set<String> = ["app_metadata", "user_metadata", "identity_data"]

    /// GoTrue's session document for a stored supabase-swift session, or `nil` when the bytes are not one.
    /// - Parameter data: The stored bytes.
    /// - Returns: The document, with `expires_in` left out (a stored session's expiry is its `expires_at`).
    static func sessionDocument(from data: Data) -> JSON? {
        guard var object = JSON(data: data)?.object else { return nil }
        if object["accessToken"] == nil, object["access_token"] == nil, let inner = object["session"]?.object {
            object = inner
        }
        var session: [String: JSON] = [:]
        for (name, value) in object {
            let key = snakeCase(name)
            guard key != "expires_in" else { continue }
            session[key] = key == "user" ? user(value, uuidMembers: ["id"]) : value
        }
        guard session["access_token"]?.string?.isEmpty == false else { return nil }
        return .object(session)
    }

    /// A stored `User` (or `UserIdentity`, `Factor`) with GoTrue's member names and dates. Its `UUID` members
    /// are lower case again, as GoTrue writes them (Foundation's `UUID` encodes upper case).
    private static func user(_ value: JSON, uuidMembers: Set<String>) -> JSON {
        guard let object = value.object else { return value }
        var user: [String: JSON] = [:]
        for (name, member) in object {
            let key = snakeCase(name)
            switch key {
            case _ where opaqueMembers.contains(key): user[key] = member
            case _ where dateMembers.contains(key): user[key] = date(member)
            case _ where uuidMembers.contains(key): user[key] = member.string.map { .string($0.lowercased()) } ?? member
            case "identities", "factors":
                user[key] =
                    member.array.map { items in
                        .array(items.map { Self.user($0, uuidMembers: ["identity_id", "user_id"]) })
                    } ?? member
            default: user[key] = member
            }
        }
        return .object(user)
    }

    /// A date as GoTrue writes it: a number of seconds since 2001 becomes RFC 3339 text; text stays.
    private static func date(_ value: JSON) -> JSON {
        guard let seconds = value.double else { return value }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return .string(formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds)))
    }

    /// `accessToken` → `access_token`; snake_case names are kept.
    static func snakeCase(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase {
                if !out.isEmpty { out.append("_") }
                out += character.lowercased()
            } else {
                out.append(character)
            }
        }
        return out
    }
}
