import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Catalog descriptors with captures against the simulator: Atlassian's cloud id is read from
/// `accessible-resources` once after sign-in and fills the Jira URL of a later action.
@Suite("Catalog captures on the wire")
struct CatalogCaptureTests {
    @Test(
        "Atlassian: accessible-resources once after sign-in, then jiraMyself on /ex/jira/{cloudid}/…",
        timeLimit(minutes: 1))
    func atlassianCloudID() async throws {
        try await ConformanceHarness.run("atlassian") { harness in
            let simulator = harness.simulator
            let session = try await harness.signIn()
            let cloudID = ProviderSimulator.capturedValue("cloudid")
            #expect(session.captures["cloudid"] == cloudID)
            let resources = simulator.requests(to: .request("accessibleResources"))
            #expect(resources.count == 1)
            #expect(resources.first?.header("Authorization") == "Bearer \(session.accessToken)")

            _ = try await harness.client.perform(action: "jiraMyself")
            let sent = try #require(simulator.requests(to: .request("jiraMyself")).last)
            #expect(sent.path == "/ex/jira/\(cloudID)/rest/api/3/myself")
            #expect(simulator.requests(to: .request("accessibleResources")).count == 1, "no second capture request")
        }
    }
}
