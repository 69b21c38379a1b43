import Foundation
@_spi(Generated) import LatchkeyRuntime
import Testing

/// Issue 27, item 4.2: the `SecItem` requests the Keychain store makes, as values, checked on Linux; the
/// Apple glue (`SecItemKeychain`) only turns each field into its dictionary key.
@Suite("Store: SecItem requests")
struct SecItemRequestTests {
    private static let query = KeychainQuery(
        service: "dev.latchkey.sessions", account: "acme", accessGroup: "TEAM.dev.acme.app")
    private static let data = Data("record".utf8)

    /// The fields every request of the store shares.
    private func expectCommon(_ request: SecItemRequest, group: String? = "TEAM.dev.acme.app") {
        #expect(request.itemClass == .genericPassword)
        #expect(request.service == "dev.latchkey.sessions")
        #expect(request.account == "acme")
        #expect(request.accessGroup == group)
        #expect(request.synchronizable == false)
        #expect(request.useDataProtectionKeychain)
    }

    @Test(
        "each call's shape",
        arguments: [
            (
                SecItemRequest.read(query), SecItemRequest.Call.copyMatching, true, true,
                SecItemRequest.MatchLimit?.some(.one)
            ),
            (.add(query, data: data, label: nil), .add, false, false, nil),
            (.add(query, data: data, label: nil, reportingGroup: true), .add, false, true, nil),
            (.update(query, data: data, label: nil, accessGroup: nil), .update, false, false, nil),
            (.delete(query), .delete, false, false, nil),
        ])
    func shapes(
        request: SecItemRequest, call: SecItemRequest.Call, returnData: Bool, returnAttributes: Bool,
        limit: SecItemRequest.MatchLimit?
    ) {
        expectCommon(request)
        #expect(request.call == call)
        #expect(request.returnData == returnData)
        #expect(request.returnAttributes == returnAttributes)
        #expect(request.matchLimit == limit)
    }

    @Test("an add creates a device-only item readable after the first unlock, with its data and label")
    func add() {
        let request = SecItemRequest.add(Self.query, data: Self.data, label: "lease")
        #expect(request.data == Self.data)
        #expect(request.label == "lease")
        #expect(request.accessibility == .afterFirstUnlockThisDeviceOnly)
        #expect(request.changes == nil)
    }

    @Test("queries carry no item attributes; a label in the query is an exact match")
    func queries() {
        var labelled = Self.query
        labelled.label = "seen lease"
        for request in [SecItemRequest.read(labelled), .delete(labelled)] {
            #expect(request.label == "seen lease")
            #expect(request.data == nil)
            #expect(request.accessibility == nil)
            #expect(request.changes == nil)
        }
    }

    @Test(
        "an update sets what is given; new data comes with its accessibility",
        arguments: [
            (data as Data?, nil as String?, nil as String?),
            (nil, "label", nil),
            (nil, nil, "TEAM.dev.acme.shared"),
        ])
    func update(data: Data?, label: String?, group: String?) {
        let request = SecItemRequest.update(Self.query, data: data, label: label, accessGroup: group)
        #expect(
            request.changes
                == SecItemRequest.Changes(
                    data: data, accessibility: data == nil ? nil : .afterFirstUnlockThisDeviceOnly, label: label,
                    accessGroup: group))
        #expect(request.data == nil)
        #expect(request.accessibility == nil)
    }

    @Test("only the probe leaves the group out, and asks for the new item's attributes")
    func probe() {
        let probe = KeychainQuery(service: "dev.latchkey.sessions", account: "acme", accessGroup: nil)
        let request = SecItemRequest.add(probe, data: Data(), label: nil, reportingGroup: true)
        expectCommon(request, group: nil)
        #expect(request.returnAttributes)
    }
}
