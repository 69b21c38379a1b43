import LatchkeyVocabulary

/// The Swift case name of every vocabulary term, worked out once.
///
/// ``VocabularyTerm/swiftCase`` asks the runtime's reflection (`String(describing:)`) for the name, which costs
/// a few microseconds a call; a spec literal names terms thousands of times, from every core at once. The
/// table is made on first use (a `static let`, so once, whichever thread asks first) from
/// ``Vocabulary/termTypes`` and read without a lock afterwards.
enum VocabularySwiftCases {
    /// Case names by term type, then by the term's descriptor spelling.
    private static let table: [ObjectIdentifier: [String: String]] = {
        var table: [ObjectIdentifier: [String: String]] = [:]
        for type in Vocabulary.termTypes { table[ObjectIdentifier(type)] = names(of: type) }
        return table
    }()

    private static func names<Term: VocabularyTerm>(of type: Term.Type) -> [String: String] {
        var names: [String: String] = [:]
        for term in Term.allCases { names[term.rawValue] = term.swiftCase }
        return names
    }

    /// The Swift case name of `term`, or `nil` when its type is not in ``Vocabulary/termTypes`` (the caller
    /// then asks the term itself).
    static func name<Term: VocabularyTerm>(of term: Term) -> String? {
        table[ObjectIdentifier(Term.self)]?[term.rawValue]
    }
}
