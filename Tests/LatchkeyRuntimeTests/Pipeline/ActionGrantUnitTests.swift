import Foundation
import Testing

@_spi(Generated) @testable import LatchkeyRuntime

/// What a descriptor action builds and reads as a unit (``ActionGrant``), without the network (its wire behaviour
/// is in `ActionTests`, the Supabase suites, `SupabaseMFATests`, the admin suites and `SignOutDuringSignInTests`).
@Suite("Grants: descriptor actions as units")
struct ActionGrantUnitTests {
    /// `PATCH {baseURL}/users/{userId}/items?page={page}` with a header and a JSON body.
    private static let update = RequestSpec(
        method: "PATCH", url: AcmeSpec.template("{baseURL}/users/{userId}/items"),
        query: [ParameterSpec("page", AcmeSpec.string("{page}"))],
        headers: [ParameterSpec("X-Tenant", AcmeSpec.string("{tenant}"))], encoding: .json,
        body: [
            ParameterSpec("email", AcmeSpec.string("{email}")), ParameterSpec("notify", AcmeSpec.string("{notify}")),
            ParameterSpec("data", AcmeSpec.string("{data}")), ParameterSpec("tags", AcmeSpec.string("{tags}")),
        ], response: .document)

    private static let updateAction = ActionSpec(
        name: "updateItems", request: "update",
        parameters: [
            .init(name: "userId"), .init(name: "page", type: .int, isOptional: true), .init(name: "tenant"),
            .init(name: "email", minimumLength: 3), .init(name: "notify", type: .bool, isOptional: true),
            .init(name: "data", type: .object, isOptional: true),
            .init(name: "tags", type: .strings, isOptional: true, allowedValues: ["a", "b"]),
        ])

    private static let decoder = SessionDecoder(
        provider: "acme", sessionMapping: SessionMapping(), userMapping: UserMapping())

    private static func grant(
        _ arguments: [String: ActionArgument], action: ActionSpec = updateAction, request: RequestSpec? = update
    ) throws(AuthError) -> ActionGrant {
        try ActionGrant(action: action, request: request, arguments: arguments, provider: "acme")
    }

    private static func refusal(
        _ arguments: [String: ActionArgument], action: ActionSpec = updateAction, request: RequestSpec? = update
    ) -> AuthError? {
        do {
            _ = try grant(arguments, action: action, request: request)
            return nil
        } catch {
            return error
        }
    }

