import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting

/// A loopback server shaped like Supabase Auth (GoTrue) for the side-by-side with supabase-swift:
/// `POST /auth/v1/token?grant_type=password` and `?grant_type=refresh_token` answer GoTrue's session document
/// (a JWT access token, `expires_in` and `expires_at`, a rotating one-time refresh token, the full user with
/// a UUID, `aud`, timestamps, metadata and an identity), so both supabase-swift's `Session` decoding and
/// `SupabaseClient`'s descriptor mapping read it. `GET /bench/stats` answers how many token requests of each
/// grant it has served.
struct GoTrueServer {
    static let userID = "6f1c2a4e-8d3b-4f5a-9c7e-2b1d0e3f4a5b"
    static let email = "ada@example.com"
    static let password = "analytical-engine"

    private struct State {
        var liveRefreshTokens: Set<String> = []
        var issued = 0
        var grants: [String: Int] = [:]
    }

    /// The server's state, shared with its handler.
    private final class Ledger: Sendable {
        let state = Locked(State())
    }

    let server: TestHTTPServer

    init() throws {
        let ledger = Ledger()
        server = try TestHTTPServer { request in Self.answer(request, ledger.state) }
    }

    /// `latchkey-bench serve-gotrue`: prints the base URL on its first line, then serves until killed.
    static func serveForever() async throws -> Never {
        let running = try GoTrueServer()
        emit(running.server.baseURL.absoluteString + "\n")  // unbuffered: the script reads it at once
        while true {
            try await LatchkeyDuration.sleep(.seconds(60))
            running.server.resetRecording()  // the requests are counted in State; keep memory flat
        }
    }

    private static func answer(_ request: RecordedRequest, _ state: borrowing Locked<State>) -> TestResponse {
        if request.method == "GET", request.path == "/bench/stats" {
            return .json(state.withLock { $0.grants })
        }
        guard request.method == "POST", request.path == "/auth/v1/token", let grant = request.query("grant_type"),
            let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]
        else { return error(404, "not_found", "no such route") }
        guard request.header("apikey") != nil else { return error(401, "no_api_key", "No API key found in request") }
        switch grant {
        case "password":
            guard body["email"] as? String == email, body["password"] as? String == password else {
                return error(400, "invalid_credentials", "Invalid login credentials")
            }
        case "refresh_token":
            guard let token = body["refresh_token"] as? String,
                state.withLock({ $0.liveRefreshTokens.remove(token) != nil })
            else { return error(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found") }
        default:
            return error(400, "unsupported_grant_type", "unsupported grant_type")
        }
        let number = state.withLock { state -> Int in
            state.issued += 1
            state.grants[grant, default: 0] += 1
            state.liveRefreshTokens.insert(refreshToken(state.issued))
            return state.issued
        }
        return .json(session(number: number))
    }

    private static func refreshToken(_ number: Int) -> String { "gotrue-rt-\(String(number, radix: 36))-v2x9k" }

    /// GoTrue's session document, field for field as Supabase Auth sends it.
    private static func session(number: Int) -> [String: Any] {
        let now = Int(Date().timeIntervalSince1970)
        let stamp = "2026-01-05T09:30:00.123456Z"
        let claims: [String: Any] = [
            "aud": "authenticated", "exp": now + 3600, "iat": now, "iss": "http://127.0.0.1/auth/v1",
            "sub": userID, "email": email, "phone": "", "role": "authenticated", "aal": "aal1",
            "session_id": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", "is_anonymous": false,
            "app_metadata": ["provider": "email", "providers": ["email"]],
            "user_metadata": ["full_name": "Ada Lovelace", "email_verified": true],
        ]
        let user: [String: Any] = [
            "id": userID, "aud": "authenticated", "role": "authenticated", "email": email, "phone": "",
            "email_confirmed_at": stamp, "confirmed_at": stamp, "last_sign_in_at": stamp,
            "app_metadata": ["provider": "email", "providers": ["email"]],
            "user_metadata": ["full_name": "Ada Lovelace", "email_verified": true],
            "identities": [
                [
                    "identity_id": "0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6", "id": userID, "user_id": userID,
                    "identity_data": ["email": email, "email_verified": true, "sub": userID],
                    "provider": "email", "last_sign_in_at": stamp, "created_at": stamp, "updated_at": stamp,
                    "email": email,
                ]
            ],
            "created_at": stamp, "updated_at": stamp, "is_anonymous": false,
        ]
        return [
            "access_token": jwt(claims, number: number), "token_type": "bearer", "expires_in": 3600,
            "expires_at": now + 3600, "refresh_token": refreshToken(number), "user": user,
        ]
    }

    /// A JWT of GoTrue's shape (HS256 header, its claims); the signature is filler: neither client verifies
    /// Supabase access tokens.
    private static func jwt(_ claims: [String: Any], number: Int) -> String {
        func segment(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let header = segment(Data(#"{"alg":"HS256","kid":"bench","typ":"JWT"}"#.utf8))
        let payload = segment((try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])) ?? Data())
        let filler = String(repeating: String(number, radix: 16), count: 43).prefix(43)
        return "\(header).\(payload).\(filler)"
    }

    private static func error(_ status: Int, _ code: String, _ message: String) -> TestResponse {
        .json(["code": status, "error_code": code, "msg": message], status: status)
    }
}
