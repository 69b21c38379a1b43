import Foundation
import LatchkeyPlatform
import Testing

@testable import LatchkeyRuntime

/// Where the import looks for supabase-swift's Keychain item, and how its stored formats read, checked on Linux
/// with an in-memory keychain (`SecItem*` itself is compiled only on Apple platforms).
@Suite("Session import: supabase-swift's Keychain locations and stored formats")
struct SupabaseSwiftImportTests {
    /// A keychain of `(service, account)` items that records every call.
    final class FakeItems: SupabaseSwiftKeychainItems {
        let items: Locked<[String: Data]>
        let calls = Locked<[String]>([])

        init(_ items: [String: Data]) { self.items = Locked(items) }

        static func key(_ service: String?, _ account: String) -> String { "\(service ?? "-")|\(account)" }

        func read(service: String?, account: String, accessGroup: String?) throws(AuthError) -> Data? {
            calls.withLock { $0.append("read \(Self.key(service, account)) \(accessGroup ?? "-")") }
            return items.withLock { $0[Self.key(service, account)] }
        }

        func delete(service: String?, account: String, accessGroup: String?) throws(AuthError) {
            calls.withLock { $0.append("delete \(Self.key(service, account)) \(accessGroup ?? "-")") }
            items.withLock { $0[Self.key(service, account)] = nil }
        }
    }

    @Test(
        "Default storage: the bundle identifier's service, then supabase.gotrue.swift; the storage key, then supabase.session"
    )
    func defaultLocations() async throws {
        let items = FakeItems(["supabase.gotrue.swift|supabase.auth.token": Data("v2".utf8)])
        let source = SupabaseSwiftKeychainSource(
            items: items, storageKey: "supabase.auth.token", service: nil, accessGroup: "TEAM.shared",
            bundleIdentifier: "dev.example.app")

        #expect(try await source.load() == Data("v2".utf8))
        #expect(
            items.calls.withLock { $0 } == [
                "read dev.example.app|supabase.auth.token TEAM.shared",
                "read supabase.gotrue.swift|supabase.auth.token TEAM.shared",
            ])

        try await source.remove()
        #expect(items.items.withLock { $0.isEmpty })
        #expect(items.calls.withLock { $0.filter { $0.hasPrefix("delete") }.count } == 4)
    }

    @Test("An explicit service (KeychainLocalStorage(service:)) and a custom storage key are the only place looked at")
    func explicitService() async throws {
        let items = FakeItems([:])
        let source = SupabaseSwiftKeychainSource(
            items: items, storageKey: "my.key", service: "my.service", accessGroup: nil,
            bundleIdentifier: "dev.example.app")
        #expect(try await source.load() == nil)
        #expect(items.calls.withLock { $0 } == ["read my.service|my.key -"])
    }

    @Test("supabase-swift's three stored formats become GoTrue's session document")
    func formats() throws {
        let current = Data(
            """
            {"accessToken":"a.b.c","tokenType":"bearer","expiresIn":3600,"expiresAt":1700003600,"refreshToken":"r",
             "user":{"id":"F33D3EC9-A2EE-47C4-80E1-5BD919F3D8B8","appMetadata":{"provider":"email"},
             "userMetadata":{"fullName":"kept as is"},"aud":"authenticated","createdAt":721692800,
             "updatedAt":721692800,"isAnonymous":false,
             "identities":[{"id":"abc","identityId":"859F402D-B3DE-4105-A1B9-932836D9193B","userId":"F33D3EC9-A2EE-47C4-80E1-5BD919F3D8B8","provider":"email"}]}}
            """.utf8)
        let document = try #require(SupabaseSwiftSessionFormat.sessionDocument(from: current))
        #expect(document.value(at: "/access_token")?.string == "a.b.c")
        #expect(document.value(at: "/refresh_token")?.string == "r")
        #expect(document.value(at: "/expires_at")?.double == 1_700_003_600)
        #expect(document.value(at: "/expires_in") == nil)
        #expect(document.value(at: "/user/id")?.string == "f33d3ec9-a2ee-47c4-80e1-5bd919f3d8b8")
        #expect(document.value(at: "/user/user_metadata/fullName")?.string == "kept as is")
        #expect(document.value(at: "/user/created_at")?.string == "2023-11-14T22:13:20.000Z")
        #expect(document.value(at: "/user/is_anonymous")?.bool == false)
        #expect(document.value(at: "/user/identities/0/id")?.string == "abc")
        #expect(
            document.value(at: "/user/identities/0/identity_id")?.string == "859f402d-b3de-4105-a1b9-932836d9193b")

        let wrapped = Data(
            #"{"session":{"access_token":"a.b.c","refresh_token":"r","expires_at":5},"expiration_date":"x"}"#.utf8)
        #expect(
            SupabaseSwiftSessionFormat.sessionDocument(from: wrapped)?.value(at: "/access_token")?.string == "a.b.c")
        #expect(SupabaseSwiftSessionFormat.sessionDocument(from: Data(#"{"user":{}}"#.utf8)) == nil)
        #expect(SupabaseSwiftSessionFormat.sessionDocument(from: Data("not json".utf8)) == nil)
    }
}
