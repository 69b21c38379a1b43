/// One way generated code constructs a value of the runtime's spec vocabulary: the type, how the call is spelled,
/// and every argument the generator may write, in the order the initializer declares them.
///
/// This is the one place the generator names the runtime: a spec literal is built only through ``call(_:)``, so
/// a type name, a label or a default the generator relies on is written once, next to the function that builds
/// that type's literal (`SpecLiteral+*.swift`), and ``RuntimeConstruct/all`` lists them all. The spec-agreement
/// tests (`Tests/LatchkeySpecAgreementTests`) compare every literal the generator writes for the catalog and the
/// coverage fixtures with the value the compiled client holds, field by field, through these tables — an
/// argument left out must equal the runtime's own default — and fail while a construct or label listed here is
/// written by no descriptor they compile.
struct RuntimeConstruct: Sendable {
    /// How generated code spells the call.
    enum Spelling: Sendable, Hashable {
        /// The type's initializer, named in full: `LatchkeyRuntime.RequestSpec(...)`.
        case qualified
        /// The initializer of a type the context implies: `.init(...)`.
        case initializer
        /// A case or static factory of a type the context implies: `.openID(...)`.
        case member(String)
        /// A case without a payload: `.null`.
        case bareMember(String)
    }

    /// One argument the generator may write.
    struct Parameter: Sendable {
        /// The argument label; `nil` for an unlabeled argument.
        let label: String?
        /// The stored property (or a case's payload element) the argument ends up in.
        let property: String
        /// The value the generator leaves out because the runtime's initializer defaults to it; `nil` for an
        /// argument the generator always writes.
        let omittedDefault: SwiftExpression?

        /// An argument the generator always writes.
        static func always(_ label: String) -> Parameter {
            Parameter(label: label, property: label, omittedDefault: nil)
        }

        /// An unlabeled argument the generator always writes, stored as `property`.
        static func unlabeled(_ property: String) -> Parameter {
            Parameter(label: nil, property: property, omittedDefault: nil)
        }

        /// An argument left out when it equals `value`, the runtime's default.
        static func unless(_ label: String, _ value: SwiftExpression) -> Parameter {
            Parameter(label: label, property: label, omittedDefault: value)
        }

        /// An optional argument, left out when it is `nil` (the runtime's default).
        static func optional(_ label: String) -> Parameter { unless(label, .none) }
    }

    /// The runtime type in full, as `String(reflecting:)` names it (`LatchkeyRuntime.InputSpec.Rejection`).
    let type: String
    /// How the call is spelled.
    let spelling: Spelling
    /// The arguments in declaration order.
    let parameters: [Parameter]

    /// Creates a construct of a runtime type named relative to `LatchkeyRuntime`.
    init(_ type: String, _ spelling: Spelling, _ parameters: [Parameter], module: String = "LatchkeyRuntime") {
        self.type = module + "." + type
        self.spelling = spelling
        self.parameters = parameters
    }

    /// The name generated code writes before the arguments.
    var printedName: String {
        switch spelling {
        case .qualified: type
        case .initializer: ".init"
        case .member(let name), .bareMember(let name): "." + name
        }
    }

    /// The call with `values` by property: absent and `nil` values are left out, and so is a value equal to its
    /// parameter's ``Parameter/omittedDefault``; the others are written in declaration order.
    /// - Parameter values: The arguments' values, keyed by ``Parameter/property``.
    /// - Returns: The expression generated code holds.
    func call(_ values: KeyValuePairs<String, SwiftExpression?> = [:]) -> SwiftExpression {
        var arguments: [SwiftExpression.Argument] = []
        arguments.reserveCapacity(values.count)
        // Callers list the values in declaration order, so each parameter's value is usually the next one:
        // looked for there first, then anywhere.
        var next = values.startIndex
        var found = 0
        for parameter in parameters {
            let index: Int
            if next < values.endIndex, values[next].key == parameter.property {
                index = next
            } else if let elsewhere = values.firstIndex(where: { $0.key == parameter.property }) {
                index = elsewhere
            } else {
                continue
            }
            found += 1
            next = index + 1
            guard let value = values[index].value else { continue }
            if let omitted = parameter.omittedDefault, omitted == value { continue }
            arguments.append(SwiftExpression.Argument(label: parameter.label, value: value))
        }
        if found != values.count {
            let unknown = values.map(\.key).filter { key in !parameters.contains { $0.property == key } }
            preconditionFailure("\(type) has no argument \(unknown.joined(separator: ", ")) in its table")
        }
        if case .bareMember(let name) = spelling { return .symbol("." + name) }
        return .call(printedName, arguments)
    }
}

extension RuntimeConstruct {
    /// Every construct the generator can write, each declared beside the function that writes it.
    static let all: [RuntimeConstruct] = [
        providerSpec, clientPolicy, clientSecretRequirement, captureSpec, senderConstraintSpec,
        pushedAuthorizationSpec,
        literalTemplate, variableTemplate, segmentedTemplate, literalSegment, variableSegment, firstOfSegment,
        jsonString, jsonNumber, jsonBool, jsonNull, jsonArray, jsonObject, jsonMember, parameterSpec,
        inputSpec, inputRejection, inputRequirement, prefixTest, jwtClaimTest,
        requestSpec, paginationSpec, openIDDiscovery, customDiscovery, discoveryMember,
        flowSet, passwordFlowSpec, authorizationCodeFlowSpec, refreshFlowSpec, signOutFlowSpec, userInfoFlowSpec,
        deviceCodeFlowSpec, clientCredentialsFlowSpec, endSessionFlowSpec,
        actionSpec, actionParameter, linkPKCESpec, actionFollowUpSpec, passkeyCeremonySpec,
        errorMappingSpec, errorRule, memberCondition,
        callbackSpec, implicitSessionSpec, callbackUserSpec,
        sessionMapping, userMapping, tokenSpec, accessTokenClaimsSpec, assuranceSpec,
    ]
}
