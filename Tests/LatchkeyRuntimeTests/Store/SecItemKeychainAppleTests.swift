#if canImport(Security)
    import Foundation
    import Security
    import Testing

    @testable import LatchkeyRuntime

    /// On the first Mac CI: the glue turns each ``SecItemRequest`` field into its `SecItem` key and nothing more.
    @Suite("Store: SecItem dictionaries (Apple platforms)")
    struct SecItemKeychainAppleTests {
        private let query = KeychainQuery(
            service: "dev.latchkey.sessions", account: "acme", accessGroup: "TEAM.dev.acme.app")

        @Test("a read names the class, service, account, group, and asks for one item's data and attributes")
        func read() {
            let dictionary = SecItemKeychain.dictionary(.read(query))
            #expect(dictionary[kSecClass as String] as? String == kSecClassGenericPassword as String)
            #expect(dictionary[kSecAttrService as String] as? String == "dev.latchkey.sessions")
            #expect(dictionary[kSecAttrAccount as String] as? String == "acme")
            #expect(dictionary[kSecAttrAccessGroup as String] as? String == "TEAM.dev.acme.app")
            #expect(dictionary[kSecAttrSynchronizable as String] as? Bool == false)
            #expect(dictionary[kSecUseDataProtectionKeychain as String] as? Bool == true)
            #expect(dictionary[kSecReturnData as String] as? Bool == true)
            #expect(dictionary[kSecReturnAttributes as String] as? Bool == true)
            #expect(dictionary[kSecMatchLimit as String] as? String == kSecMatchLimitOne as String)
            #expect(dictionary[kSecAttrAccessible as String] == nil)
        }

        @Test("an add is device-only, readable after the first unlock")
        func add() {
            let dictionary = SecItemKeychain.dictionary(.add(query, data: Data("x".utf8), label: nil))
            #expect(
                dictionary[kSecAttrAccessible as String] as? String
                    == kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String)
            #expect(dictionary[kSecValueData as String] as? Data == Data("x".utf8))
            #expect(dictionary[kSecReturnAttributes as String] == nil)
        }

        @Test("an update's changes carry new data with its accessibility")
        func update() {
            let request = SecItemRequest.update(query, data: Data("x".utf8), label: nil, accessGroup: nil)
            let changes = SecItemKeychain.changes(request.changes)
            #expect(changes.count == 2)
            #expect(changes[kSecValueData as String] as? Data == Data("x".utf8))
        }
    }
#endif
