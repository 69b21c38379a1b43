#if canImport(Security)
    import LatchkeyRuntime
    import Security
    import Testing

    /// On the first Mac CI: the platform-neutral status constants are Security's.
    @Suite("Store: Keychain status constants (Apple platforms)")
    struct KeychainStatusAppleTests {
        @Test("KeychainStatus matches Security's OSStatus values")
        func constants() {
            #expect(KeychainStatus.success == errSecSuccess)
            #expect(KeychainStatus.itemNotFound == errSecItemNotFound)
            #expect(KeychainStatus.duplicateItem == errSecDuplicateItem)
            #expect(KeychainStatus.interactionNotAllowed == errSecInteractionNotAllowed)
            #expect(KeychainStatus.missingEntitlement == errSecMissingEntitlement)
        }
    }
#endif
