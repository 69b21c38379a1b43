import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The device authorization grant (RFC 8628), in plain words: the code and the address to enter it at,
/// then polling until the user approved it.
struct DeviceSignIn {
    let output: Output

    /// Signs in with the device flow.
    /// - Parameters:
    ///   - client: The client.
    ///   - approve: Plays the user on the simulator (approves the code); `nil` for a real provider, where a
    ///     person enters the code.
    /// - Returns: The new session.
    func run(_ client: AuthClient, approve: (@Sendable (DeviceAuthorization) async throws -> Void)?) async throws
        -> Session
    {
        output.step("Signing in with the device flow (RFC 8628)…")
        let authorization = try await client.startDeviceAuthorization()
        output.step("To sign in, open \(authorization.verificationURI.absoluteString)")
        output.detail("and enter the code \(authorization.userCode)")
        if let complete = authorization.verificationURIComplete {
            output.detail("(or open \(complete.absoluteString), which carries the code)")
        }
        output.detail(
            "The code expires in \(authorization.expiresIn / 60) minutes; checking every \(authorization.interval) s.")
        if let approve {
            output.step("Playing the user: approving the code \(authorization.userCode) at the verification page…")
            try await approve(authorization)
        } else {
            output.detail("Waiting for you to approve it…")
        }
        let session = try await client.completeDeviceAuthorization(authorization)
        output.detail("The provider issued tokens after the approval.")
        return session
    }
}

extension ProviderSimulator {
    /// Approves a device code as the user would: opens the verification page with the code.
    /// - Throws: ``AuthError`` `network_error` when the page does not approve it.
    func approve(_ authorization: DeviceAuthorization) async throws {
        var components = URLComponents(url: authorization.verificationURI, resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "user_code", value: authorization.userCode)]
        guard let page = components?.url else {
            throw AuthError(.invalidResponse, "The verification URI is not a URL.")
        }
        let (_, response) = try await URLSession.shared.data(from: browser.routed(page))
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else {
            throw AuthError(.networkError, "The verification page answered \(status).", status: status)
        }
    }
}
