/// A word of the descriptor language that the descriptor decoder, the generator and the runtime share.
///
/// A term's `rawValue` is how a descriptor spells it; ``swiftCase`` is how generated code names it. Both come
/// from the one enum case, so the three parts of Latchkey cannot disagree about a spelling.
public protocol VocabularyTerm: RawRepresentable, CaseIterable, Sendable, Hashable where RawValue == String {}

extension VocabularyTerm {
    /// The case's Swift name, as generated code spells it after a leading dot (`basicIfSecret`).
    public var swiftCase: String { String(describing: self) }

    /// The term whose Swift case name is `name`, or `nil` when there is none.
    /// - Parameter name: A Swift case name such as `basicIfSecret`.
    public init?(swiftCase name: String) {
        guard let term = Self.allCases.first(where: { $0.swiftCase == name }) else { return nil }
        self = term
    }

    /// Every spelling a descriptor may use, in declaration order.
    public static var descriptorSpellings: [String] { allCases.map { $0.rawValue } }
}

/// Every vocabulary enum, for tests that check each case is understood and emitted.
public enum Vocabulary {
    /// The term types, in a fixed order.
    public static let termTypes: [any VocabularyTerm.Type] = [
        BodyEncoding.self, ClientAuthenticationMethod.self, RequestAuthorization.self, ResponseMeaning.self,
        TokenFormat.self, IssuerValidation.self, CallbackLocation.self, RedirectKind.self, InputKind.self,
        ParameterType.self, PKCEMethod.self, Flow.self, ErrorKind.self, BuiltInErrorCode.self, ClientAudience.self,
    ]
}
