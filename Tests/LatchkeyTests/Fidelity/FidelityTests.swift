import Foundation
@_spi(Generated) import Latchkey
@_spi(Generated) import LatchkeyRuntime
@_spi(Generated) import LatchkeyTesting
import Testing

/// Each catalog descriptor against what its provider documents: the responses in `Fixtures/<name>.json` are the
/// provider's own published examples (each names its source), served by the simulator in place of the one it
/// would build from the descriptor, so a descriptor whose JSON pointers or error rows were guessed wrong fails
/// here even though the simulator (which serves what the descriptor declares) agrees with it.
@Suite("Fidelity: every descriptor reads its provider's documented examples")
struct FidelityTests {
    static let fixtures = FidelityFixture.all()

    @Test("Every catalog descriptor has a fixture: documented examples, or the reason its documentation has none")
    func everyProviderHasAFixture() throws {
        let names = Set(LatchkeyProviders.all.map(\.name))
        for fixture in Self.fixtures {
            #expect(names.contains(fixture.provider), "\(fixture.file): no descriptor named \(fixture.provider)")
            if fixture.examples.isEmpty {
                #expect(
                    fixture.missing.contains { $0.count >= 40 },
                    "\(fixture.file) has no examples and does not say why (\"missing\")")
            }
        }
        let uncovered = names.subtracting(Self.fixtures.map(\.provider)).sorted()
        #expect(uncovered.isEmpty, "no fixture for: \(uncovered.joined(separator: ", "))")
        // Most of the catalog must be checked against documented examples, not excused.
        let replayed = Self.fixtures.filter { !$0.examples.isEmpty }.count
        #expect(replayed * 5 >= names.count * 4, "only \(replayed) of \(names.count) providers replay examples")
    }

    @Test("The generated client reads each documented example as documented", arguments: fixtures)
    func documentedExamples(_ fixture: FidelityFixture) async throws {
        let spec = try ConformanceHarness.spec(named: fixture.provider)
        for example in fixture.examples {
            let label = "\(fixture.provider): \(example.name) (\(example.source))"
            #expect(spec.requests[example.request] != nil, "\(label): no request named \(example.request)")
            guard let role = FidelityRole(example.request, in: spec) else {
                Issue.record("\(label): \(example.request) is not a sign-in, refresh or user-info request")
                continue
            }
            try await ConformanceHarness.run(fixture.provider, users: [Self.user(for: example)]) { harness in
                let outcome = await role.run(example, harness)
                let requests = harness.simulator.requests(to: .request(example.request)).count
                #expect(requests >= 1, "\(label): the request was never sent")
                Self.check(outcome, example.expectation, label)
            }
        }
    }

    /// The simulated account is the documented one, so that an ID token the simulator signs names the same
    /// subject as the documented user document.
    static func user(for example: FidelityFixture.Example) -> SimulatedUser {
        let user = example.expectation.user ?? [:]
        let demo = SimulatedUser.demo
        return SimulatedUser(
            id: (user["id"] ?? nil) ?? demo.id, email: (user["email"] ?? nil) ?? demo.email,
            name: (user["name"] ?? nil) ?? demo.name, password: demo.password)
    }

    static func check(_ outcome: FidelityOutcome, _ expectation: FidelityFixture.Expectation, _ label: String) {
        if let code = expectation.errorCode {
            guard case .failed(let error) = outcome else {
                Issue.record("\(label): expected \(code), the call succeeded")
                return
            }
            #expect(error.code.rawValue == code, "\(label): \(error)")
            if let kind = expectation.errorKind { #expect(error.kind.rawValue == kind, "\(label): \(error)") }
            return
        }
        let session: Session?
        let user: User?
        switch outcome {
        case .failed(let error):
            Issue.record("\(label): \(error)")
            return
        case .session(let value):
            session = value
            user = value.user
        case .user(let value):
            session = nil
            user = value
        }
        if let expected = expectation.user {
            guard let user else {
                Issue.record("\(label): no user")
                return
            }
            let actual: [String: String?] = ["id": user.id, "email": user.email, "name": user.name]
            for (field, value) in expected.sorted(by: { $0.key < $1.key }) {
                #expect(actual[field] == .some(value), "\(label): user.\(field)")
            }
        }
        if let expected = expectation.session {
            guard let session else {
                Issue.record("\(label): no session")
                return
            }
            let actual: [String: String?] = [
                "accessToken": session.accessToken, "refreshToken": session.refreshToken,
                "tokenType": session.tokenType, "scope": session.scope,
            ]
            for (field, value) in expected.sorted(by: { $0.key < $1.key }) {
                #expect(actual[field] == .some(value), "\(label): session.\(field)")
            }
        }
        if let seconds = expectation.expiresIn {
            let lifetime = session?.expiresAt.map { $0.timeIntervalSince(session?.issuedAt ?? $0) }
            #expect(lifetime.map { abs($0 - Double(seconds)) <= 5 } == true, "\(label): expires in \(seconds) s")
        }
    }
}

/// What one example's flow gave.
enum FidelityOutcome {
    case session(Session)
    case user(User)
    case failed(AuthError)
}

/// Which flow sends a request, and so how an example for it is replayed.
enum FidelityRole {
    case exchange, password, refresh, userInfo

    init?(_ request: String, in spec: ProviderSpec) {
        let flows = spec.flows
        if flows.authorizationCode?.exchangeRequest == request {
            self = .exchange
        } else if flows.password?.request == request {
            self = .password
        } else if flows.refresh?.request == request {
            self = .refresh
        } else if flows.userInfo?.request == request {
            self = .userInfo
        } else {
            return nil
        }
    }

    /// Runs the flow with the example answering its request once.
    func run(_ example: FidelityFixture.Example, _ harness: ConformanceHarness) async -> FidelityOutcome {
        let client = harness.client
        let simulator = harness.simulator
        do {
            switch self {
            case .exchange:
                simulator.failNext(example.response, request: example.request)
                return .session(
                    try await client.signInWithBrowser(
                        using: simulator.browser, additionalParameters: harness.extraAuthorizeParameters))
            case .password:
                simulator.failNext(example.response, request: example.request)
                let user = simulator.users[0]
                return .session(try await client.signIn(username: user.email, password: user.password))
            case .refresh:
                try await harness.signIn()
                simulator.failNext(example.response, request: example.request)
                return .session(try await client.currentSession(forceRefresh: true))
            case .userInfo:
                try await harness.signIn()
                simulator.failNext(example.response, request: example.request)
                return .user(try await client.fetchUser())
            }
        } catch {
            return .failed(error)
        }
    }
}