    @Test("the request puts path, query, header and body arguments where the request says, typed")
    func requestShape() throws {
        let grant = try Self.grant([
            "userId": .string("u-1_2.x~"), "page": .int(3), "tenant": .string("t 1"), "email": .string("ada@x.io"),
            "notify": .bool(false), "data": .object(["plan": .string("free")]), "tags": .strings(["a", "b"]),
        ])
        #expect(grant.request.name == "update")
        #expect(!grant.request.isTokenRequest)
        #expect(grant.request.accessToken == nil)
        #expect(grant.request.variables["notify"] == .bool(false))
        let scope = VariableScope(
            inputs: ["baseURL": "https://acme.example", "apiKey": "pk"], discovered: [:], derived: [])
        let built = try RequestBuilder(provider: AcmeSpec.make(), userAgent: nil)
            .build(Self.update, scope: scope.adding(grant.request.variables))
        #expect(built.method == "PATCH")
        #expect(built.url.absoluteString == "https://acme.example/users/u-1_2.x~/items?page=3")
        #expect(built.header("X-Tenant") == "t 1")
        #expect(
            JSON(data: built.body ?? Data())
                == .object([
                    "email": .string("ada@x.io"), "notify": .bool(false), "data": .object(["plan": .string("free")]),
                    "tags": .array([.string("a"), .string("b")]),
                ]))
        let bare = try Self.grant(["userId": .string("u1"), "tenant": .string("t"), "email": .string("ada@x.io")])
        let sparse = try RequestBuilder(provider: AcmeSpec.make(), userAgent: nil)
            .build(Self.update, scope: scope.adding(bare.request.variables))
        #expect(sparse.url.query == nil)
        #expect(JSON(data: sparse.body ?? Data()) == .object(["email": .string("ada@x.io")]))
    }

    @Test("unknown, missing, mistyped, too short, disallowed and unbounded arguments are refused")
    func argumentRefusals() {
        let base: [String: ActionArgument] = [
            "userId": .string("u1"), "tenant": .string("t"), "email": .string("ada@x.io"),
        ]
        let refused: [[String: ActionArgument]] = [
            base.merging(["other": .string("x")]) { $1 }, base.filter { $0.key != "email" },
            base.merging(["page": .string("3")]) { $1 }, base.merging(["email": .string("ab")]) { $1 },
            base.merging(["tags": .strings(["c"])]) { $1 }, base.merging(["tags": .strings([""])]) { $1 },
            base.merging(["tags": .strings(Array(repeating: "a", count: ActionGrant.maximumListItems + 1))]) { $1 },
        ]
        for arguments in refused {
            #expect(Self.refusal(arguments)?.code == .validationFailed, "\(arguments.keys.sorted())")
        }
        #expect(Self.refusal(base) == nil)
    }

    @Test(
        "a path argument must be one segment of unreserved characters",
        arguments: ["", ".", "..", "a/b", "../admin", "a?b", "a#b", "a%2Fb", "a b", "é", "a\u{0}b"])
    func pathArgumentRefused(value: String) {
        let error = Self.refusal(["userId": .string(value), "tenant": .string("t"), "email": .string("ada@x.io")])
        #expect(error?.code == .validationFailed)
        #expect(error?.message.contains("'userId' goes into the URL's path") == true)
        #expect(error?.provider == "acme")
    }

    @Test("a path argument that is not text is refused, whatever its parameter's type")
    func nonTextPathArgument() {
        let request = RequestSpec(method: "GET", url: AcmeSpec.template("{baseURL}/x/{id}/{flag}/{link}"))
        let action = ActionSpec(
            name: "typed", request: "typed",
            parameters: [
                .init(name: "id", type: .int, isOptional: true), .init(name: "flag", type: .bool, isOptional: true),
                .init(name: "link", type: .url, isOptional: true),
            ])
        let link = URL(string: "https://acme.example/a")!
        for arguments: [String: ActionArgument] in [["id": .int(7)], ["flag": .bool(true)], ["link": .url(link)]] {
            let error = Self.refusal(arguments, action: action, request: request)
            #expect(error?.code == .validationFailed)
            #expect(error?.message.contains("must be text: it is part of a path") == true)
        }
        // A query or body argument is not a path argument; without the request, no path is checked.
        #expect(
            Self.refusal(
                ["userId": .string("a/b"), "tenant": .string("t"), "email": .string("ada@x.io")], request: nil) == nil)
        #expect(
            Self.refusal(
                ["userId": .string("u"), "tenant": .string("a/b?c"), "email": .string("ada@x.io")]) == nil)
    }

    @Test("a document answer is the document, its `returns` member, or invalid_response without it")
    func documentAnswer() throws {
        let grant = try Self.grant(["userId": .string("u1"), "tenant": .string("t"), "email": .string("ada@x.io")])
        let answer: JSON = .object(["url": .string("https://x.example"), "n": .null])
        #expect(try grant.interpret(answer, headers: [:], decoder: Self.decoder) == .result(.document(answer)))
        #expect(try grant.interpret(nil, headers: [:], decoder: Self.decoder) == .result(.document(.null)))
        var action = Self.updateAction
        action.resultPointer = "/url"
        let returning = try Self.grant(
            ["userId": .string("u1"), "tenant": .string("t"), "email": .string("ada@x.io")], action: action)
        #expect(
            try returning.interpret(answer, headers: [:], decoder: Self.decoder)
                == .result(.document(.string("https://x.example"))))
        action.resultPointer = "/n"
        let missing = try Self.grant(
            ["userId": .string("u1"), "tenant": .string("t"), "email": .string("ada@x.io")], action: action)
        #expect(throws: AuthError.self) { try missing.interpret(answer, headers: [:], decoder: Self.decoder) }
        do {
            _ = try missing.interpret(answer, headers: [:], decoder: Self.decoder)
        } catch {
            #expect(error.code == .invalidResponse)
            #expect(error.message == "The answer has no '/n' member.")
        }
    }

    @Test("a paginated answer is a page with the total, next and last page its headers give")
    func pageAnswer() throws {
        var request = Self.update
        request.pagination = PaginationSpec(totalHeader: "X-Total-Count", linkHeader: "Link", pageParameter: "page")
        let grant = try Self.grant(
            ["userId": .string("u1"), "tenant": .string("t"), "email": .string("ada@x.io")], request: request)
        let headers: HTTPHeaderFields = [
            "X-Total-Count": " 42 ",
            "Link":
                "<https://a.example/u?page=3&per_page=2>; rel=\"next\", <https://a.example/u?page=21>; rel=\"last\"",
        ]
        let document: JSON = .object(["users": .array([])])
        #expect(
            try grant.interpret(document, headers: headers, decoder: Self.decoder)
                == .result(.page(ActionPage(document: document, total: 42, nextPage: 3, lastPage: 21))))
        #expect(
            try grant.interpret(document, headers: [:], decoder: Self.decoder)
                == .result(.page(ActionPage(document: document))))
    }

    @Test("session, user and either answers: a token response is a session, else a user or the document")
    func sessionAndUserAnswers() throws {
        func interpret(_ response: RequestSpec.Response, _ document: JSON?) throws(AuthError) -> ActionAnswer {
            var request = Self.update
            request.response = response
            let grant = try Self.grant(
                ["userId": .string("u1"), "tenant": .string("t"), "email": .string("ada@x.io")], request: request)
            return try grant.interpret(document, headers: [:], decoder: Self.decoder)
        }
        let token: JSON = .object(["access_token": .string("at-1"), "user": .object(["sub": .string("u1")])])
        let user: JSON = .object(["sub": .string("u1"), "email": .string("ada@x.io")])
        let decoded = try Self.decoder.user(from: user)
        #expect(try interpret(.none, token) == .result(.none))
        #expect(try interpret(.session, nil) == .session)
        #expect(try interpret(.user, user) == .user(decoded))
        #expect(try interpret(.sessionOrUser, token) == .session)
        #expect(try interpret(.sessionOrUser, user) == .result(.user(decoded)))
        #expect(try interpret(.sessionOrDocument, token) == .session)
        #expect(try interpret(.sessionOrDocument, user) == .result(.document(user)))
        do {
            _ = try interpret(.user, .object(["email": .string("ada@x.io")]))
            Issue.record("a user document without an identifier was accepted")
        } catch {
            #expect(error.code == .invalidResponse)
        }
    }

    @Test("a follow-up gets the arguments its action declares and the values read from the answer, bounded")
    func followUpArguments() throws {
        let followUp = ActionFollowUpSpec(action: "verify", arguments: ["challengeId": "/id", "round": "/round"])
        let verify = ActionSpec(
            name: "verify", request: "verify",
            parameters: [.init(name: "factorId"), .init(name: "challengeId"), .init(name: "round")])
        let values = try ActionGrant.followUpValues(
            followUp, answer: .object(["id": .string("c-9"), "round": .number(2)]), answeredBy: "challenge",
            provider: "acme")
        #expect(values == ["challengeId": .string("c-9"), "round": .string("2")])
        let known = values.merging(["factorId": .string("f-1"), "channel": .string("sms")]) { read, _ in read }
        #expect(
            ActionGrant.arguments(of: verify, among: known)
                == ["factorId": .string("f-1"), "challengeId": .string("c-9"), "round": .string("2")])
        let long = String(repeating: "x", count: ActionGrant.maximumFollowUpValueBytes + 1)
        for document: JSON? in [
            nil, .object(["round": .number(2)]), .object(["id": .string(""), "round": .number(2)]),
            .object(["id": .number(1.5), "round": .number(2)]), .object(["id": .string(long), "round": .number(2)]),
            .object(["id": .bool(true), "round": .number(2)]),
        ] {
            do {
                _ = try ActionGrant.followUpValues(
                    followUp, answer: document, answeredBy: "challenge", provider: "acme")
                Issue.record("a follow-up value was accepted from \(String(describing: document))")
            } catch {
                #expect(error.code == .invalidResponse)
                #expect(error.message.contains("for 'verify'"))
            }
        }
    }

    @Test("an emailed link's redirect and challenge: the caller's URL, else the configured one, else none")
    func linkChallenge() throws {
        let action = ActionSpec(
            name: "signUp", request: "signUp",
            parameters: [.init(name: "email"), .init(name: "redirectTo", type: .url, isOptional: true)],
            linkPKCE: LinkPKCESpec(redirects: ["signUp"]))
        let configured = try #require(URL(string: "dev.acme.app://signed-up"))
        let configuration = ProviderConfiguration(redirectURIs: ["signUp": configured])
        var grant = try ActionGrant(
            action: action, request: nil, arguments: ["email": .string("ada@x.io")], provider: "acme")
        #expect(grant.linkRedirect(configuration: configuration, hasCodeFlow: false) == nil)
        #expect(grant.linkRedirect(configuration: ProviderConfiguration(), hasCodeFlow: true) == nil)
        let redirect = try #require(grant.linkRedirect(configuration: configuration, hasCodeFlow: true))
        #expect(redirect == configured)
        grant.addLinkChallenge(verifier: "v" + String(repeating: "1", count: 42), redirect: redirect)
        #expect(grant.request.variables["redirectTo"] == .string("dev.acme.app://signed-up"))
        #expect(grant.request.variables["redirect_uri"] == .string("dev.acme.app://signed-up"))
        #expect(grant.request.variables["code_challenge_method"] == .string("S256"))
        #expect(
            grant.request.variables["code_challenge"]
                == .string(PKCE.challenge(for: "v" + String(repeating: "1", count: 42))))
        // The caller's own URL of the app's custom scheme wins and is not overwritten; a foreign one starts nothing.
        let own = try #require(URL(string: "dev.acme.app://other"))
        var given = try ActionGrant(
            action: action, request: nil, arguments: ["email": .string("ada@x.io"), "redirectTo": .url(own)],
            provider: "acme")
        #expect(given.linkRedirect(configuration: configuration, hasCodeFlow: true) == own)
        given.addLinkChallenge(verifier: "v", redirect: configured)
        #expect(given.request.variables["redirectTo"] == .string("dev.acme.app://other"))
        #expect(given.request.variables["redirect_uri"] == .string("dev.acme.app://signed-up"))
        let foreign = try ActionGrant(
            action: action, request: nil,
            arguments: ["email": .string("ada@x.io"), "redirectTo": .url(URL(string: "https://evil.example/x")!)],
            provider: "acme")
        #expect(foreign.linkRedirect(configuration: configuration, hasCodeFlow: true) == nil)
    }
}
