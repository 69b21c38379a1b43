import Foundation
@_spi(Generated) import LatchkeyRuntime

extension SimulatorCore {
    /// The discovered `end_session_endpoint`'s path.
    static let endSessionPath = "/logout"

    /// Whether a request is an RP-initiated logout: a `GET` of ``endSessionPath`` for a provider whose
    /// descriptor has an `endSession` flow.
    func isEndSession(_ request: SimulatorRequest) -> Bool {
        request.method == "GET" && request.path == Self.endSessionPath && provider.flows.endSession != nil
    }

    /// OpenID Connect RP-Initiated Logout 1.0: ends the provider's session and sends the browser back to
    /// `post_logout_redirect_uri` with the `state` it was given (none without a state), or shows a page
    /// when no redirect URI was sent.
    func endSession(_ request: SimulatorRequest) -> TestResponse {
        guard let redirect = request.parameter("post_logout_redirect_uri") else {
            return .text("You are signed out.")
        }
        guard var target = URLComponents(string: redirect) else {
            return .text("The post_logout_redirect_uri is not a URI.", status: 400)
        }
        if let state = request.parameter("state") {
            target.queryItems = (target.queryItems ?? []) + [URLQueryItem(name: "state", value: state)]
        }
        return .redirect(to: target.string ?? redirect)
    }
}
