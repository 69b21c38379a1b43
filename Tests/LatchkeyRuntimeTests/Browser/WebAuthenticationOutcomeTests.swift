import Foundation
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// Issue 17, items 1-2: what an authentication sheet's completion handler turns into, platform-neutral.
@Suite("Browser: authentication sheet outcome")
struct WebAuthenticationOutcomeTests {
    @Test("a callback URL is the result; cancellation is login_cancelled; anything else web_auth_start_failed")
    func mapping() throws {
        let url = URL(string: "dev.acme.app://cb?code=c&state=s")!
        #expect(try WebAuthenticationOutcome.result(callbackURL: url, error: nil, cancelled: false).get() == url)
        let cancelled = NSError(domain: "com.apple.AuthenticationServices.WebAuthenticationSession", code: 1)
        #expect(
            WebAuthenticationOutcome.result(callbackURL: nil, error: cancelled, cancelled: true).failure?.code
                == .loginCancelled)
        let failed = WebAuthenticationOutcome.result(
            callbackURL: nil, error: NSError(domain: "X", code: 2), cancelled: false
        ).failure
        #expect(failed?.code == .webAuthStartFailed)
        #expect(failed?.message.contains("X error 2") == true)
        #expect(
            WebAuthenticationOutcome.result(callbackURL: nil, error: nil, cancelled: false).failure?.code
                == .webAuthStartFailed)
        #expect(WebAuthenticationOutcome.notStarted.failure?.code == .webAuthStartFailed)
        #expect(WebAuthenticationOutcome.taskCancelled.failure?.code == .loginCancelled)
    }

    @Test(
        "a throwing sheet (SwiftUI's): its cancel and a task cancellation are login_cancelled, else web_auth_start_failed"
    )
    func thrown() {
        #expect(
            WebAuthenticationOutcome.result(thrown: CancellationError(), cancelled: false).failure?.code
                == .loginCancelled)
        let userCancelled = NSError(domain: "com.apple.AuthenticationServices.WebAuthenticationSession", code: 1)
        #expect(
            WebAuthenticationOutcome.result(thrown: userCancelled, cancelled: true).failure?.code == .loginCancelled)
        let failed = WebAuthenticationOutcome.result(thrown: NSError(domain: "Y", code: 4), cancelled: false).failure
        #expect(failed?.code == .webAuthStartFailed)
        #expect(failed?.message.contains("Y error 4") == true)
        #expect(WebAuthenticationOutcome.noWindow.failure?.code == .webAuthStartFailed)
    }

    @Test("a platform error's text (which can quote the callback URL) never reaches the message")
    func noErrorTextInMessage() {
        let error = NSError(
            domain: "Sheet", code: 3,
            userInfo: [NSLocalizedDescriptionKey: "failed at dev.acme.app://cb?code=SECRET-CODE"])
        let failure = WebAuthenticationOutcome.result(callbackURL: nil, error: error, cancelled: false).failure
        #expect(failure?.description.contains("SECRET-CODE") == false)
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
