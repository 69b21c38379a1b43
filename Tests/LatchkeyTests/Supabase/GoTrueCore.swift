import Foundation
import LatchkeyPlatform
@_spi(Generated) import LatchkeyTesting

/// The server's state, shared with the handler.
final class GoTrueCore: Sendable {
    struct Hook: Sendable {
        var refreshToken: String
        var work: @Sendable () async -> Void
    }

    let state = Locked(GoTrueState())
    let hooks = Locked<[Hook]>([])
    /// Work to run before answering the next request of a method to a route (`/user`), each once.
    let routeHooks = Locked<[(method: String, route: String, work: @Sendable () async -> Void)]>([])

    func handle(_ request: RecordedRequest) async -> TestResponse {
        if request.path == "/auth/v1/token", request.query("grant_type") == "refresh_token",
            let token = (request.jsonBody as? [String: Any])?["refresh_token"] as? String,
            let hook = hooks.withLock({ hooks -> Hook? in
                guard let index = hooks.firstIndex(where: { $0.refreshToken == token }) else { return nil }
                return hooks.remove(at: index)
            })
        {
            await hook.work()
        }
        if let hook = routeHooks.withLock({ hooks -> (@Sendable () async -> Void)? in
            guard
                let index = hooks.firstIndex(where: {
                    $0.method == request.method && "/auth/v1" + $0.route == request.path
                })
            else { return nil }
            return hooks.remove(at: index).work
        }) {
            await hook()
        }
        if request.path == "/provider/authorize" {
            return state.withLock { $0.providerAuthorize(request) }
        }
        guard request.path.hasPrefix("/auth/v1/") else {
            return .json(["message": "no Route matched with those values"], status: 404)
        }
        let route = String(request.path.dropFirst("/auth/v1".count))
        // Kong: key-auth on /auth/v1/ except the open routes (docs: docker/volumes/api/kong.yml).
        let open: Set<String> = ["/verify", "/callback", "/authorize", "/.well-known/jwks.json"]
        if !open.contains(route) {
            guard let key = request.header("apikey") else {
                return .json(
                    [
                        "message": "No API key found in request",
                        "hint": "No `apikey` request header or url param was found.",
                    ],
                    status: 401)
            }
            guard key == GoTrueServer.publishableKey || key == GoTrueServer.secretKey else {
                return .json(
                    [
                        "message": "Invalid API key",
                        "hint": "Double check your Supabase `anon` or `service_role` API key.",
                    ],
                    status: 401)
            }
        }
        return state.withLock { state in
            do throws(Reject) {
                return try state.route(route, request)
            } catch {
                return error.response
            }
        }
    }
}

/// A request GoTrue refuses, with its response.
struct Reject: Error {
    let response: TestResponse
}
