import Foundation
@_spi(Generated) import LatchkeyRuntime
import Testing

@Suite("Review: a client credentials token never shows its access token")
struct ClientCredentialsTokenMirrorReviewTests {
    @Test("dump and the mirror leave the access token out, as description does")
    func dumpLeavesOutTheToken() {
        let secret = "cc-access-token-0123456789abcdef"
        let token = ClientCredentialsToken(
            accessToken: secret, tokenType: "Bearer", expiresAt: Date(timeIntervalSince1970: 1_800_003_600),
            issuedAt: Date(timeIntervalSince1970: 1_800_000_000), scopes: ["read"])
        var dumped = ""
        dump(token, to: &dumped)
        let children = Mirror(reflecting: token).children.map { "\($0.label ?? ""): \($0.value)" }.joined()
        for text in [dumped, children, String(describing: token), String(reflecting: token)] {
            #expect(!text.contains(secret), "\(text)")
        }
        #expect(dumped.contains("Bearer"))
    }
}
