import Foundation
@_spi(Generated) import LatchkeyRuntime
import Testing

@Suite("Review: an end-session request never prints its ID token")
struct EndSessionDescriptionReviewTests {
    @Test("description, debugDescription and dump leave out id_token_hint")
    func descriptionsLeaveOutTheIDToken() throws {
        let idToken = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlLXNlY3JldA"
        let url = try #require(
            URL(
                string: "https://op.example.com/logout?id_token_hint=\(idToken)"
                    + "&post_logout_redirect_uri=dev.acme.app%3A%2F%2Flogout&state=s-123"))
        let request = EndSessionRequest(
            url: url, state: "s-123", postLogoutRedirectURI: URL(string: "dev.acme.app://logout"))
        var dumped = ""
        dump(request, to: &dumped)
        for text in [String(describing: request), String(reflecting: request), "\(request)", dumped] {
            #expect(!text.contains(idToken), "\(text)")
            #expect(!text.contains("c2lnbmF0dXJlLXNlY3JldA"))
        }
        #expect(String(describing: request).contains("https://op.example.com/logout"))
        // The URL itself is unchanged: the browser needs the hint.
        #expect(request.url.absoluteString.contains(idToken))
    }
}
