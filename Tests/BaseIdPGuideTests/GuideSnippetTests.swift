import BaseIdP
import Foundation
import Testing

/// Runs what of the guide's snippets needs neither a browser nor the app's real store.
@Suite @MainActor struct GuideSnippetTests {
    @Test func anInMemoryAuthStartsRestoringAndEndsSignedOut() async {
        let auth = inMemory()
        #expect(describe(auth) == "Signing in…")
        #expect(await auth.restore() == .signedOut)
        #expect(describe(auth) == "Signed out")
        #expect(auth.principal == nil)
    }

    @Test func anEphemeralSignOutIsSynchronous() async {
        let auth = BaseIdPAuth(
            clientId: "sq_live_yourapp", store: InMemorySessionStore(), prefersEphemeralSession: true)
        auth.signOut()
        #expect(auth.state == .signedOut)
        #expect(await auth.restore() == .signedOut)
    }
}
