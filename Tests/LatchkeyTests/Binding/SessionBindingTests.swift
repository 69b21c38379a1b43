import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Stored sessions are bound to their provider, issuer and client: two clients sharing one file store never
/// restore, nor send, each other's tokens (issue 15, item 1).
@Suite("Sessions bound to their provider and client")
struct SessionBindingTests {
    @Test("two OpenID clients of two issuers on one FileSessionStore: the second restores nothing and sends nothing")
    func twoIssuersShareAStore() async throws {
        try await withSimulator(OidcClient.provider) { first in
            try await withSimulator(OidcClient.provider) { second in
                let directory = BindingScratch()
                defer { directory.remove() }
                let store = FileSessionStore(directory: directory.url)
                let a = try OidcClient(
                    issuer: first.issuer, clientID: "app-a", options: AuthClientOptions(store: store))
                let session = try await a.signInWithLoopback(open: headlessOpener(), timeout: .seconds(60))

                let b = try OidcClient(
                    issuer: second.issuer, clientID: "app-b", options: AuthClientOptions(store: store))
                #expect(a.client.storeKey != b.client.storeKey)
                #expect(await b.restore() == .signedOut)
                await expectCode(.sessionMissing) { _ = try await b.currentSession(forceRefresh: true) }
                await expectCode(.sessionMissing) { _ = try await b.fetchUser() }
                #expect(second.requests.isEmpty, "the second provider got \(second.requests.map(\.path))")
                expectNoToken(of: session, in: second.requests)

                // The first client's own relaunch still restores its user, with no request.
                let before = first.requests.count
                let relaunched = try OidcClient(
                    issuer: first.issuer, clientID: "app-a", options: AuthClientOptions(store: store))
                #expect(await relaunched.restore() == .signedIn(session.userOrPlaceholder))
                #expect(await relaunched.client.cachedSession?.refreshToken == session.refreshToken)
                #expect(first.requests.count == before)
            }
        }
    }

    @Test("one issuer, two client ids on one store: the other client id restores nothing and sends nothing")
    func twoClientIDsShareAStore() async throws {
        try await withSimulator(OidcClient.provider) { provider in
            let directory = BindingScratch()
            defer { directory.remove() }
            let store = FileSessionStore(directory: directory.url)
            let a = try OidcClient(issuer: provider.issuer, clientID: "app-a", options: AuthClientOptions(store: store))
            let session = try await a.signInWithLoopback(open: headlessOpener(), timeout: .seconds(60))
            let before = provider.requests.count
            let b = try OidcClient(issuer: provider.issuer, clientID: "app-b", options: AuthClientOptions(store: store))
            #expect(await b.restore() == .signedOut)
            await expectCode(.sessionMissing) { _ = try await b.validAccessToken() }
            #expect(provider.requests.count == before, "requests after the first sign-in")
            expectNoToken(of: session, in: Array(provider.requests.dropFirst(before)))
        }
    }

    @Test("the same explicit storeKey for two clients: a record of the other client is refused, nothing sent")
    func sameExplicitKeyIsRefused() async throws {
        try await withSimulator(OidcClient.provider) { first in
            try await withSimulator(OidcClient.provider) { second in
                let store = InMemorySessionStore()
                let options = AuthClientOptions(store: store, storeKey: "shared")
                let a = try OidcClient(issuer: first.issuer, clientID: "app-a", options: options)
                let session = try await a.signInWithLoopback(open: headlessOpener(), timeout: .seconds(60))
                let b = try OidcClient(issuer: second.issuer, clientID: "app-b", options: options)
                #expect(await b.restore() == .signedOut)
                await expectCode(.sessionMissing) { _ = try await b.currentSession(forceRefresh: true) }
                #expect(second.requests.isEmpty)
                expectNoToken(of: session, in: second.requests)
            }
        }
    }

    @Test("AuthRegistry with two tenants of one provider, default options: each keeps its own session")
    func registryKeepsTenantsApart() async throws {
        try await withSimulator(OidcClient.provider) { tenantA in
            try await withSimulator(OidcClient.provider) { tenantB in
                let directory = BindingScratch()
                defer { directory.remove() }
                let store = FileSessionStore(directory: directory.url)
                func register(_ registry: AuthRegistry) async throws -> (AuthClient, AuthClient) {
                    let a = try await registry.client(forKey: "tenant-a") { () throws(AuthError) in
                        try OidcClient(
                            issuer: tenantA.issuer, clientID: "app", options: AuthClientOptions(store: store)
                        )
                        .client
                    }
                    let b = try await registry.client(forKey: "tenant-b") { () throws(AuthError) in
                        try OidcClient(
                            issuer: tenantB.issuer, clientID: "app", options: AuthClientOptions(store: store)
                        )
                        .client
                    }
                    return (a, b)
                }
                let (a, b) = try await register(AuthRegistry())
                let sessionA = try await OidcClient(client: a).signInWithLoopback(
                    open: headlessOpener(), timeout: .seconds(60))
                let sessionB = try await OidcClient(client: b).signInWithLoopback(
                    open: headlessOpener(), timeout: .seconds(60))
                #expect(sessionA.accessToken != sessionB.accessToken)

                // A relaunch: each tenant restores its own session.
                let (relaunchedA, relaunchedB) = try await register(AuthRegistry())
                await relaunchedA.restore()
                await relaunchedB.restore()
                #expect(await relaunchedA.cachedSession?.refreshToken == sessionA.refreshToken)
                #expect(await relaunchedB.cachedSession?.refreshToken == sessionB.refreshToken)
                // Signing one tenant out leaves the other signed in.
                try await relaunchedA.signOut()
                let again = try OidcClient(
                    issuer: tenantB.issuer, clientID: "app", options: AuthClientOptions(store: store))
                #expect(await again.restore() == .signedIn(sessionB.userOrPlaceholder))
            }
        }
    }
}

/// A fresh directory under the temporary directory, removed by ``remove()``.
struct BindingScratch {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("latchkey-binding-\(UUID().uuidString)", isDirectory: true)

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Expects `work` to throw an ``AuthError`` with a code.
func expectCode(
    _ code: AuthError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ work: () async throws -> Void
) async {
    do {
        try await work()
        Issue.record("expected \(code.rawValue), got no error", sourceLocation: sourceLocation)
    } catch let error as AuthError {
        #expect(error.code == code, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(code.rawValue), got \(error)", sourceLocation: sourceLocation)
    }
}

/// Expects none of a session's tokens in any header, target or body of the requests.
func expectNoToken(
    of session: Session, in requests: [RecordedRequest], sourceLocation: SourceLocation = #_sourceLocation
) {
    let tokens = [session.accessToken, session.refreshToken, session.idToken].compactMap { $0 }
    for request in requests {
        let text = ([request.target] + request.headers.map(\.value) + [request.bodyText ?? ""]).joined(separator: "\n")
        for token in tokens where text.contains(token) {
            Issue.record(
                "\(request.method) \(request.path) carries a token of another client", sourceLocation: sourceLocation)
        }
    }
}

/// Opens authorization URLs with a fresh ``HeadlessUserAgent`` (the user approves).
func headlessOpener() -> @Sendable (URL) async throws(AuthError) -> Void {
    let agent = HeadlessUserAgent()
    return { url throws(AuthError) in try await agent.open(url) }
}
