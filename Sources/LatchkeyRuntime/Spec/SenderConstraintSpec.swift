import Foundation
import LatchkeyVocabulary

/// How a provider binds tokens and pushes authorization requests: DPoP (RFC 9449) and PAR (RFC 9126).
@_spi(Generated) public struct SenderConstraintSpec: Sendable {
    /// Whether tokens are bound to a DPoP key.
    public var dpop: DPoPUse
    /// The pushed authorization request endpoint and when it is used; `nil` when the provider has none.
    public var pushedAuthorization: PushedAuthorizationSpec?

    /// Creates a spec.
    /// - Parameters:
    ///   - dpop: Whether tokens are bound to a DPoP key (default: never).
    ///   - pushedAuthorization: The pushed authorization request endpoint, if any.
    public init(dpop: DPoPUse = .never, pushedAuthorization: PushedAuthorizationSpec? = nil) {
        self.dpop = dpop
        self.pushedAuthorization = pushedAuthorization
    }
}

/// A provider's pushed authorization request endpoint (RFC 9126).
@_spi(Generated) public struct PushedAuthorizationSpec: Sendable {
    /// The endpoint (default `{discovered.pushed_authorization_request_endpoint}`).
    public var url: ValueTemplate
    /// When a sign-in pushes its request.
    public var use: PushedAuthorizationUse

    /// Creates a spec.
    /// - Parameters:
    ///   - url: The endpoint.
    ///   - use: When a sign-in pushes its request.
    public init(
        url: ValueTemplate = ValueTemplate(segments: [.variable("discovered.pushed_authorization_request_endpoint")]),
        use: PushedAuthorizationUse = .whenRequired
    ) {
        self.url = url
        self.use = use
    }
}
