// Stand-in for AuthenticationServices: authorization controllers and platform passkeys (iOS 15, macOS 12),
// the subset PlatformPasskeyAuthenticator uses. Objective-C optional requirements are declared as requirements
// with default implementations.

@_exported import Foundation

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol ASAuthorizationProvider: NSObjectProtocol {}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol ASAuthorizationCredential: NSObjectProtocol {}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
open class ASAuthorizationRequest: NSObject {}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
open class ASAuthorization: NSObject {
    open var provider: any ASAuthorizationProvider { fatalError("stand-in") }
    open var credential: any ASAuthorizationCredential { fatalError("stand-in") }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol ASAuthorizationControllerDelegate: NSObjectProtocol {
    func authorizationController(
        controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization)
    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension ASAuthorizationControllerDelegate {
    public func authorizationController(
        controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
    ) {}
    public func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {}
}

#if !os(watchOS)
@available(macOS 10.15, iOS 13.0, tvOS 13.0, *)
@MainActor
public protocol ASAuthorizationControllerPresentationContextProviding: NSObjectProtocol {
    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor
}
#endif

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
open class ASAuthorizationController: NSObject {
    public init(authorizationRequests: [ASAuthorizationRequest]) { fatalError("stand-in") }

    open var authorizationRequests: [ASAuthorizationRequest] { fatalError("stand-in") }

    weak open var delegate: (any ASAuthorizationControllerDelegate)? {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }

#if !os(watchOS)
    weak open var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)? {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
#endif

    open func performRequests() { fatalError("stand-in") }

    @available(macOS 13.0, iOS 16.0, *)
    open func cancel() { fatalError("stand-in") }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public struct ASAuthorizationError: Error, Hashable, Sendable {
    public enum Code: Int, Hashable, Sendable {
        case unknown = 1000
        case canceled = 1001
        case invalidResponse = 1002
        case notHandled = 1003
        case failed = 1004
        @available(macOS 11.0, iOS 14.0, *) case notInteractive = 1005
    }

    public var code: Code { fatalError("stand-in") }

    public static var canceled: Code { .canceled }
    public static var failed: Code { .failed }
}

@available(macOS 12.0, iOS 15.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialProvider: NSObject, ASAuthorizationProvider {
    public init(relyingPartyIdentifier: String) { fatalError("stand-in") }

    open var relyingPartyIdentifier: String { fatalError("stand-in") }

    open func createCredentialRegistrationRequest(challenge: Data, name: String, userID: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest
    { fatalError("stand-in") }

    open func createCredentialAssertionRequest(challenge: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest
    { fatalError("stand-in") }
}

@available(macOS 12.0, iOS 15.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest {}

@available(macOS 12.0, iOS 15.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: ASAuthorizationRequest {
    open var allowedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] {
        get { fatalError("stand-in") }
        set { fatalError("stand-in") }
    }
}

@available(macOS 12.0, iOS 15.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialDescriptor: NSObject {
    public init(credentialID: Data) { fatalError("stand-in") }
}

@available(macOS 12.0, iOS 15.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialRegistration: NSObject, ASAuthorizationCredential {
    open var rawAttestationObject: Data? { fatalError("stand-in") }
    open var rawClientDataJSON: Data { fatalError("stand-in") }
    open var credentialID: Data { fatalError("stand-in") }
}

@available(macOS 12.0, iOS 15.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialAssertion: NSObject, ASAuthorizationCredential {
    open var rawAuthenticatorData: Data! { fatalError("stand-in") }
    open var userID: Data! { fatalError("stand-in") }
    open var signature: Data! { fatalError("stand-in") }
    open var rawClientDataJSON: Data { fatalError("stand-in") }
    open var credentialID: Data { fatalError("stand-in") }
}
